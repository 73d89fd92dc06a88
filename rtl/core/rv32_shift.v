// SPDX-License-Identifier: ISC
// rv32_shift: the core's shifter (SLL, SRL, SRA) as one rotator and a mask.
//
// A left shift by s is the value rotated left by s with the s low bits cleared; a right
// shift by s is the value rotated left by (32 - s) mod 32 with the s high bits cleared
// (SRL) or set to the sign (SRA). So one 5-stage rotator serves both directions, and the
// caller gives the rotate amount: s for a left shift, (32 - s) mod 32 for a right one
// (for an immediate shift the decoder computes it ahead of time).
// The divider borrows the rotator (left mode) to place its dividend: `rot` and `keep`
// split the rotated value into the bits a left shift keeps and the ones it drops.
module rv32_shift (
    input  wire [31:0] value,
    input  wire [4:0]  amount,   // rotate-left amount: s (left) or (32 - s) mod 32 (right)
    input  wire        right,    // 1: SRL/SRA, 0: SLL
    input  wire        arith,    // with right: fill with value[31] (SRA)
    output wire [31:0] rot,      // value rotated left by amount
    output wire [31:0] keep,     // the bit positions the shift keeps (the rest are fill)
    output wire [31:0] result
);
    wire [31:0] r0 = amount[0] ? {value[30:0], value[31]}  : value;
    wire [31:0] r1 = amount[1] ? {r0[29:0], r0[31:30]}     : r0;
    wire [31:0] r2 = amount[2] ? {r1[27:0], r1[31:28]}     : r1;
    wire [31:0] r3 = amount[3] ? {r2[23:0], r2[31:24]}     : r2;
    assign rot     = amount[4] ? {r3[15:0], r3[31:16]}     : r3;

    // ge[i]: i >= amount. A left shift keeps bits i >= s; a right shift by s = 32 - amount
    // keeps bits i < amount, or all of them when amount = 0 (s = 0)
    wire        none = amount == 5'd0;
    wire [31:0] ge   = {32{1'b1}} << amount;
    wire [31:0] fill = {32{right & arith & value[31]}};
    assign keep   = right ? (~ge | {32{none}}) : ge;
    assign result = (rot & keep) | (fill & ~keep);
endmodule
