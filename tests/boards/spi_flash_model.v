// SPDX-License-Identifier: ISC
// spi_flash_model: a testbench model of the board's SPI flash (a W25Q-style part) as far
// as the boot ROM uses it, SPI mode 0: 0xab (release from power-down: ignored), 0x9f
// (JEDEC id: ef 40 18), 0x03 addr[23:0] (read from addr on, as long as CS# stays low).
// Holds WINDOW bytes from BASE on, loaded from the $readmemh file named by +flash=<file>
// (one byte per line; PLUSARG names another plusarg, e.g. "flash2" for +flash2=<file> when
// a testbench has several boards); everything else reads 0xff, as erased flash. Data goes out on the
// falling edge of sck (MSB first), commands are sampled on the rising edge.
module spi_flash_model #(
    parameter BASE   = 32'h0010_0000,
    parameter WINDOW = 262144,
    parameter PLUSARG = "flash"
) (
    input  wire sck,
    input  wire cs_n,
    input  wire mosi,
    output reg  miso
);
    reg [7:0]  mem [0:WINDOW-1];
    reg [7:0]  cmd, in_byte, out_byte;
    reg [31:0] addr;
    integer    bit_count, byte_count, i;
    reg [1023:0] file;
    initial begin
        for (i = 0; i < WINDOW; i = i + 1) mem[i] = 8'hff;
        if ($value$plusargs({PLUSARG, "=%s"}, file)) $readmemh(file, mem);
        miso = 1'b1;
    end
    function [7:0] read_at(input [31:0] a);
        read_at = (a >= BASE && a < BASE + WINDOW) ? mem[a - BASE] : 8'hff;
    endfunction
    always @(negedge cs_n) begin
        bit_count  = 0;
        byte_count = 0;
        cmd        = 8'h00;
        out_byte   = 8'hff;
    end
    always @(posedge sck) if (!cs_n) begin
        in_byte   = {in_byte[6:0], mosi};
        bit_count = bit_count + 1;
        if (bit_count == 8) begin
            bit_count = 0;
            if (byte_count == 0) cmd = in_byte;
            byte_count = byte_count + 1;
            if (cmd == 8'h03 && byte_count >= 2 && byte_count <= 4)
                addr = {addr[23:0], in_byte};
            // the byte to send next
            if (cmd == 8'h9f)
                out_byte = byte_count == 1 ? 8'hef : byte_count == 2 ? 8'h40 : 8'h18;
            else if (cmd == 8'h03 && byte_count >= 4)
                out_byte = read_at(addr[23:0] + byte_count - 4);
            else
                out_byte = 8'hff;
        end
    end
    always @(negedge sck) if (!cs_n) miso <= out_byte[7 - bit_count];
    always @(posedge cs_n) miso <= 1'b1;
endmodule
