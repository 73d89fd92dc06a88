// SPDX-License-Identifier: ISC
// tb_board_pins: the iCEBreaker top (board_icebreaker) seen from its pins, for the netlist
// that yosys makes of it for the bitstream (tests/boards/test_board_netlist.sh; the same
// testbench takes the RTL). The oscillator pin gets the clock (the PLL model passes it
// through: one simulated cycle is one cycle of the design's CLK_HZ), the user button is up,
// a model of the SPI flash answers on the FLASH pins (+flash=<hex file>, as tb_board_boot),
// the link pins' inputs idle high (no cables) and a UART receiver listens on TX at the
// board's baud rate. Prints each console line ("UART: ...", +stamp: "UART@<cycle>: ..."),
// then one line:
//   RESULT lines <n> red <0|1> green <0|1> cycles <c>
// once +lines=N console lines have come and the line has been quiet for 40 bit times, or
// at +max_cycles (default 20,000,000). red is the red LED at the end: on when the firmware
// exited with a non-zero status, the core halted, or the boot ROM refused the image.
// +leds prints every change of the LED pins ("LEDS@<cycle>: ...").
`timescale 1ns / 1ps
module tb_board_pins #(
    parameter FLASH_BASE = 32'h0010_0000,   // config.mk BOARD_FLASH_OFFSET
    parameter CLK_HZ     = 24000000,        // the design's clock (the PLL's output rate)
    parameter BAUD       = 115200           // board_node's default console rate
);
    localparam DIV = CLK_HZ / BAUD;
    reg clk = 1'b0;
    always #5 clk = !clk;

    wire tx, ledr_n, ledg_n, sck, ssb, mosi, miso;
    wire [4:0] led;
    wire [3:0] a_out, b_out;
    board_icebreaker dut (
        .CLK(clk), .BTN_N(1'b1), .TX(tx), .LEDR_N(ledr_n), .LEDG_N(ledg_n),
        .LED1(led[0]), .LED2(led[1]), .LED3(led[2]), .LED4(led[3]), .LED5(led[4]),
        .FLASH_SCK(sck), .FLASH_SSB(ssb), .FLASH_IO0(mosi), .FLASH_IO1(miso),
        .P1A1(a_out[0]), .P1A2(a_out[1]), .P1A3(1'b1), .P1A4(1'b1),
        .P1A7(1'b1), .P1A8(1'b1), .P1A9(a_out[2]), .P1A10(a_out[3]),
        .P1B1(b_out[0]), .P1B2(b_out[1]), .P1B3(1'b1), .P1B4(1'b1),
        .P1B7(1'b1), .P1B8(1'b1), .P1B9(b_out[2]), .P1B10(b_out[3])
    );
    spi_flash_model #(.BASE(FLASH_BASE)) flash (.sck(sck), .cs_n(ssb), .mosi(mosi), .miso(miso));
    uart_rx_model #(.DIV(DIV)) uart (.clk(clk), .rx(tx));

    integer max_cycles, want, cycles = 0;
    // the LED pins, sampled every cycle; +leds prints every change, with its cycle
    reg [6:0] leds_q = 7'h7f;
    reg show_leds;
    initial show_leds = $test$plusargs("leds");
    always @(posedge clk) begin
        leds_q <= {!ledr_n, !ledg_n, led};
        if (show_leds && leds_q != {!ledr_n, !ledg_n, led})
            $display("LEDS@%0d: red %0d green %0d link %b beat %0d", cycles, !ledr_n, !ledg_n, led[3:0], led[4]);
    end
    initial begin
        if (!$value$plusargs("max_cycles=%d", max_cycles)) max_cycles = 20000000;
        if (!$value$plusargs("lines=%d", want)) want = 1;
        while (uart.lines < want && cycles < max_cycles) begin
            @(posedge clk);
            cycles = cycles + 1;
        end
        while (uart.idle < 40 * DIV && cycles < max_cycles) begin
            @(posedge clk);
            cycles = cycles + 1;
        end
        if (uart.n_line != 0) uart.flush;
        // the LEDs as the clocked process sampled them (read here directly, after the
        // initial block's own wait, Verilator gave the netlist's outputs a stale value)
        $display("RESULT lines %0d red %0d green %0d cycles %0d", uart.lines, leds_q[6], leds_q[5], cycles);
        $finish;
    end
endmodule
