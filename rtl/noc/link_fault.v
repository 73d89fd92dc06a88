// SPDX-License-Identifier: ISC
// link_fault: fault injection on one wire of a protected link (a link_guard_tx/rx word),
// for simulation (noc-sim, the guard's unit test); plain Verilog all the same.
// Deterministic by seed: an xorshift64 generator, started from `seed` mixed with link_id,
// steps every cycle after reset. In a cycle where `active` is high (the forward wire: a
// flit is on it; the reverse wire: always), one bit of the word, chosen by the generator,
// is flipped with probability rate / 2^32. From cycle `dead_cycle` on (counted from reset;
// 0 = never), when `dead` is high, the wire is dead: the word reads all zeros.
// `flips` counts the words damaged (saturating).
module link_fault #(
    parameter BITS       = 48,
    parameter COUNT_BITS = 16
) (
    input  wire                  clk,
    input  wire                  rst,
    input  wire [31:0]           link_id,      // a constant: this wire's number
    input  wire [31:0]           seed,
    input  wire [31:0]           rate,
    input  wire                  dead,
    input  wire [31:0]           dead_cycle,
    input  wire                  active,
    input  wire [BITS-1:0]       in,
    output wire [BITS-1:0]       out,
    output reg  [COUNT_BITS-1:0] flips
);
    wire [63:0] mix = 64'h9e3779b97f4a7c15 * ({32'd0, link_id} + 64'd1);
    reg  [63:0] state;
    reg  [31:0] cycle;
    wire        hit   = active && (state[63:32] < rate);
    /* verilator lint_off UNUSEDSIGNAL */
    wire [31:0] scaled = {16'd0, state[15:0]} * BITS;      // bit index = low 16 bits * BITS / 2^16
    /* verilator lint_on UNUSEDSIGNAL */
    wire [15:0] index = scaled[31:16];
    wire        is_dead = dead && (dead_cycle != 32'd0) && (cycle >= dead_cycle);

    wire [BITS-1:0] one  = {{(BITS-1){1'b0}}, 1'b1};
    assign out = is_dead ? {BITS{1'b0}} : (in ^ (hit ? (one << index) : {BITS{1'b0}}));

    wire [63:0] s1 = state ^ (state << 13);
    wire [63:0] s2 = s1 ^ (s1 >> 7);
    wire [63:0] s3 = s2 ^ (s2 << 17);
    always @(posedge clk) begin
        if (rst) begin
            state <= ({32'd0, seed} ^ mix) | 64'd1;
            cycle <= 32'd0;
            flips <= {COUNT_BITS{1'b0}};
        end else begin
            state <= s3;
            if (cycle != 32'hffffffff) cycle <= cycle + 1'b1;
            if (hit && !is_dead && flips != {COUNT_BITS{1'b1}}) flips <= flips + 1'b1;
        end
    end
endmodule
