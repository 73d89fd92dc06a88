// SPDX-License-Identifier: ISC
// tb_board_mesh: four iCEBreakers wired pin to pin as a 2x2 mesh (+torus: a 2x2 torus, two
// cables between each pair), their PMOD pins cabled as boards/link-pinout.md says:
// pin n of a + row to pin n + 6 of the neighbour's - row (P1A1 -> P1A7, P1A2 -> P1A8,
// P1A3 <- P1A9, P1A4 <- P1A10 for +x/-x; the same on P1B for +y/-y). Each board is the
// bitstream's top, board_icebreaker, from RTL (its PLL: tests/boards/sb_pll40_pad_model.v;
// the tile's parameters from config.mk's board profile, board_params.vh, as chparam gives
// them to the bitstream), with its own oscillator on CLK, its own SPI flash on the FLASH
// pins (spi_flash_model, +flash<n>=<hex file>: board n's image, n = x + 2*y) and a UART
// receiver on TX (lines printed as "UART<n>: ...").
//
// The oscillators differ by a few hundred ppm (board 0 nominal, 1 +200 ppm, 2 -200 ppm,
// 3 +400 ppm: half periods of 5.000, 5.001, 4.999 and 5.002 ns), and board n's button is
// held (reset) for +start_skew=<cycles> (default 3,000) times n cycles more than board 0's,
// as boards started by hand.
// A port without a cable reads its pull-ups (1). +cut_board=<n> +cut_port=<k> takes out the
// cable on board n's port k (k = 2*d + s: 0 +x, 1 -x, 2 +y, 3 -y), both directions.
//
// Ends when every board has exited, halted or refused its image (or at +max_cycles of
// board 0's clock, default 8,000,000), lets the consoles finish, and prints per board
//   RESULT board <n> exited <code> | halted | boot_error <e> | running   links <LED4..LED1>
// (the break-off PMOD's link LEDs: 1 = that port's link is up), then
//   RESULT mesh exited <boards that exited 0> of 4 cycles <c>
`timescale 1ns / 1ps
module tb_board_mesh #(
    parameter FLASH_BASE = 32'h0010_0000,   // config.mk BOARD_FLASH_OFFSET
    parameter CLK_HZ     = 4000000,         // the design's clock as the top is told (PLL model: the oscillator's)
    parameter BAUD       = 115200           // board_node's console rate
);
    localparam N = 4, P = 4;
    localparam DIV = (CLK_HZ + BAUD / 2) / BAUD;   // as board_node's UART

    wire [N*8-1:0]      pin_out;            // board n's PMOD output pins at [n*8 +: 8]
    wire [N-1:0]        exited, halted, finished;
    wire [N*32-1:0]     exit_code, boot_status;
    wire [N*P-1:0]      led_link;
    reg  [N*P-1:0]      cut = {N*P{1'b0}};  // cables taken out (+cut_board, +cut_port)
    reg                 torus = 1'b0;       // +torus: the wrap-around cables too
    integer             start_skew;         // +start_skew
    initial if (!$value$plusargs("start_skew=%d", start_skew)) start_skew = 3000;
    wire [N-1:0]        clk;

    // the neighbour of board n through port k (k = 2*d + s: s 0 the + side); with wrap the
    // torus's, else the mesh's (-1: none)
    function integer neighbour(input integer n, input integer k, input integer wrap);
        integer c0, c1, d;
        begin
            c0 = n % 2;
            c1 = n / 2;
            d  = (k % 2 == 0) ? 1 : -1;
            if (k / 2 == 0) c0 = c0 + d;
            else            c1 = c1 + d;
            if (wrap != 0) begin
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
            reg osc = 1'b0, btn_n = 1'b0;
            always #(HALF_NS) osc = !osc;
            assign clk[n] = osc;
            initial begin
                #1;   // start_skew is read at time 0
                repeat (10 + start_skew * n) @(posedge osc);
                btn_n = 1'b1;
            end

            // this board's PMOD 1A/1B output pins, [n*8 +: 8] of pin_out:
            //   0 P1A1, 1 P1A2 (+x out), 2 P1A9, 3 P1A10 (-x out), 4 P1B1, 5 P1B2 (+y out),
            //   6 P1B9, 7 P1B10 (-y out)
            // its input pins, each from the cable on that row (or its pull-up)
            wire p1a3, p1a4, p1a7, p1a8, p1b3, p1b4, p1b7, p1b8;
            // the torus's neighbour on each port (in a 2x2 every port has one); the cable is
            // there when the mesh has it too, or with +torus, and not cut
            localparam integer XP = neighbour(n, 0, 1), XM = neighbour(n, 1, 1),
                               YP = neighbour(n, 2, 1), YM = neighbour(n, 3, 1);
            localparam [P-1:0] IN_MESH = {neighbour(n, 3, 0) >= 0, neighbour(n, 2, 0) >= 0,
                                          neighbour(n, 1, 0) >= 0, neighbour(n, 0, 0) >= 0};
            wire [P-1:0] no_cable = cut[n*P +: P] | ~(IN_MESH | {P{torus}});
            // +x row (pins 1-6) to the right neighbour's -x row (7-12): its 9, 10 into 3, 4
            assign p1a3 = no_cable[0] | pin_out[XP*8 + 2];
            assign p1a4 = no_cable[0] | pin_out[XP*8 + 3];
            // -x row (pins 7-12) to the left neighbour's +x row: its 1, 2 into 7, 8
            assign p1a7 = no_cable[1] | pin_out[XM*8 + 0];
            assign p1a8 = no_cable[1] | pin_out[XM*8 + 1];
            // the same on PMOD 1B for +y and -y
            assign p1b3 = no_cable[2] | pin_out[YP*8 + 6];
            assign p1b4 = no_cable[2] | pin_out[YP*8 + 7];
            assign p1b7 = no_cable[3] | pin_out[YM*8 + 4];
            assign p1b8 = no_cable[3] | pin_out[YM*8 + 5];

            wire tx, ledr_n, ledg_n, led5, sck, ssb, mosi, miso;
            board_icebreaker #(.CLK_HZ(CLK_HZ)) top (
                .CLK(osc), .BTN_N(btn_n), .TX(tx), .LEDR_N(ledr_n), .LEDG_N(ledg_n),
                .LED1(led_link[n*P + 0]), .LED2(led_link[n*P + 1]), .LED3(led_link[n*P + 2]),
                .LED4(led_link[n*P + 3]), .LED5(led5),
                .FLASH_SCK(sck), .FLASH_SSB(ssb), .FLASH_IO0(mosi), .FLASH_IO1(miso),
                .P1A1(pin_out[n*8 + 0]), .P1A2(pin_out[n*8 + 1]), .P1A3(p1a3), .P1A4(p1a4),
                .P1A7(p1a7), .P1A8(p1a8), .P1A9(pin_out[n*8 + 2]), .P1A10(pin_out[n*8 + 3]),
                .P1B1(pin_out[n*8 + 4]), .P1B2(pin_out[n*8 + 5]), .P1B3(p1b3), .P1B4(p1b4),
                .P1B7(p1b7), .P1B8(p1b8), .P1B9(pin_out[n*8 + 6]), .P1B10(pin_out[n*8 + 7])
            );
            spi_flash_model #(.BASE(FLASH_BASE),
                              .PLUSARG(n == 0 ? "flash0" : n == 1 ? "flash1" : n == 2 ? "flash2" : "flash3"))
                flash (.sck(sck), .cs_n(ssb), .mosi(mosi), .miso(miso));
            uart_rx_model #(.DIV(DIV), .TAG(n)) uart (.clk(osc), .rx(tx));
            // what the board's pins do not show: its exit status, read inside (the red and
            // green LEDs show only ok / not ok)
            assign exited[n] = top.node.exited;
            assign halted[n] = top.node.halted;
            assign exit_code[n*32 +: 32] = top.node.exit_code;
            assign boot_status[n*32 +: 32] = top.node.boot_status;
            // exited, halted, or the boot ROM refused the image
            assign finished[n] = exited[n] || halted[n] || boot_status[n*32 + 8 +: 24] == 24'd1;
        end
    endgenerate

    integer max_cycles, cycles = 0, i, cut_n, cut_k, ok;
    initial begin
        if (!$value$plusargs("max_cycles=%d", max_cycles)) max_cycles = 8000000;
        torus = $test$plusargs("torus");
        if ($value$plusargs("cut_board=%d", cut_n)) begin
            if (!$value$plusargs("cut_port=%d", cut_k)) cut_k = 0;
            if (cut_n < 0 || cut_n >= N || cut_k < 0 || cut_k >= P ||
                neighbour(cut_n, cut_k, torus ? 1 : 0) < 0) begin
                $display("tb_board_mesh: +cut_board=%0d +cut_port=%0d: no cable there", cut_n, cut_k);
                $finish;
            end
            cut[cut_n*P + cut_k] = 1'b1;
            cut[neighbour(cut_n, cut_k, 1)*P + (cut_k ^ 1)] = 1'b1;
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
