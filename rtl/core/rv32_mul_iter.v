// SPDX-License-Identifier: ISC
// rv32_mul_iter: small iterative multiplier for MUL, MULH, MULHSU, MULHU (the core uses it
// when its parameter MUL_KIND is 0, e.g. for iCE40 parts without DSP blocks).
//
// Shift-and-add on magnitudes, 4 multiplier bits per cycle: `start` (while not busy)
// latches the operands, 8 steps follow, and `done` is high (combinationally) during the
// last one with `product` valid. A multiplication takes 9 cycles counting the start cycle.
// a_signed/b_signed say whether each operand is two's complement (MULH: both, MULHSU:
// a only, MUL and MULHU: neither; the low 32 bits are the same either way).
module rv32_mul_iter #(
    parameter XLEN = 32
) (
    input  wire              clk,
    input  wire              rst,
    input  wire              start,
    input  wire              a_signed,
    input  wire              b_signed,
    input  wire [XLEN-1:0]   a,
    input  wire [XLEN-1:0]   b,
    output reg               busy,
    output wire              done,
    output wire [2*XLEN-1:0] product
);
    localparam STEPS = XLEN / 4;
    localparam CW    = $clog2(STEPS + 1);
    localparam [CW-1:0] STEPS_CW = STEPS[CW-1:0];

    wire a_neg = a_signed & a[XLEN-1];
    wire b_neg = b_signed & b[XLEN-1];
    wire [XLEN-1:0] a_mag = a_neg ? (~a + 1'b1) : a;
    wire [XLEN-1:0] b_mag = b_neg ? (~b + 1'b1) : b;

    reg [XLEN-1:0] mcand_q;     // multiplicand magnitude
    reg [XLEN-1:0] hi_q;        // upper half of the running product
    reg [XLEN-1:0] lo_q;        // multiplier bits not yet used, product bits shifting in
    reg            negate_q;
    reg [CW-1:0]   steps_q;

    // one step: hi += mcand * lo[3:0], then shift {hi, lo} right by 4
    wire [XLEN+3:0] partial = ({4'b0, mcand_q} & {(XLEN+4){lo_q[0]}}) +
                              ({3'b0, mcand_q, 1'b0} & {(XLEN+4){lo_q[1]}}) +
                              ({2'b0, mcand_q, 2'b0} & {(XLEN+4){lo_q[2]}}) +
                              ({1'b0, mcand_q, 3'b0} & {(XLEN+4){lo_q[3]}});
    wire [XLEN+3:0] sum     = {4'b0, hi_q} + partial;
    wire [XLEN-1:0] hi_next = sum[XLEN+3:4];
    wire [XLEN-1:0] lo_next = {sum[3:0], lo_q[XLEN-1:4]};

    wire last_step = busy && steps_q == {{(CW-1){1'b0}}, 1'b1};
    assign done = last_step;

    always @(posedge clk) begin
        if (rst) begin
            busy    <= 1'b0;
            steps_q <= {CW{1'b0}};
        end else if (start && !busy) begin
            busy     <= 1'b1;
            steps_q  <= STEPS_CW;
            mcand_q  <= a_mag;
            hi_q     <= {XLEN{1'b0}};
            lo_q     <= b_mag;
            negate_q <= a_neg ^ b_neg;
        end else if (busy) begin
            hi_q    <= hi_next;
            lo_q    <= lo_next;
            steps_q <= steps_q - 1'b1;
            if (last_step)
                busy <= 1'b0;
        end
    end

    wire [2*XLEN-1:0] magnitude = {hi_next, lo_next};
    assign product = negate_q ? (~magnitude + 1'b1) : magnitude;
endmodule
