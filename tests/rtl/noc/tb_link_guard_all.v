// SPDX-License-Identifier: ISC
// Top of the protected-link testbench (test_link_guard.sh): tb_link_guard in three
// configurations at once, on one clock: the simulated machine's (32-bit flits, 2 VCs of
// 4), 64-bit flits with 4 VCs of 3 (the least at full rate), and 8 VCs of 8.
`timescale 1ns/1ps
module tb_link_guard_all;
    reg clk = 1'b0;
    always #5 clk = ~clk;
    wire [2:0] done;
    tb_link_guard #(.NAME("default"), .FLIT_BITS(32), .VCS(2), .BUF_DEPTH(4), .SEED(1)) a (.clk(clk), .done(done[0]));
    tb_link_guard #(.NAME("wide"), .FLIT_BITS(64), .VCS(4), .BUF_DEPTH(3), .SEED(2)) b (.clk(clk), .done(done[1]));
    tb_link_guard #(.NAME("vc8"), .FLIT_BITS(32), .VCS(8), .BUF_DEPTH(8), .SEED(3), .RATE(25)) c (.clk(clk), .done(done[2]));
    initial begin
        wait (&done);
        $display("DONE link_guard");
        $finish;
    end
    initial begin
        #20000000;
        $display("FAIL guard timeout: the testbench did not finish");
        $finish;
    end
endmodule
