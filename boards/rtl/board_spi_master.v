// SPDX-License-Identifier: ISC
// board_spi_master: byte transfers on an SPI bus in mode 0 (clock idles low, both sides
// sample on the rising edge), as the boot ROM reads the board's SPI flash with. A byte
// offered with start (while idle) is shifted out MSB first on mosi while the byte on miso
// is shifted in; busy is high until the 8th bit has been sampled, then rdata holds the
// received byte. SCK runs at clock / (2 * HALF) (HALF = 1: 12 MHz at a 24 MHz clock).
// Chip select is the user's (a register of board_io).
module board_spi_master #(
    parameter HALF = 1              // clock cycles per SCK half period
) (
    input  wire       clk,
    input  wire       rst,
    input  wire       start,
    input  wire [7:0] wdata,
    output wire       busy,
    output reg  [7:0] rdata,
    output reg        sck,
    output wire       mosi,
    input  wire       miso
);
    localparam HW = (HALF <= 2) ? 1 : $clog2(HALF);
    reg [HW-1:0] wait_q;
    reg [3:0]    bits;           // bits left, 0 = idle
    reg [7:0]    out;
    assign busy = bits != 4'd0;
    assign mosi = out[7];
    always @(posedge clk) begin
        if (rst) begin
            bits   <= 4'd0;
            sck    <= 1'b0;
            wait_q <= {HW{1'b0}};
            out    <= 8'd0;
            rdata  <= 8'd0;
        end else if (!busy) begin
            if (start) begin
                out    <= wdata;
                bits   <= 4'd8;
                wait_q <= HALF[HW-1:0] - 1'b1;
            end
        end else if (wait_q != {HW{1'b0}}) begin
            wait_q <= wait_q - 1'b1;
        end else begin
            wait_q <= HALF[HW-1:0] - 1'b1;
            if (!sck) begin
                sck   <= 1'b1;                      // rising edge: both sides sample
                rdata <= {rdata[6:0], miso};
            end else begin
                sck  <= 1'b0;                       // falling edge: the next bit goes out
                out  <= {out[6:0], 1'b0};
                bits <= bits - 4'd1;
            end
        end
    end
endmodule
