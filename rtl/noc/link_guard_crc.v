// SPDX-License-Identifier: ISC
// link_guard_crc: the check code of the protected on-chip links (link_guard_tx/rx), CRC-8
// with the polynomial x^8 + x^2 + x + 1 (0x07), over BITS bits at once, most significant
// bit first, starting from 8'hff. Combinational. Within a word of up to 119 bits it catches
// every error of 1, 2 or 3 bits and every odd number of bit errors; the start value 8'hff
// makes an all-zero word (a dead wire held low) fail the check.
module link_guard_crc #(
    parameter BITS = 32
) (
    input  wire [BITS-1:0] bits,
    output reg  [7:0]      crc
);
    integer i;
    always @* begin
        crc = 8'hff;
        for (i = BITS - 1; i >= 0; i = i - 1)
            crc = {crc[6:0], 1'b0} ^ ((crc[7] ^ bits[i]) ? 8'h07 : 8'h00);
    end
endmodule
