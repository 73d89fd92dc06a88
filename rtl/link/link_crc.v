// SPDX-License-Identifier: ISC
// link_crc: one step of the board links' frame check, most significant bit first, over
// BITS bits at once (one symbol of the link: bits[0] first, then bits[1], ...).
// Combinational. CHECK_BITS = 8: CRC-8 with the polynomial x^8 + x^2 + x + 1 (0x07, as
// ATM HEC; the fail-stop link, RETRY = 0); CHECK_BITS = 16: CRC-16 with x^16 + x^12 + x^5
// + 1 (0x1021, CCITT; the retrying link, RETRY = 1).
//
// The sender runs it over every symbol of a frame it sends, starting from all ones, and
// sends the register itself (top bit first) as the frame's last CHECK_BITS bits; the
// receiver runs it over every symbol it receives, check bits included, and finds 0 exactly
// when nothing was damaged that the code can see. CRC-8: every error of 1, 2 or 3 bits,
// and every odd number of bit errors, within a frame of up to 119 bits (the factor x + 1
// of the polynomial catches the odd counts); worse damage passes with a chance of about
// 1 in 256. CRC-16: every error of 1, 2 or 3 bits and every odd number within 32,751
// bits, every burst of up to 16 bits; worse damage passes about 1 in 65,536. The start
// value of all ones makes an all-zero frame (a line held low) fail.
module link_crc #(
    parameter BITS       = 2,
    parameter CHECK_BITS = 8     // 8 or 16
) (
    input  wire [CHECK_BITS-1:0] crc_in,
    input  wire [BITS-1:0]       bits,
    output reg  [CHECK_BITS-1:0] crc_out
);
    localparam [15:0] POLY16 = (CHECK_BITS == 16) ? 16'h1021 : 16'h0007;
    localparam [CHECK_BITS-1:0] POLY = POLY16[CHECK_BITS-1:0];
    integer i;
    always @* begin
        crc_out = crc_in;
        for (i = 0; i < BITS; i = i + 1)
            crc_out = {crc_out[CHECK_BITS-2:0], 1'b0} ^
                      ((crc_out[CHECK_BITS-1] ^ bits[i]) ? POLY : {CHECK_BITS{1'b0}});
    end
endmodule
