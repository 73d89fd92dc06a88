// SPDX-License-Identifier: ISC
// rv32_div: iterative divider for DIV, DIVU, REM, REMU.
//
// Restoring division on magnitudes, BITS_PER_CYCLE quotient bits per step. Only as many
// steps run as the quotient can have bits: with n and d the significant bits of the
// dividend and divisor magnitudes, the quotient has at most n - d + 1 bits, so a division
// takes 2 + k cycles counting the `start` cycle, k = ceil((n - d + 1) / BITS_PER_CYCLE)
// limited to 1 .. 32 / BITS_PER_CYCLE (one more step now and then for a negative operand,
// see below).
//
//   start  (the core issues the division; ignored while busy) the magnitudes are latched:
//          the divisor's from a negating adder, the dividend's as ~(dividend - 1), the
//          decrement coming from the core's own adder; leading zeros of both operands are
//          counted on the operands as given (for a negative one, of its complement: at
//          most one off, in the direction that only adds a step).
//   setup  the dividend is placed: {remainder, dividend bits} = |dividend| << s with
//          s = 32 - steps * BITS_PER_CYCLE, through the core's shifter (`place_*`), which
//          is idle while the division holds the execute stage.
//   steps  `done` is high (from registers only) during the last step, with `result` (the
//          quotient or the remainder magnitude) valid in that cycle; `negate` says the
//          core must negate it (it does so in its write-back stage).
// Results follow the RISC-V M extension: x/0 gives quotient all ones and remainder x; the
// signed overflow -2^31 / -1 gives quotient -2^31 and remainder 0.
module rv32_div #(
    parameter BITS_PER_CYCLE = 4,      // quotient bits per step: 1, 2, 4 or 8
    // 1: the placement amount is registered, one more setup cycle (a short path: the
    // amount, an adder off the leading-zero counts, then leaves the core's shifter alone)
    parameter PLACE_CYCLE    = 0
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        start,
    input  wire        is_signed,
    input  wire        want_rem,       // REM/REMU: the result is the remainder
    input  wire [31:0] dividend,
    input  wire [31:0] divisor,
    input  wire [31:0] dividend_dec,   // dividend - 1
    output reg         busy,
    output wire        done,
    output wire [31:0] result,
    output wire        negate,
    // placement of the dividend in the setup cycle, by the core's rotator
    output wire        place,
    output wire [31:0] place_value,
    output wire [4:0]  place_amount,
    output wire        setup,          // with PLACE_CYCLE: the cycle before `place`, with
    output wire [4:0]  setup_amount,   // the amount then (place_value is already there)
    input  wire [31:0] place_rot,      // place_value rotated left by place_amount
    input  wire [31:0] place_keep      // bit i set when i >= place_amount
);
    localparam B         = BITS_PER_CYCLE;

    reg [31:0]   rem_q;       // partial remainder (magnitude)
    reg [31:0]   quo_q;       // dividend bits shifting out, quotient bits shifting in
                              // (in the setup cycle: the dividend magnitude)
    reg [31:0]   div_q;       // divisor magnitude
    reg          setup_q;     // first setup cycle: the placement amount is worked out
    reg          place_q;     // second: the dividend is placed
    reg          neg_q;       // the result must be negated
    reg          want_rem_q;
    reg          zero_q;      // the divisor is 0: the quotient is all ones
    reg [5:0]    lz_a_q, lz_d_q;
    reg [4:0]    used_q;      // dividend bits taken into the remainder so far

    wire a_neg = is_signed & dividend[31];
    wire d_neg = is_signed & divisor[31];
    // leading zeros, counted on the operands as given: for a negative dividend those of
    // {~x[30:0], 1} (never more than the magnitude's), for a negative divisor those of ~x
    // (never fewer): at worst one step too many
    wire [5:0] lz_a, lz_d;
    rv32_clz clz_dividend (.value(a_neg ? {~dividend[30:0], 1'b1} : dividend), .count(lz_a));
    rv32_clz clz_divisor  (.value(divisor ^ {32{d_neg}}), .count(lz_d));

    // setup: the quotient has at most lz_d - lz_a + 1 bits, so the dividend is placed at
    // s = 32 - that = 31 + lz_a - lz_d, limited to 0 .. 31 and rounded down to a multiple
    // of B (t = s + 32 keeps the arithmetic unsigned; t >= 64: quotient 0, one step)
    wire [6:0] t = {1'b0, lz_a_q} + {1'b0, ~lz_d_q};
    wire [4:0] s_clamped = t[6] ? 5'd31 : t[5] ? t[4:0] : 5'd0;
    localparam [4:0] STEP_MASK = ~(BITS_PER_CYCLE[4:0] - 5'd1);
    wire [4:0] place_s = s_clamped & STEP_MASK;
    assign place        = PLACE_CYCLE != 0 ? place_q : setup_q;
    assign setup        = setup_q;
    assign setup_amount = place_s;
    assign place_value  = quo_q;
    assign place_amount = PLACE_CYCLE != 0 ? used_q : place_s;

    // B restoring steps
    reg [31:0] rem_next, quo_next;
    reg [32:0] shifted, trial;
    integer    step;
    always @(*) begin
        rem_next = rem_q;
        quo_next = quo_q;
        shifted  = 33'd0;
        trial    = 33'd0;
        for (step = 0; step < B; step = step + 1) begin
            shifted  = {rem_next, quo_next[31]};
            trial    = shifted - {1'b0, div_q};
            rem_next = trial[32] ? shifted[31:0] : trial[31:0];
            quo_next = {quo_next[30:0], ~trial[32]};
        end
    end

    wire start_now = start && !busy;
    localparam [4:0] LAST_USED = 5'd0 - BITS_PER_CYCLE[4:0];   // 32 - B
    wire last_step = busy && !setup_q && !place_q && used_q == LAST_USED;
    assign done = last_step;

    always @(posedge clk) begin
        if (rst) begin
            busy    <= 1'b0;
            setup_q <= 1'b0;
            place_q <= 1'b0;
        end else if (start_now) begin
            busy       <= 1'b1;
            setup_q    <= 1'b1;
            quo_q      <= a_neg ? ~dividend_dec : dividend;
            div_q      <= d_neg ? 32'd0 - divisor : divisor;
            lz_a_q     <= lz_a;
            lz_d_q     <= lz_d;
            want_rem_q <= want_rem;
            zero_q     <= divisor == 32'd0;
            // x/0: quotient all ones, whatever the signs
            neg_q      <= want_rem ? a_neg : (a_neg ^ d_neg) & (divisor != 32'd0);
        end else if (setup_q && PLACE_CYCLE != 0) begin
            setup_q <= 1'b0;
            place_q <= 1'b1;
            used_q  <= place_s;
        end else if (setup_q || place_q) begin
            setup_q <= 1'b0;
            place_q <= 1'b0;
            if (PLACE_CYCLE == 0)
                used_q <= place_s;
            rem_q   <= place_rot & ~place_keep;
            quo_q   <= place_rot & place_keep;
        end else if (busy) begin
            rem_q   <= rem_next;
            quo_q   <= quo_next;
            used_q  <= used_q + BITS_PER_CYCLE[4:0];
            if (last_step)
                busy <= 1'b0;
        end
    end

    assign result = want_rem_q ? rem_next : (quo_next | {32{zero_q}});
    assign negate = neg_q;
endmodule
