// SPDX-License-Identifier: ISC
// link_guard_crc: the check code of the protected on-chip links (link_guard_tx/rx), CRC-8
// with the polynomial x^8 + x^2 + x + 1 (0x07), over BITS bits at once, most significant
// bit first, starting from 8'hff. Combinational. Within a word of up to 119 bits it catches
// every error of 1, 2 or 3 bits and every odd number of bit errors; the start value 8'hff
// makes an all-zero word (a dead wire held low) fail the check.
//
// The code is linear: each check bit j is a constant (what the start value becomes) XOR the
// parity of the input bits in a mask. The masks are worked out at elaboration by running
// the shift register once over symbolic input bits (crc_matrix), so the logic is eight
// XOR trees, and simulators and synthesis see exactly that.
module link_guard_crc #(
    parameter BITS = 32
) (
    input  wire [BITS-1:0] bits,
    output wire [7:0]      crc
);
    // {constant[7:0], mask of check bit 7, ..., mask of check bit 0}
    function [8*BITS+7:0] crc_matrix;
        input integer width;
        integer ci;
        integer ck;
        reg [8*BITS-1:0] s;      // s[ck*BITS +: BITS]: the input bits check bit k depends on
        reg [BITS-1:0]   f;
        reg [7:0]        c;      // the constant part
        reg              cf;
        begin
            s = {(8*BITS){1'b0}};
            c = 8'hff;
            for (ci = width - 1; ci >= 0; ci = ci - 1) begin
                f = s[7*BITS +: BITS];
                f[ci] = ~f[ci];                        // feedback = check bit 7 ^ input bit i
                cf = c[7];
                for (ck = 7; ck >= 1; ck = ck - 1)
                    s[ck*BITS +: BITS] = s[(ck-1)*BITS +: BITS] ^ ((ck <= 2) ? f : {BITS{1'b0}});
                s[0 +: BITS] = f;
                c = {c[6:0], 1'b0} ^ (cf ? 8'h07 : 8'h00);
            end
            crc_matrix = {c, s};
        end
    endfunction

    localparam [8*BITS+7:0] M = crc_matrix(BITS);
    genvar j;
    generate
        for (j = 0; j < 8; j = j + 1) begin : check_bit
            localparam [BITS-1:0] MASK = M[j*BITS +: BITS];
            assign crc[j] = M[8*BITS + j] ^ (^(bits & MASK));
        end
    endgenerate
endmodule
