// SPDX-License-Identifier: ISC
// uart_rx_model: a UART receiver for the board testbenches (8N1, DIV clock cycles per bit,
// sampled mid-bit). Prints each line it receives as "UART: <text>", or with +stamp as
// "UART@<cycle>: <text>" where <cycle> counts clk edges from time 0 to the line's newline
// (so two runs of one design, or of its RTL and its netlist, can be compared line by line).
// TAG >= 0 (a testbench with several boards) prints "UART<TAG>: <text>" ("UART<TAG>@<cycle>").
// `lines` counts the lines printed, `idle` the cycles since rx last went low; flush() prints
// a last line that has no newline.
module uart_rx_model #(
    parameter DIV = 4,
    parameter TAG = -1
) (
    input wire clk,
    input wire rx
);
    reg [2047:0] line;
    integer n_line = 0, k, idle = 0, lines = 0, cycle = 0;
    reg [7:0] ch;
    reg stamp;
    initial stamp = $test$plusargs("stamp");
    task automatic flush;
        begin
            if (TAG >= 0) $write("UART%0d", TAG);
            else $write("UART");
            if (stamp) $write("@%0d: ", cycle);
            else $write(": ");
            for (k = n_line - 1; k >= 0; k = k - 1) $write("%c", line[8*k +: 8]);
            $write("\n");
            n_line = 0;
            lines = lines + 1;
        end
    endtask
    initial begin
        forever begin
            @(negedge rx);
            repeat (DIV / 2) @(posedge clk);
            for (k = 0; k < 8; k = k + 1) begin
                repeat (DIV) @(posedge clk);
                ch[k] = rx;
            end
            repeat (DIV) @(posedge clk);     // stop bit
            if (ch == 8'h0a) flush;
            else if (ch != 8'h0d && n_line < 256) begin
                line = {line[2039:0], ch};
                n_line = n_line + 1;
            end
        end
    end
    always @(posedge clk) begin
        cycle <= cycle + 1;
        idle <= rx ? idle + 1 : 0;
    end
endmodule
