// SPDX-License-Identifier: ISC
// sb_pll40_pad_model: a stand-in for the iCE40 PLL (SB_PLL40_PAD) in simulations of the
// iCEBreaker top and its netlist (yosys's cells_sim.v has only an empty black box for it).
// It passes the pin's clock through unchanged, so a simulated cycle is a cycle of the
// PLL's output (the design's CLK_HZ), and raises LOCK after LOCK_CYCLES cycles.
// Not synthesised: the bitstream uses the real primitive. Named as the primitive it stands in
// for (so the file's name is not the module's), with the primitive's parameters and pins
// that a pass-through does not use.
/* verilator lint_off DECLFILENAME */
/* verilator lint_off UNUSEDPARAM */
/* verilator lint_off UNUSEDSIGNAL */
module SB_PLL40_PAD #(
    parameter FEEDBACK_PATH = "SIMPLE",
    parameter [3:0] DIVR = 4'd0,
    parameter [6:0] DIVF = 7'd0,
    parameter [2:0] DIVQ = 3'd0,
    parameter [2:0] FILTER_RANGE = 3'd0,
    parameter LOCK_CYCLES = 16
) (
    input  wire PACKAGEPIN,
    output wire PLLOUTCORE,
    output wire PLLOUTGLOBAL,
    output reg  LOCK,
    input  wire BYPASS,
    input  wire RESETB
);
    integer n = 0;
    initial LOCK = 1'b0;
    assign PLLOUTCORE = PACKAGEPIN;
    assign PLLOUTGLOBAL = PACKAGEPIN;
    always @(posedge PACKAGEPIN) begin
        if (!RESETB) begin
            n <= 0;
            LOCK <= 1'b0;
        end else if (n < LOCK_CYCLES) n <= n + 1;
        else LOCK <= 1'b1;
    end
endmodule
/* verilator lint_on UNUSEDSIGNAL */
/* verilator lint_on UNUSEDPARAM */
/* verilator lint_on DECLFILENAME */
