// SPDX-License-Identifier: ISC
// tb_board_boot: a board as the boot ROM sees it (board_node: tile + boot ROM + board
// devices, config.mk's board profile from board_params.vh) with a model of the SPI flash
// (spi_flash_model, loaded from +flash=<hex file>; without it, nothing answers on the SPI
// bus) and a UART receiver on the console pin (uart_rx_model). Prints each console line as
// "UART: ..." (+stamp: "UART@<cycle>: ..."),
// then one result line:
//   RESULT exited <code>        the firmware wrote tohost (exit status)
//   RESULT boot_error <n> blinks <k>   the ROM refused the image; k red-LED blinks counted
//                               over one period of the LED pattern (must be n; with
//                               +no_blinks: RESULT boot_error <n> red <r> green <g>, the
//                               LEDs at that cycle, nothing counted)
//   RESULT halted | RESULT timeout
// +max_cycles=N bounds the run (default 5,000,000).
`timescale 1ns / 1ps
module tb_board_boot #(
    parameter FLASH_BASE = 32'h0010_0000,   // config.mk BOARD_FLASH_OFFSET
    // the board's clock and console: fast by default (4 cycles a bit, an LED tick every 64
    // cycles); the bitstream's own (24 MHz, 115200 baud, 8 ticks a second) to compare with
    // its netlist (tests/boards/test_board_netlist.sh)
    parameter CLK_HZ     = 4000000,
    parameter BAUD       = 1000000,
    parameter TICK_HZ    = CLK_HZ / 64
);
    localparam DIV = CLK_HZ / BAUD;
    localparam TICK = CLK_HZ / TICK_HZ;              // clock cycles per LED tick
    reg clk = 1'b0, rst = 1'b1;
    always #5 clk = !clk;

    wire uart_tx, sck, cs_n, mosi, miso_flash, led_red, led_green, led_beat;
    wire [3:0] led_link;
    wire console_valid, exited, halted;
    wire [7:0] console_data;
    wire [31:0] boot_status, exit_code;
    reg  have_flash;
    wire miso = have_flash ? miso_flash : 1'b1;      // no flash: the line floats high

    board_node #(
`include "board_params.vh"
        .BOOT_INIT(`BOOT_HEX), .CLK_HZ(CLK_HZ), .BAUD(BAUD), .TICK_HZ(TICK_HZ)
    ) dut (
        .clk(clk), .rst(rst), .uart_tx(uart_tx),
        .spi_sck(sck), .spi_cs_n(cs_n), .spi_mosi(mosi), .spi_miso(miso),
        .led_red(led_red), .led_green(led_green), .led_link(led_link), .led_beat(led_beat),
        .link_tx(), .link_rx(8'hff),   // no cables: the lines idle high
        .console_valid(console_valid), .console_data(console_data),
        .boot_status(boot_status), .exited(exited), .exit_code(exit_code), .halted(halted)
    );
    spi_flash_model #(.BASE(FLASH_BASE)) flash (.sck(sck), .cs_n(cs_n), .mosi(mosi), .miso(miso_flash));

    uart_rx_model #(.DIV(DIV)) uart (.clk(clk), .rx(uart_tx));

    integer max_cycles, cycles = 0, blinks, err;
    reg red_q;
    initial begin
        if (!$value$plusargs("max_cycles=%d", max_cycles)) max_cycles = 5000000;
        have_flash = $test$plusargs("flash=");
        repeat (10) @(posedge clk);
        rst = 1'b0;
        while (!exited && !halted && boot_status[31:8] != 24'd1 && cycles < max_cycles) begin
            @(posedge clk);
            cycles = cycles + 1;
        end
        // let the console finish its last line
        while (uart.idle < 40 * DIV && cycles < max_cycles) begin
            @(posedge clk);
            cycles = cycles + 1;
        end
        if (uart.n_line != 0) uart.flush;
        if (exited) begin
            $display("RESULT exited %0d cycles %0d", exit_code, cycles);
        end else if (halted) begin
            $display("RESULT halted cycles %0d", cycles);
        end else if (boot_status[31:8] == 24'd1 && $test$plusargs("no_blinks")) begin
            // at the board's own 8 ticks a second a period of the pattern is tens of millions
            // of cycles: +no_blinks leaves the LEDs uncounted
            $display("RESULT boot_error %0d red %0d green %0d", boot_status[4:0], led_red, led_green);
        end else if (boot_status[31:8] == 24'd1) begin
            // count red blinks over one period of the pattern: (2n + 6) ticks
            err = boot_status[4:0];
            blinks = 0;
            red_q = led_red;
            repeat ((2 * err + 6) * TICK) begin
                @(posedge clk);
                if (led_red && !red_q) blinks = blinks + 1;
                red_q = led_red;
            end
            $display("RESULT boot_error %0d blinks %0d green %0d", err, blinks, led_green);
        end else begin
            $display("RESULT timeout cycles %0d boot_status %0h", cycles, boot_status);
        end
        $finish;
    end
endmodule
