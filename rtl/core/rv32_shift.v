// SPDX-License-Identifier: ISC
// rv32_shift: the core's shifter (SLL, SRL, SRA) as one rotator and a mask.
//
// A left shift by s is the value rotated left by s with the s low bits cleared; a right
// shift by s is the value rotated left by (32 - s) mod 32 with the s high bits cleared
// (SRL) or set to the sign (SRA). So one 5-stage rotator serves both directions; `amount`
// is the shift amount s, and the rotate amount of a right shift, -s mod 32, is formed bit
// by bit (bit k of it depends on bits k..0 of s only, and the rotator takes bit 0 first,
// so the negation costs no time). The caller combines the outputs: the shift result is
// rot where keep is set, fill elsewhere.
// The divider borrows the rotator (left mode) to place its dividend: rot & keep are the
// bits a left shift keeps, rot & ~keep those it drops.
module rv32_shift (
    input  wire [31:0] value,
    input  wire [4:0]  amount,   // s
    input  wire        right,    // 1: SRL/SRA, 0: SLL
    input  wire        arith,    // with right: fill with value[31] (SRA)
    output wire [31:0] rot,      // value rotated left by s (left) or by -s mod 32 (right)
    output wire [31:0] keep,     // the bit positions the shift keeps
    output wire        fill      // the value of the others
);
    wire [4:0] r = right ? 5'd0 - amount : amount;
    wire [31:0] r0 = r[0] ? {value[30:0], value[31]} : value;
    wire [31:0] r1 = r[1] ? {r0[29:0], r0[31:30]}   : r0;
    wire [31:0] r2 = r[2] ? {r1[27:0], r1[31:28]}   : r1;
    wire [31:0] r3 = r[3] ? {r2[23:0], r2[31:24]}   : r2;
    assign rot     = r[4] ? {r3[15:0], r3[31:16]}   : r3;

    // a left shift keeps bits i >= s; a right one bits i < 32 - s
    wire [31:0] ge = {32{1'b1}} << amount;
    wire [31:0] lt = {32{1'b1}} >> amount;
    assign keep = right ? lt : ge;
    assign fill = right & arith & value[31];
endmodule
