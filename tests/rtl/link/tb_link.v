// SPDX-License-Identifier: ISC
// The link_phy testbench (test_link_phy.sh, verilator --binary --timing): tb_link_phy in
// several configurations at once, each with its own clocks, offsets and seed:
//   default  FLIT_BITS 32, 2 VCs of 4 flits, 2 lanes, 3 cycles per symbol, tags in block
//            RAM, B's clock 300 ppm slow, go-back-N (RETRY 1), the full scenario with the
//            damage scenarios (noise, burst, chosen frames, a credit-only frame)
//   narrow   16-bit flits, 4 VCs of 3, 1 lane, 4 cycles per symbol, tags in flip-flops,
//            B 700 ppm fast, fewer flits, RETRY 1
//   wide     8 VCs of 2, 4 lanes, 5 cycles per symbol, B 80 ppm slow, other skews, RETRY 1
//   drift    as default, B's clock 0.5% fast, fewer flits, RETRY 1 (its longer frames:
//            rtl/link/README.md)
//   default0, narrow0, drift0: default, narrow and drift (clocks 1% apart) with RETRY 0
//            (fail-stop)
//   board    the board's router profile (config.mk ROUTER_BOARD_*): 1 VC of 16 flits,
//            tags in flip-flops, B 200 ppm fast, RETRY 1
// It ends when all are done (or at a time limit, with a FAIL line).
`timescale 1ps / 1fs
module tb_link;
    localparam N = 8;
    wire [N-1:0] done;
    tb_link_phy #(.NAME("default")) cfg_default (.done(done[0]));
    tb_link_phy #(.NAME("narrow"), .FLIT_BITS(16), .VCS(4), .BUF_DEPTH(3), .LANES(1),
                  .OVERSAMPLE(4), .TAG_RAM(0), .PPM(-700.0), .PHASE(31000.0), .SEED(2),
                  .QUICK(1)) cfg_narrow (.done(done[1]));
    tb_link_phy #(.NAME("wide"), .VCS(8), .BUF_DEPTH(2), .LANES(4), .OVERSAMPLE(5),
                  .PPM(80.0), .PHASE(13000.0), .SKEW0(6000.0), .SKEW1(300.0), .SKEW2(9000.0),
                  .SKEW3(4000.0), .SEED(3), .QUICK(1)) cfg_wide (.done(done[2]));
    tb_link_phy #(.NAME("drift"), .PPM(-5000.0), .PHASE(17000.0), .SEED(4),
                  .QUICK(1)) cfg_drift (.done(done[3]));
    tb_link_phy #(.NAME("default0"), .RETRY(0)) cfg_default0 (.done(done[4]));
    tb_link_phy #(.NAME("narrow0"), .FLIT_BITS(16), .VCS(4), .BUF_DEPTH(3), .LANES(1),
                  .OVERSAMPLE(4), .TAG_RAM(0), .PPM(-700.0), .PHASE(31000.0), .SEED(2),
                  .QUICK(1), .RETRY(0)) cfg_narrow0 (.done(done[5]));
    tb_link_phy #(.NAME("drift0"), .PPM(-10000.0), .PHASE(17000.0), .SEED(4),
                  .QUICK(1), .RETRY(0)) cfg_drift0 (.done(done[6]));
    tb_link_phy #(.NAME("board"), .VCS(1), .BUF_DEPTH(16), .TAG_RAM(0), .PPM(200.0),
                  .PHASE(9000.0), .SEED(5), .QUICK(1)) cfg_board (.done(done[7]));
    initial begin
        wait (done == {N{1'b1}});
        $finish;
    end
    initial begin
        #(64'd800_000_000_000);
        $display("FAIL link timeout: the scenario did not finish (done %b)", done);
        $finish;
    end
endmodule
