// SPDX-License-Identifier: ISC
// The link_phy testbench (test_link_phy.sh, verilator --binary --timing): tb_link_phy in
// three configurations at once, each with its own clocks, offsets and seed:
//   default  FLIT_BITS 32, 2 VCs of 4 flits, 2 lanes, 3 cycles per symbol, tags in block
//            RAM, B's clock 300 ppm slow, the full scenario
//   narrow   16-bit flits, 4 VCs of 3, 1 lane, 4 cycles per symbol, tags in flip-flops,
//            B 700 ppm fast, fewer flits
//   wide     8 VCs of 2, 4 lanes, 5 cycles per symbol, B 80 ppm slow, other skews
// It ends when all three are done (or at a time limit, with a FAIL line).
`timescale 1ps / 1fs
module tb_link;
    wire [2:0] done;
    tb_link_phy #(.NAME("default")) cfg_default (.done(done[0]));
    tb_link_phy #(.NAME("narrow"), .FLIT_BITS(16), .VCS(4), .BUF_DEPTH(3), .LANES(1),
                  .OVERSAMPLE(4), .TAG_RAM(0), .PPM(-700.0), .PHASE(31000.0), .SEED(2),
                  .QUICK(1)) cfg_narrow (.done(done[1]));
    tb_link_phy #(.NAME("wide"), .VCS(8), .BUF_DEPTH(2), .LANES(4), .OVERSAMPLE(5),
                  .PPM(80.0), .PHASE(13000.0), .SKEW0(6000.0), .SKEW1(300.0), .SKEW2(9000.0),
                  .SKEW3(4000.0), .SEED(3), .QUICK(1)) cfg_wide (.done(done[2]));
    initial begin
        wait (done == 3'b111);
        $finish;
    end
    initial begin
        #(64'd400_000_000_000);
        $display("FAIL link timeout: the scenario did not finish (done %b)", done);
        $finish;
    end
endmodule
