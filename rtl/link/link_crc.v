// SPDX-License-Identifier: ISC
// link_crc: one step of the board links' frame check, CRC-8 with the polynomial
// x^8 + x^2 + x + 1 (0x07, as ATM HEC), most significant bit first, over BITS bits at once
// (one symbol of the link: bits[0] first, then bits[1], ...). Combinational.
//
// The sender runs it over every symbol of a frame it sends, starting from 8'hff, and sends
// the register itself (bit 7 first) as the frame's last 8 bits; the receiver runs it over
// every symbol it receives, check bits included, and finds 0 exactly when nothing was
// damaged that the code can see (every error of 1, 2 or 3 bits, and every odd number of
// bit errors, within a frame of up to 119 bits; the factor x + 1 of the polynomial catches
// the odd counts). The start value 8'hff makes an all-zero frame (a line held low) fail.
module link_crc #(
    parameter BITS = 2
) (
    input  wire [7:0]      crc_in,
    input  wire [BITS-1:0] bits,
    output reg  [7:0]      crc_out
);
    integer i;
    always @* begin
        crc_out = crc_in;
        for (i = 0; i < BITS; i = i + 1)
            crc_out = {crc_out[6:0], 1'b0} ^ ((crc_out[7] ^ bits[i]) ? 8'h07 : 8'h00);
    end
endmodule
