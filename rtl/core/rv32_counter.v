// SPDX-License-Identifier: ISC
// rv32_counter: a 64-bit counter of the CSR file (mcycle, minstret), writable a half at a
// time. Each cycle: value + inc; a write replaces the half it names, the other half still
// taking the count's carry (lo: hi + carry out of lo + inc; hi: lo + inc).
// DSP = 0: plain logic (about 128 logic cells on an iCE40). DSP = 1: two iCE40 UP5K DSP
// blocks (SB_MAC16), each as a 32-bit accumulator adding its carry input, loading C:D on a
// write; the low block's carry out is the high block's carry in. Simulating DSP = 1 needs
// yosys's model of SB_MAC16 (its ice40/cells_sim.v; rtl/rtl.mk extracts it).
module rv32_counter #(
    parameter DSP = 0
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        inc,      // count this cycle
    input  wire        wr_lo,    // replace bits 31:0 with wdata
    input  wire        wr_hi,    // replace bits 63:32 with wdata
    input  wire [31:0] wdata,
    output wire [63:0] value
);
    generate
        if (DSP != 0) begin : g_dsp
            wire carry;
            // O = {top accumulator, bottom accumulator}, both registered; the bottom adder
            // adds CI, the top one the bottom's carry; OLOAD* loads C (top) and D (bottom).
            // A and B (the multiplier's inputs, unused: 0 on the device when unconnected) are
            // left unconnected on purpose: yosys's ice40_dsp pass (synth_ice40 -dsp) takes
            // every SB_MAC16 whose A and B are wider than 10 bits in all for a multiplier and
            // rebuilds it as one, which left these counters unclocked and reading 0 in the
            // bitstream (found by tests/boards/test_board_netlist.sh)
            /* verilator lint_off PINCONNECTEMPTY */
            SB_MAC16 #(
                .TOPOUTPUT_SELECT(2'b01), .TOPADDSUB_LOWERINPUT(2'b00),
                .TOPADDSUB_UPPERINPUT(1'b0), .TOPADDSUB_CARRYSELECT(2'b10),
                .BOTOUTPUT_SELECT(2'b01), .BOTADDSUB_LOWERINPUT(2'b00),
                .BOTADDSUB_UPPERINPUT(1'b0), .BOTADDSUB_CARRYSELECT(2'b11)
            ) lo (
                .CLK(clk), .CE(1'b1), .C(wdata[31:16]), .A(), .B(), .D(wdata[15:0]),
                .AHOLD(1'b0), .BHOLD(1'b0), .CHOLD(1'b0), .DHOLD(1'b0),
                .IRSTTOP(1'b0), .IRSTBOT(1'b0), .ORSTTOP(rst), .ORSTBOT(rst),
                .OLOADTOP(wr_lo), .OLOADBOT(wr_lo), .ADDSUBTOP(1'b0), .ADDSUBBOT(1'b0),
                .OHOLDTOP(1'b0), .OHOLDBOT(1'b0), .CI(inc), .ACCUMCI(1'b0), .SIGNEXTIN(1'b0),
                .O(value[31:0]), .CO(carry), .ACCUMCO(), .SIGNEXTOUT()
            );
            SB_MAC16 #(
                .TOPOUTPUT_SELECT(2'b01), .TOPADDSUB_LOWERINPUT(2'b00),
                .TOPADDSUB_UPPERINPUT(1'b0), .TOPADDSUB_CARRYSELECT(2'b10),
                .BOTOUTPUT_SELECT(2'b01), .BOTADDSUB_LOWERINPUT(2'b00),
                .BOTADDSUB_UPPERINPUT(1'b0), .BOTADDSUB_CARRYSELECT(2'b11)
            ) hi (
                .CLK(clk), .CE(1'b1), .C(wdata[31:16]), .A(), .B(), .D(wdata[15:0]),
                .AHOLD(1'b0), .BHOLD(1'b0), .CHOLD(1'b0), .DHOLD(1'b0),
                .IRSTTOP(1'b0), .IRSTBOT(1'b0), .ORSTTOP(rst), .ORSTBOT(rst),
                .OLOADTOP(wr_hi), .OLOADBOT(wr_hi), .ADDSUBTOP(1'b0), .ADDSUBBOT(1'b0),
                .OHOLDTOP(1'b0), .OHOLDBOT(1'b0), .CI(carry), .ACCUMCI(1'b0), .SIGNEXTIN(1'b0),
                .O(value[63:32]), .CO(), .ACCUMCO(), .SIGNEXTOUT()
            );
            /* verilator lint_on PINCONNECTEMPTY */
        end else begin : g_logic
            reg  [63:0] count;
            wire [32:0] lo_sum = {1'b0, count[31:0]} + {32'd0, inc};
            always @(posedge clk) begin
                if (rst) begin
                    count <= 64'd0;
                end else begin
                    count[31:0]  <= wr_lo ? wdata : lo_sum[31:0];
                    count[63:32] <= wr_hi ? wdata : count[63:32] + {31'd0, lo_sum[32]};
                end
            end
            assign value = count;
        end
    endgenerate
endmodule
