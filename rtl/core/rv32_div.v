// rv32_div: iterative divider for DIV, DIVU, REM, REMU.
//
// Restoring division on magnitudes, BITS_PER_CYCLE quotient bits per cycle. Only as many
// steps run as the quotient can have bits: with n and d the significant bits of the
// dividend and divisor magnitudes, the quotient has at most n - d + 1 bits, so a division
// takes 2 + k cycles counting the `start` cycle, k = ceil((n - d + 1) / BITS_PER_CYCLE)
// limited to 1 .. XLEN / BITS_PER_CYCLE (3 to 10 cycles with the default 4 bits per cycle).
//
// `start` (while not busy) latches the operands as they are; the next (setup) cycle takes
// their magnitudes, counts leading zeros and places the dividend (kept off the operand
// path for the clock rate); then the steps run. `busy` is high from setup to the last step.
// `done` is high (from registers only) during the last step, with `quotient` and
// `remainder` valid in that cycle.
// Results follow the RISC-V M extension: x/0 gives quotient all ones and remainder x; the
// signed overflow -2^31 / -1 gives quotient -2^31 and remainder 0.
module rv32_div #(
    parameter XLEN           = 32,
    parameter BITS_PER_CYCLE = 4       // a power of two, at most XLEN
) (
    input  wire            clk,
    input  wire            rst,
    input  wire            start,
    input  wire            is_signed,
    input  wire [XLEN-1:0] dividend,
    input  wire [XLEN-1:0] divisor,
    output reg             busy,
    output wire            done,
    output wire [XLEN-1:0] quotient,
    output wire [XLEN-1:0] remainder
);
    localparam CW = $clog2(XLEN + 1);

    reg [XLEN-1:0] rem_q;       // partial remainder (magnitude)
    reg [XLEN-1:0] quo_q;       // dividend bits shifting out, quotient bits shifting in
                                // (in the setup cycle: the dividend as given)
    reg [XLEN-1:0] div_q;       // divisor magnitude (in the setup cycle: as given)
    reg            setup_q;     // the cycle after start
    reg            div_neg_q;   // the divisor is negative
    reg            neg_quo_q;   // quotient must be negated at the end
    reg            neg_rem_q;   // remainder must be negated at the end
    reg            div_zero_q;  // divisor was zero
    reg [CW-1:0]   steps_q;     // steps left

    wire dividend_neg = is_signed & dividend[XLEN-1];
    wire divisor_neg  = is_signed & divisor[XLEN-1];
    // setup cycle: magnitudes of the latched operands
    wire [XLEN-1:0] dividend_mag = neg_rem_q ? (~quo_q + 1'b1) : quo_q;
    wire [XLEN-1:0] divisor_mag  = div_neg_q ? (~div_q + 1'b1) : div_q;

    // leading zeros of both magnitudes (a binary search: 5 levels of logic; XLEN = 32)
    wire [CW-1:0] lz_dividend, lz_divisor;
    rv32_clz clz_dividend (.value(dividend_mag), .count(lz_dividend));
    rv32_clz clz_divisor  (.value(divisor_mag),  .count(lz_divisor));
    // steps: ceil(quotient bits / BITS_PER_CYCLE), quotient bits <= lz_divisor - lz_dividend + 1
    localparam MAX_STEPS = XLEN / BITS_PER_CYCLE;
    localparam SHIFT_LOG = $clog2(BITS_PER_CYCLE);
    localparam [CW+1:0] ROUND_UP = BITS_PER_CYCLE[CW+1:0];      // +1 quotient bit, + (step - 1)
    wire signed [CW+1:0] qbits_rounded = $signed({2'b00, lz_divisor}) -
                                         $signed({2'b00, lz_dividend}) + $signed(ROUND_UP);
    wire signed [CW+1:0] steps_wanted  = qbits_rounded >>> SHIFT_LOG;
    localparam signed [CW+1:0] MAX_STEPS_S = MAX_STEPS[CW+1:0];
    wire [CW-1:0] first_steps = (steps_wanted < 1) ? {{(CW-1){1'b0}}, 1'b1} :
                                (steps_wanted > MAX_STEPS_S) ? MAX_STEPS_S[CW-1:0] :
                                steps_wanted[CW-1:0];
    // {remainder, dividend bits} = dividend << (XLEN - first_steps * BITS_PER_CYCLE)
    wire [CW+SHIFT_LOG-1:0] used_bits   = {first_steps, {SHIFT_LOG{1'b0}}};
    localparam [CW+SHIFT_LOG-1:0] XLEN_W = XLEN;
    wire [CW+SHIFT_LOG-1:0] place_shift = XLEN_W - used_bits;
    wire [2*XLEN-1:0]       placed      = {{XLEN{1'b0}}, dividend_mag} << place_shift;

    // BITS_PER_CYCLE restoring steps
    reg [XLEN-1:0] rem_next, quo_next;
    reg [XLEN:0]   shifted, trial;
    integer        step;
    always @(*) begin
        rem_next = rem_q;
        quo_next = quo_q;
        shifted  = {(XLEN+1){1'b0}};
        trial    = {(XLEN+1){1'b0}};
        for (step = 0; step < BITS_PER_CYCLE; step = step + 1) begin
            shifted  = {rem_next, quo_next[XLEN-1]};
            trial    = shifted - {1'b0, div_q};
            rem_next = trial[XLEN] ? shifted[XLEN-1:0] : trial[XLEN-1:0];
            quo_next = {quo_next[XLEN-2:0], ~trial[XLEN]};
        end
    end

    wire start_now  = start && !busy;
    wire last_step  = busy && !setup_q && steps_q == {{(CW-1){1'b0}}, 1'b1};
    assign done = last_step;

    always @(posedge clk) begin
        if (rst) begin
            busy    <= 1'b0;
            setup_q <= 1'b0;
            steps_q <= {CW{1'b0}};
        end else if (start_now) begin
            busy       <= 1'b1;
            setup_q    <= 1'b1;
            quo_q      <= dividend;
            div_q      <= divisor;
            neg_quo_q  <= dividend_neg ^ divisor_neg;
            neg_rem_q  <= dividend_neg;
            div_neg_q  <= divisor_neg;
        end else if (setup_q) begin
            setup_q    <= 1'b0;
            steps_q    <= first_steps;
            rem_q      <= placed[2*XLEN-1:XLEN];
            quo_q      <= placed[XLEN-1:0];
            div_q      <= divisor_mag;
            div_zero_q <= div_q == {XLEN{1'b0}};
        end else if (busy) begin
            rem_q   <= rem_next;
            quo_q   <= quo_next;
            steps_q <= steps_q - 1'b1;
            if (last_step)
                busy <= 1'b0;
        end
    end

    // results of this cycle's (last) step
    assign quotient  = div_zero_q ? {XLEN{1'b1}} : (neg_quo_q ? (~quo_next + 1'b1) : quo_next);
    assign remainder = neg_rem_q ? (~rem_next + 1'b1) : rem_next;
endmodule
