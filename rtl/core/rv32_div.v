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
    parameter BITS_PER_CYCLE = 4       // quotient bits per step: 1, 2, 4 or 8
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
    input  wire [31:0] place_rot,      // place_value rotated left by place_amount
    input  wire [31:0] place_keep      // bit i set when i >= place_amount
);
    localparam B         = BITS_PER_CYCLE;
    localparam MAX_STEPS = 32 / B;
    localparam CW        = $clog2(MAX_STEPS + 1);
    localparam SHIFT_LOG = $clog2(B);

    reg [31:0]   rem_q;       // partial remainder (magnitude)
    reg [31:0]   quo_q;       // dividend bits shifting out, quotient bits shifting in
                              // (in the setup cycle: the dividend magnitude)
    reg [31:0]   div_q;       // divisor magnitude
    reg          setup_q;
    reg          a_neg_q;     // the dividend is negative (its leading-zero count is of ~x)
    reg          neg_q;       // the result must be negated
    reg          want_rem_q;
    reg          zero_q;      // the divisor is 0: all steps run (quotient all ones)
    reg [5:0]    lz_a_q, lz_d_q;
    reg [CW-1:0] steps_q;     // steps left

    wire a_neg = is_signed & dividend[31];
    wire d_neg = is_signed & divisor[31];
    wire [5:0] lz_a, lz_d;
    rv32_clz clz_dividend (.value(dividend ^ {32{a_neg}}), .count(lz_a));
    rv32_clz clz_divisor  (.value(divisor ^ {32{d_neg}}),  .count(lz_d));

    // setup: quotient bits <= lz_d - lz_a + 1, where for a negative dividend the count of
    // ~x can exceed the magnitude's by one (x = -2^k), hence + a_neg
    wire signed [7:0] qbits   = $signed({2'b00, lz_d_q}) - $signed({2'b00, lz_a_q}) +
                                $signed({7'd0, a_neg_q}) + 8'sd1;
    localparam [7:0] ROUND_UP = BITS_PER_CYCLE[7:0] - 8'd1;
    wire signed [7:0] steps_w = (qbits + $signed(ROUND_UP)) >>> SHIFT_LOG;
    localparam [7:0] MAX_STEPS_B = MAX_STEPS[7:0];
    localparam signed [7:0] MAX_STEPS_S = MAX_STEPS_B;
    wire [CW-1:0] first_steps = (steps_w < 8'sd1) ? {{(CW-1){1'b0}}, 1'b1} :
                                (steps_w > MAX_STEPS_S || zero_q) ? MAX_STEPS_S[CW-1:0] :
                                steps_w[CW-1:0];
    // s = 32 - first_steps * B = (MAX_STEPS - first_steps) * B, 0 .. 32 - B
    wire [CW-1:0] spare_steps = MAX_STEPS_S[CW-1:0] - first_steps;
    /* verilator lint_off UNUSEDSIGNAL */  // bit 5 is always 0
    wire [5:0]    place_s     = {{(6-CW){1'b0}}, spare_steps} << SHIFT_LOG;
    /* verilator lint_on UNUSEDSIGNAL */
    assign place        = setup_q;
    assign place_value  = quo_q;
    assign place_amount = place_s[4:0];

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
    wire last_step = busy && !setup_q && steps_q == {{(CW-1){1'b0}}, 1'b1};
    assign done = last_step;

    always @(posedge clk) begin
        if (rst) begin
            busy    <= 1'b0;
            setup_q <= 1'b0;
            steps_q <= {CW{1'b0}};
        end else if (start_now) begin
            busy       <= 1'b1;
            setup_q    <= 1'b1;
            quo_q      <= a_neg ? ~dividend_dec : dividend;
            div_q      <= d_neg ? 32'd0 - divisor : divisor;
            lz_a_q     <= lz_a;
            lz_d_q     <= lz_d;
            a_neg_q    <= a_neg;
            want_rem_q <= want_rem;
            zero_q     <= divisor == 32'd0;
            // x/0: quotient all ones, whatever the signs
            neg_q      <= want_rem ? a_neg : (a_neg ^ d_neg) & (divisor != 32'd0);
        end else if (setup_q) begin
            setup_q <= 1'b0;
            steps_q <= first_steps;
            rem_q   <= place_rot & ~place_keep;
            quo_q   <= place_rot & place_keep;
        end else if (busy) begin
            rem_q   <= rem_next;
            quo_q   <= quo_next;
            steps_q <= steps_q - 1'b1;
            if (last_step)
                busy <= 1'b0;
        end
    end

    assign result = want_rem_q ? rem_next : quo_next;
    assign negate = neg_q;
endmodule
