// SPDX-License-Identifier: ISC
// noc_in_range: lo <= x <= hi for a BITS-bit signed x, the bounds given as the router keeps
// them (lo_kept = ~(lo with its sign bit flipped), hi_kept = hi with its sign bit flipped):
// two carry chains on offset-binary numbers, no subtractor logic. A module rather than a
// function, so that Verilator shares one body among all the routers of a mesh (a function
// inlined at each call site is numbered per instance, and then the instances' code can no
// longer be combined: with functions the 3x3x3 mesh simulator was 8 times more C++).
module noc_in_range #(
    parameter BITS = 8
) (
    input  wire [BITS-1:0] x,
    input  wire [BITS-1:0] lo_kept,
    input  wire [BITS-1:0] hi_kept,
    output wire            in_range
);
    localparam [BITS-1:0] SIGN = {1'b1, {(BITS-1){1'b0}}};
    wire [BITS:0] ge = {1'b0, x ^ SIGN} + {1'b0, lo_kept} + {{BITS{1'b0}}, 1'b1};   // carry: x >= lo
    wire [BITS:0] le = {1'b0, hi_kept} + {1'b0, ~(x ^ SIGN)} + {{BITS{1'b0}}, 1'b1}; // carry: x <= hi
    wire unused_sums = ^{ge[BITS-1:0], le[BITS-1:0]};
    assign in_range = ge[BITS] && le[BITS];
endmodule
