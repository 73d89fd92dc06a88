// SPDX-License-Identifier: ISC
// board_uart_tx: an 8N1 UART transmitter. A byte offered with valid is taken (ready high)
// when the line is idle and sent as a start bit, 8 data bits (LSB first) and a stop bit,
// each DIV clock cycles long (DIV = clock / baud, e.g. 24 MHz / 115200 = 208). The line
// idles high.
module board_uart_tx #(
    parameter DIV = 208
) (
    input  wire       clk,
    input  wire       rst,
    input  wire       valid,
    output wire       ready,
    input  wire [7:0] data,
    output wire       tx
);
    localparam CW = (DIV <= 2) ? 1 : $clog2(DIV);
    reg [CW-1:0] count;      // cycles left in the current bit
    reg [3:0]    bits;       // bits left to send (start + 8 + stop = 10), 0 = idle
    reg [9:0]    shift;      // stop, data[7:0], start: the line is shift[0]
    assign ready = bits == 4'd0;
    assign tx    = ready ? 1'b1 : shift[0];
    always @(posedge clk) begin
        if (rst) begin
            bits  <= 4'd0;
            count <= {CW{1'b0}};
            shift <= 10'h3ff;
        end else if (ready) begin
            if (valid) begin
                shift <= {1'b1, data, 1'b0};
                bits  <= 4'd10;
                count <= DIV[CW-1:0] - 1'b1;
            end
        end else if (count != {CW{1'b0}}) begin
            count <= count - 1'b1;
        end else begin
            shift <= {1'b1, shift[9:1]};
            bits  <= bits - 4'd1;
            count <= DIV[CW-1:0] - 1'b1;
        end
    end
endmodule
