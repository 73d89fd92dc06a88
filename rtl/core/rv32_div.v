// rv32_div: iterative divider for DIV, DIVU, REM, REMU.
//
// Restoring division on magnitudes, BITS_PER_CYCLE quotient bits per cycle. Leading zero
// bits of the dividend are skipped (in steps of BITS_PER_CYCLE), so small dividends finish
// early: counting the `start` cycle, a division takes 1 + max(1, ceil(b / BITS_PER_CYCLE))
// cycles, b = significant bits of the dividend magnitude (2 to 9 with the default 4 bits
// per cycle).
//
// `start` (while not busy) latches the operands; `busy` stays high while the steps run.
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
    reg [XLEN-1:0] div_q;       // divisor magnitude
    reg            neg_quo_q;   // quotient must be negated at the end
    reg            neg_rem_q;   // remainder must be negated at the end
    reg            div_zero_q;  // divisor was zero
    reg [CW-1:0]   steps_q;     // steps left

    wire dividend_neg = is_signed & dividend[XLEN-1];
    wire divisor_neg  = is_signed & divisor[XLEN-1];
    wire [XLEN-1:0] dividend_mag = dividend_neg ? (~dividend + 1'b1) : dividend;
    wire [XLEN-1:0] divisor_mag  = divisor_neg ? (~divisor + 1'b1) : divisor;

    // leading zeros of the dividend, rounded down to whole steps
    reg [CW-1:0] lead_zeros;
    reg          seen_one;
    integer      bit_index;
    always @(*) begin
        lead_zeros = {CW{1'b0}};
        seen_one   = 1'b0;
        for (bit_index = XLEN - 1; bit_index >= 0; bit_index = bit_index - 1) begin
            if (dividend_mag[bit_index])
                seen_one = 1'b1;
            else if (!seen_one)
                lead_zeros = lead_zeros + 1'b1;
        end
    end
    localparam [CW-1:0] STEP_MASK = ~(BITS_PER_CYCLE[CW-1:0] - 1'b1);
    localparam [CW-1:0] XLEN_CW   = XLEN[CW-1:0];
    wire [CW-1:0] skip_bits  = lead_zeros & STEP_MASK;
    wire [CW-1:0] first_steps = (XLEN_CW - skip_bits) / BITS_PER_CYCLE[CW-1:0];

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
    wire zero_steps = first_steps == {CW{1'b0}};   // the dividend is zero: one step anyway
    wire last_step  = busy && steps_q == {{(CW-1){1'b0}}, 1'b1};
    assign done = last_step;

    always @(posedge clk) begin
        if (rst) begin
            busy    <= 1'b0;
            steps_q <= {CW{1'b0}};
        end else if (start_now) begin
            busy       <= 1'b1;
            steps_q    <= zero_steps ? {{(CW-1){1'b0}}, 1'b1} : first_steps;
            rem_q      <= {XLEN{1'b0}};
            quo_q      <= dividend_mag << skip_bits;
            div_q      <= divisor_mag;
            neg_quo_q  <= dividend_neg ^ divisor_neg;
            neg_rem_q  <= dividend_neg;
            div_zero_q <= (divisor == {XLEN{1'b0}});
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
