// SPDX-License-Identifier: ISC
// tb_board_mesh: four boards wired pin to pin as a 2x2 mesh (TORUS = 1: a 2x2 torus, two
// cables between each pair), as boards/link-pinout.md cables them: each board is the
// board's logic (board_node: tile, boot ROM, board devices, a link_phy on every port;
// config.mk's board profile from board_params.vh) with its own oscillator, its own SPI
// flash (spi_flash_model, +flash<n>=<hex file>: board n's image, n = x + 2*y) and a UART
// receiver on its console pin (lines printed as "UART<n>: ...").
//
// The oscillators differ by a few hundred ppm (board 0 nominal, 1 +200 ppm, 2 -200 ppm,
// 3 +400 ppm: half periods of 5.000, 5.001, 4.999 and 5.002 ns), and the boards leave reset
// at different times (board n START_SKEW * n cycles after board 0), as boards powered on by
// hand do. A + port's two output pins drive the neighbour's - port's input pins and back;
// a port without a cable reads its pull-ups (1). +cut_board=<n> +cut_port=<k> takes out the
// cable on board n's port k (both directions).
//
// Ends when every board has exited, halted or refused its image (or at +max_cycles of
// board 0's clock, default 8,000,000), lets the consoles finish, and prints per board
//   RESULT board <n> exited <code> | halted | boot_error <e> | running   links <k3..k0>
// (the link LEDs: 1 = that port's link is up), then
//   RESULT mesh exited <boards that exited 0> of 4 cycles <c>
`timescale 1ns / 1ps
module tb_board_mesh #(
    parameter FLASH_BASE = 32'h0010_0000,   // config.mk BOARD_FLASH_OFFSET
    parameter CLK_HZ     = 4000000,         // fast console: 4 clock cycles a bit
    parameter BAUD       = 1000000,
    parameter TORUS      = 0,
    parameter START_SKEW = 3000
);
    localparam N = 4, P = 4, PINS = 2;
    localparam DIV = CLK_HZ / BAUD;

    wire [N*P*PINS-1:0] tx_all, rx_all;     // board n's pins at [n*P*PINS +: P*PINS]
    wire [N-1:0]        exited, halted, finished;
    wire [N*32-1:0]     exit_code, boot_status;
    wire [N*P-1:0]      led_link;
    reg  [N*P-1:0]      cut = {N*P{1'b0}};  // cables taken out (+cut)
    wire [N-1:0]        clk;

    // the neighbour of board n through port k (k = 2*d + s: s 0 the + side), or -1
    function integer neighbour(input integer n, input integer k);
        integer c0, c1, d;
        begin
            c0 = n % 2;
            c1 = n / 2;
            d  = (k % 2 == 0) ? 1 : -1;
            if (k / 2 == 0) c0 = c0 + d;
            else            c1 = c1 + d;
            if (TORUS != 0) begin
                c0 = (c0 + 2) % 2;
                c1 = (c1 + 2) % 2;
            end
            neighbour = (c0 < 0 || c0 > 1 || c1 < 0 || c1 > 1) ? -1 : c0 + 2 * c1;
        end
    endfunction

    genvar n, k;
    generate
        for (n = 0; n < N; n = n + 1) begin : board
            localparam integer PPM = (n == 0) ? 0 : (n == 1) ? 200 : (n == 2) ? -200 : 400;
            localparam real HALF_NS = 5.0 * (1.0 + PPM * 1.0e-6);
            reg clk_r = 1'b0, rst = 1'b1;
            always #(HALF_NS) clk_r = !clk_r;
            assign clk[n] = clk_r;
            initial begin
                repeat (10 + START_SKEW * n) @(posedge clk_r);
                rst = 1'b0;
            end

            // the cables into this board's ports
            for (k = 0; k < P; k = k + 1) begin : port
                localparam integer NB = neighbour(n, k);
                if (NB < 0) begin : none
                    assign rx_all[(n*P + k)*PINS +: PINS] = {PINS{1'b1}};
                end else begin : cable
                    assign rx_all[(n*P + k)*PINS +: PINS] =
                        cut[n*P + k] ? {PINS{1'b1}} : tx_all[(NB*P + (k ^ 1))*PINS +: PINS];
                end
            end

            wire uart_tx, sck, cs_n, mosi, miso, led_red, led_green, led_beat;
            wire console_valid;
            wire [7:0] console_data;
            board_node #(
`include "board_params.vh"
                .BOOT_INIT(`BOOT_HEX), .CLK_HZ(CLK_HZ), .BAUD(BAUD), .TICK_HZ(CLK_HZ / 64)
            ) node (
                .clk(clk_r), .rst(rst), .uart_tx(uart_tx),
                .spi_sck(sck), .spi_cs_n(cs_n), .spi_mosi(mosi), .spi_miso(miso),
                .led_red(led_red), .led_green(led_green), .led_link(led_link[n*P +: P]),
                .led_beat(led_beat),
                .link_tx(tx_all[n*P*PINS +: P*PINS]), .link_rx(rx_all[n*P*PINS +: P*PINS]),
                .console_valid(console_valid), .console_data(console_data),
                .boot_status(boot_status[n*32 +: 32]), .exited(exited[n]),
                .exit_code(exit_code[n*32 +: 32]), .halted(halted[n])
            );
            spi_flash_model #(.BASE(FLASH_BASE),
                              .PLUSARG(n == 0 ? "flash0" : n == 1 ? "flash1" : n == 2 ? "flash2" : "flash3"))
                flash (.sck(sck), .cs_n(cs_n), .mosi(mosi), .miso(miso));
            uart_rx_model #(.DIV(DIV), .TAG(n)) uart (.clk(clk_r), .rx(uart_tx));
            // exited, halted, or the boot ROM refused the image
            assign finished[n] = exited[n] || halted[n] || boot_status[n*32 + 8 +: 24] == 24'd1;
        end
    endgenerate

    integer max_cycles, cycles = 0, i, cut_n, cut_k, ok;
    initial begin
        if (!$value$plusargs("max_cycles=%d", max_cycles)) max_cycles = 8000000;
        if ($value$plusargs("cut_board=%d", cut_n)) begin
            if (!$value$plusargs("cut_port=%d", cut_k)) cut_k = 0;
            if (cut_n < 0 || cut_n >= N || cut_k < 0 || cut_k >= P || neighbour(cut_n, cut_k) < 0) begin
                $display("tb_board_mesh: +cut_board=%0d +cut_port=%0d: no cable there", cut_n, cut_k);
                $finish;
            end
            cut[cut_n*P + cut_k] = 1'b1;
            cut[neighbour(cut_n, cut_k)*P + (cut_k ^ 1)] = 1'b1;
        end
        while (!(&finished) && cycles < max_cycles) begin
            @(posedge clk[0]);
            cycles = cycles + 1;
        end
        // let the consoles finish their last lines
        while ((board[0].uart.idle < 40 * DIV || board[1].uart.idle < 40 * DIV ||
                board[2].uart.idle < 40 * DIV || board[3].uart.idle < 40 * DIV) && cycles < max_cycles) begin
            @(posedge clk[0]);
            cycles = cycles + 1;
        end
        if (board[0].uart.n_line != 0) board[0].uart.flush;
        if (board[1].uart.n_line != 0) board[1].uart.flush;
        if (board[2].uart.n_line != 0) board[2].uart.flush;
        if (board[3].uart.n_line != 0) board[3].uart.flush;
        ok = 0;
        for (i = 0; i < N; i = i + 1) begin
            $write("RESULT board %0d ", i);
            if (exited[i]) $write("exited %0d", exit_code[i*32 +: 32]);
            else if (halted[i]) $write("halted");
            else if (boot_status[i*32 + 8 +: 24] == 24'd1) $write("boot_error %0d", boot_status[i*32 +: 5]);
            else $write("running");
            $write(" links %b\n", led_link[i*P +: P]);
            if (exited[i] && exit_code[i*32 +: 32] == 32'd0) ok = ok + 1;
        end
        $display("RESULT mesh exited %0d of %0d cycles %0d", ok, N, cycles);
        $finish;
    end
endmodule
