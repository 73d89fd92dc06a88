// SPDX-License-Identifier: ISC
// board_io: the board's devices on the tile's io_* port (the IO window, IO_BASE = 0x0300_0000
// on every board), one 32-bit register per word; the map is boards/README.md's "Board
// registers" (the one definition; firmware/board/board_regs.h spells it for C):
//
//   0x00 BOARD_ID     R    0x5256_4201 ("RVB", version 1)
//   0x04 CLK_HZ       R    the core clock in Hz
//   0x08 SPI_CS       R/W  [0] 1: flash chip select active (CS# low)
//   0x0c SPI_DATA     W    [7:0] shift this byte out, the flash's byte in (waits while a
//                          transfer runs); R: waits for the transfer, [7:0] the byte received
//   0x10 LED          R/W  [0] red LED on, [1] green LED on (while BOOT_STATUS is 0)
//   0x14 NODE_COORD   R/W  the tile's my_coord: x [7:0], y [15:8], z [23:16]
//   0x18 NODE_SHAPE   R/W  sizes X [7:0], Y [15:8], Z [23:16]; [28] torus
//   0x1c NODE_INDEX   R/W  [15:0] node index (mhartid), [31:16] node count
//   0x20 TOHOST       R/W  address of the word whose store with bit 0 set is the exit
//   0x24 BOOT_STATUS  R/W  [8:0]: 0 boot ROM running, 1 firmware running, 0x100 + n boot error n
//   0x28 LINK_STATUS  R    [7:0] bit p: link p has a partner; [15:8] ports; [16] PHY built in
//   0x2c EXIT         R    [0] the firmware exited (tohost), [1] the core halted,
//                          [31:2] reserved; the status is EXIT_CODE
//   0x30 EXIT_CODE    R    the exit status (tohost value >> 1)
//   0x34 SPI_CRC      R/W  the CRC-32 (IEEE, reflected: 0xedb8_8320) state over every byte
//                          SPI_DATA has received since it was written: W sets the state
//                          (0xffff_ffff to start), R waits for the shifter and the CRC
//                          engine, then answers the state (the CRC is its complement)
// Anything else in the window, and a store of fewer than 4 bytes, is an access fault. The
// identity registers (COORD, SHAPE, INDEX, TOHOST) reset to a lone node (0,0) of a 1x1
// machine; the boot ROM writes them from the flash image before it starts the firmware.
module board_io #(
    parameter [31:0] CLK_HZ    = 24000000,
    parameter        PORTS     = 4,
    parameter        HAVE_PHY  = 0,
    parameter        SPI_HALF  = 1
) (
    input  wire             clk,
    input  wire             rst,
    // the tile's io port
    input  wire             req_valid,
    output wire             req_ready,
    output wire             req_error,
    input  wire [31:0]      req_addr,
    input  wire             req_write,
    input  wire [3:0]       req_wstrb,
    input  wire [31:0]      req_data,
    output wire [31:0]      resp_data,
    // node identity for the tile
    output reg  [23:0]      my_coord,
    output reg  [23:0]      dim_size,
    output reg              torus,
    output reg  [15:0]      node_index,
    output reg  [15:0]      node_count,
    output reg  [31:0]      tohost_addr,
    // state shown on the LEDs
    output wire [31:0]      boot_status,
    output reg  [1:0]       led_sw,
    input  wire [PORTS-1:0] link_up,
    input  wire             exited,
    input  wire             halted,
    input  wire [31:0]      exit_code,
    // SPI flash
    output wire             spi_sck,
    output wire             spi_cs_n,
    output wire             spi_mosi,
    input  wire             spi_miso
);
    wire [5:0] word = req_addr[7:2];
    wire unused_addr = ^{req_addr[31:8], req_addr[1:0]};
    reg  known, writable;
    always @(*) begin
        known = 1'b1;
        writable = 1'b1;
        case (word)
            6'h00, 6'h01, 6'h0a, 6'h0b, 6'h0c: writable = 1'b0;
            6'h02, 6'h03, 6'h04, 6'h05, 6'h06, 6'h07, 6'h08, 6'h09, 6'h0d: ;
            default: known = 1'b0;
        endcase
    end
    wire bad  = !known || (req_write && (!writable || req_wstrb != 4'b1111));
    wire spi_busy;
    wire [7:0] spi_rdata;
    reg  [3:0] crc_left;         // bits of the last byte still to fold into the CRC
    // SPI_DATA waits for the shifter, SPI_CRC for the shifter and the CRC engine; everything
    // else answers at once
    assign req_ready = !(!bad && ((word == 6'h03 && spi_busy) ||
                                  (word == 6'h0d && !req_write && (spi_busy || crc_left != 4'd0))));
    assign req_error = bad;
    wire go = req_valid && req_ready && !bad;

    reg cs;
    reg [8:0] status;
    assign boot_status = {23'd0, status};
    assign spi_cs_n = !cs;
    board_spi_master #(.HALF(SPI_HALF)) spi (
        .clk(clk), .rst(rst), .start(go && req_write && word == 6'h03),
        .wdata(req_data[7:0]), .busy(spi_busy), .rdata(spi_rdata),
        .sck(spi_sck), .mosi(spi_mosi), .miso(spi_miso)
    );

    // the CRC engine: a byte the shifter has received (busy falls) is folded in LSB first, a
    // bit a cycle, while the next byte shifts in (a byte takes 16 cycles or more, the fold 8)
    reg        spi_busy_q;
    reg [7:0]  crc_byte;
    reg [31:0] crc;
    wire       crc_set = go && req_write && word == 6'h0d;
    always @(posedge clk) begin
        spi_busy_q <= !rst && spi_busy;
        if (rst) begin
            crc_left <= 4'd0;
            crc      <= 32'hffff_ffff;
            crc_byte <= 8'd0;
        end else if (crc_set) begin
            crc_left <= 4'd0;
            crc      <= req_data;
        end else if (spi_busy_q && !spi_busy) begin
            crc_left <= 4'd8;
            crc_byte <= spi_rdata;
        end else if (crc_left != 4'd0) begin
            crc_left <= crc_left - 4'd1;
            crc_byte <= {1'b0, crc_byte[7:1]};
            crc      <= {1'b0, crc[31:1]} ^ (32'hedb8_8320 & {32{crc[0] ^ crc_byte[0]}});
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            cs          <= 1'b0;
            led_sw      <= 2'b00;
            my_coord    <= 24'd0;
            dim_size    <= 24'h01_01_01;
            torus       <= 1'b0;
            node_index  <= 16'd0;
            node_count  <= 16'd1;
            tohost_addr <= 32'd0;
            status      <= 9'd0;
        end else if (go && req_write) begin
            case (word)
                6'h02: cs          <= req_data[0];
                6'h04: led_sw      <= req_data[1:0];
                6'h05: my_coord    <= req_data[23:0];
                6'h06: begin dim_size <= req_data[23:0]; torus <= req_data[28]; end
                6'h07: begin node_index <= req_data[15:0]; node_count <= req_data[31:16]; end
                6'h08: tohost_addr <= req_data;
                6'h09: status      <= req_data[8:0];
                default: ;
            endcase
        end
    end

    // read data: the register picked by the word registered at acceptance (no register
    // changes between a load's acceptance and its answer the next cycle: a store accepted
    // in that cycle takes effect at its end, and SPI_DATA is read only when the shifter idles)
    wire [7:0] ports = PORTS[7:0];
    reg  [5:0] rword;
    always @(posedge clk) if (go && !req_write) rword <= word;
    reg  [31:0] rdata;
    always @(*) begin
        case (rword)
            6'h00: rdata = 32'h5256_4201;
            6'h01: rdata = CLK_HZ;
            6'h02: rdata = {31'd0, cs};
            6'h03: rdata = {24'd0, spi_rdata};
            6'h04: rdata = {30'd0, led_sw};
            6'h05: rdata = {8'd0, my_coord};
            6'h06: rdata = {3'd0, torus, 4'd0, dim_size};
            6'h07: rdata = {node_count, node_index};
            6'h08: rdata = tohost_addr;
            6'h09: rdata = boot_status;
            6'h0a: rdata = {15'd0, HAVE_PHY != 0, ports, {(8-PORTS){1'b0}}, link_up};
            6'h0b: rdata = {30'd0, halted, exited};
            6'h0c: rdata = exit_code;
            6'h0d: rdata = crc;
            default: rdata = 32'd0;
        endcase
    end
    assign resp_data = rdata;
endmodule
