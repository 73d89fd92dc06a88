// SPDX-License-Identifier: ISC
// node_ram: the node's on-chip RAM (code and data), WORDS x 32 bits, in one of two forms.
//
// SP_BANKS = 0 (the default, the simulators'): LINE_WORDS banks interleaved by word (bank
// k holds the words whose index is k modulo LINE_WORDS), so that the data port moves a
// whole line of LINE_WORDS consecutive words per access while each bank stays a plain
// one-read, one-read/write memory (a block RAM on an FPGA). Both ports serve every cycle.
//
// SP_BANKS = B > 0 (a board's single-ported RAM, e.g. the iCE40 UP5K's SPRAM): B banks of
// WORDS/B words each, bank b holding the b-th contiguous 1/B of the address range; each
// bank has ONE address port (yosys synth_ice40 -spram maps a 16K x 32 bank to two
// SB_SPRAM256KA). In a cycle, a bank serves the data port if d_enable addresses it, else
// the instruction port. When both want the same bank the data port wins and the
// instruction read of that cycle is lost: i_data is undefined the next cycle. The user
// (tile.v) must make that fetch be repeated. Needs LINE_WORDS = 1.
//
// Port I: instruction read of one word. Port D: a line read, or a byte-masked write of any
// bytes of one line. Both synchronous: the read appears on *_data the cycle after the
// address (read-before-write with SP_BANKS = 0; with SP_BANKS > 0 a write leaves the
// bank's read data unchanged, as SPRAM does).
// LINE_WORDS = 1 is a plain word-wide RAM.
//
// SP_BANKS = 0 on an FPGA: when port I reads a word that port D writes in the same cycle,
// port I returns the old word (as above). A block RAM whose ports may disagree on that (the
// ECP5's DP16KD: undefined across ports) would make yosys build it in twice the block RAM
// with the writes delayed a cycle; so each bank's I read is declared "any value" on such a
// collision (the 'x below, which yosys's memory_dff reads as exactly that), and i_data takes
// the word from port D's read instead, which reads the same line in the same cycle before
// writing it (read-before-write on one port: every block RAM has it). The same values, cycle
// for cycle, as one memory with two ports: only the block RAM is told what it may do.
module node_ram #(
    parameter WORDS      = 16384,
    parameter ADDR_BITS  = 14,          // log2(WORDS)
    parameter LINE_WORDS = 1,           // words per data-port access: 1, 2, 4, 8 or 16
    parameter SP_BANKS   = 0,           // 0: dual-ported; 1, 2 or 4: single-ported banks
    parameter LINE_BITS  = (LINE_WORDS <= 1) ? 0 : $clog2(LINE_WORDS)   // derived: do not set
) (
    input  wire                            clk,
    input  wire [ADDR_BITS-1:0]            i_addr,    // word index
    output wire [31:0]                     i_data,
    input  wire                            d_enable,
    input  wire [4*LINE_WORDS-1:0]         d_wstrb,   // all 0: read; else the bytes written
    input  wire [ADDR_BITS-LINE_BITS-1:0]  d_line,    // line index (word index / LINE_WORDS)
    input  wire [32*LINE_WORDS-1:0]        d_wdata,   // word k of the line in [32k+31:32k]
    output wire [32*LINE_WORDS-1:0]        d_data
);
    genvar k;
    // ---- SP_BANKS = 0: LINE_WORDS dual-ported banks, interleaved by word. (The banks keep
    // the scope <ram>.bank[k], where the simulators load programs.)
    localparam DP_BANKS   = (SP_BANKS == 0) ? LINE_WORDS : 0;
    localparam BANK_WORDS = WORDS / LINE_WORDS;
    localparam BANK_BITS  = ADDR_BITS - LINE_BITS;
    // the instruction port reads every bank at the line of i_addr; the bank of i_addr
    // (registered with the read) picks the word
    wire [BANK_BITS-1:0]     i_line = i_addr[ADDR_BITS-1:LINE_BITS];
    wire [32*LINE_WORDS-1:0] i_words, dp_d_data;
    wire [31:0]              dp_i_data;
    // port D reads port I's line this cycle (then port D's read is port I's word too)
    wire                     i_hit = d_enable && d_line == i_line;
    reg                      i_hit_q;
    always @(posedge clk) i_hit_q <= i_hit;
    generate
        if (LINE_WORDS == 1) begin : one
            assign dp_i_data = i_hit_q ? dp_d_data : i_words;
        end else begin : sel
            reg [LINE_BITS-1:0] i_bank;
            always @(posedge clk) i_bank <= i_addr[LINE_BITS-1:0];
            assign dp_i_data = i_hit_q ? dp_d_data[32 * i_bank +: 32] : i_words[32 * i_bank +: 32];
        end

        for (k = 0; k < DP_BANKS; k = k + 1) begin : bank
            // public so that the simulators can load a program before reset
            reg [31:0] mem [0:BANK_WORDS-1] /* verilator public */;
            reg [31:0] i_q, d_q;
            // port I's read, any value in the bytes port D writes at its line this cycle
            // (i_data takes d_q then: the header)
            wire [31:0] i_word = mem[i_line];
            wire [3:0]  i_clash = {4{i_hit}} & d_wstrb[4*k +: 4];
            always @(posedge clk) begin
                i_q[7:0]   <= i_clash[0] ? 8'bx : i_word[7:0];
                i_q[15:8]  <= i_clash[1] ? 8'bx : i_word[15:8];
                i_q[23:16] <= i_clash[2] ? 8'bx : i_word[23:16];
                i_q[31:24] <= i_clash[3] ? 8'bx : i_word[31:24];
                if (d_enable) begin
                    d_q <= mem[d_line];
                    if (d_wstrb[4*k])     mem[d_line][7:0]   <= d_wdata[32*k +: 8];
                    if (d_wstrb[4*k + 1]) mem[d_line][15:8]  <= d_wdata[32*k + 8 +: 8];
                    if (d_wstrb[4*k + 2]) mem[d_line][23:16] <= d_wdata[32*k + 16 +: 8];
                    if (d_wstrb[4*k + 3]) mem[d_line][31:24] <= d_wdata[32*k + 24 +: 8];
                end
            end
            assign i_words[32*k +: 32]   = i_q;
            assign dp_d_data[32*k +: 32] = d_q;
        end

        if (SP_BANKS == 0) begin : dp_out
            assign i_data = dp_i_data;
            assign d_data = dp_d_data;
        end else begin : sp
            // ---- SP_BANKS = 1, 2 or 4 single-ported banks (LINE_WORDS = 1): bank = the
            // top bits of the word index
            localparam SP_WORDS = WORDS / SP_BANKS;
            localparam BANK_AW  = ADDR_BITS - ((SP_BANKS >= 4) ? 2 : (SP_BANKS >= 2) ? 1 : 0);
            wire [ADDR_BITS-1:0] i_above = i_addr >> BANK_AW;
            wire [ADDR_BITS-1:0] d_above = d_line >> BANK_AW;
            wire [1:0] i_bank = i_above[1:0];
            wire [1:0] d_bank = d_above[1:0];
            assign i_words   = {(32*LINE_WORDS){1'b0}};   // no dual-ported banks here
            assign dp_d_data = {(32*LINE_WORDS){1'b0}};
            wire unused_bits = ^{i_above, d_above, i_line, dp_i_data, dp_d_data};
            reg  [1:0] i_bank_q, d_bank_q;   // the bank each port read last cycle
            always @(posedge clk) begin
                i_bank_q <= i_bank;
                if (d_enable) d_bank_q <= d_bank;
            end
            wire [31:0] q_of [0:3];
            assign i_data = q_of[i_bank_q];
            assign d_data = q_of[d_bank_q];

            for (k = 0; k < 4; k = k + 1) begin : bank
                if (k < SP_BANKS) begin : used
                    reg [31:0] mem [0:SP_WORDS-1] /* verilator public */;
                    reg [31:0] q;
                    wire               use_d = d_enable && d_bank == k;
                    wire [BANK_AW-1:0] addr  = use_d ? d_line[BANK_AW-1:0] : i_addr[BANK_AW-1:0];
                    wire [3:0]         we    = use_d ? d_wstrb : 4'b0000;
                    always @(posedge clk) begin
                        if (we[0]) mem[addr][7:0]   <= d_wdata[7:0];
                        if (we[1]) mem[addr][15:8]  <= d_wdata[15:8];
                        if (we[2]) mem[addr][23:16] <= d_wdata[23:16];
                        if (we[3]) mem[addr][31:24] <= d_wdata[31:24];
                        if (we == 4'b0000) q <= mem[addr];
                    end
                    assign q_of[k] = q;
                end else begin : none
                    assign q_of[k] = 32'd0;
                end
            end
        end
    endgenerate
endmodule
