// SPDX-License-Identifier: ISC
// link_add: sum = a + b (WIDTH bits, the carry out dropped), written as plain logic. The
// link's counters are a few bits wide; on the iCE40 yosys would make every + of them a
// carry chain, which costs more logic cells than the lookup tables it saves (carry cells
// alone, and cells to legalise the chains): link_phy was about 35 cells a port larger so.
module link_add #(
    parameter WIDTH = 4
) (
    input  wire [WIDTH-1:0] a,
    input  wire [WIDTH-1:0] b,
    output reg  [WIDTH-1:0] sum
);
    reg     carry;
    integer i;
    always @* begin
        carry = 1'b0;
        for (i = 0; i < WIDTH; i = i + 1) begin
            sum[i] = a[i] ^ b[i] ^ carry;
            carry  = (a[i] & b[i]) | (carry & (a[i] ^ b[i]));
        end
    end
endmodule
