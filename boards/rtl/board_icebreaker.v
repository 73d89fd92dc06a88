// SPDX-License-Identifier: ISC
// board_icebreaker: the top of the iCEBreaker (iCE40UP5K-SG48) bitstream: pins, clock and
// reset around board_node. Pin names are those of boards/icebreaker.pcf (after the
// icestorm examples' icebreaker.pcf).
//
//   CLK (12 MHz) -> SB_PLL40_PAD -> clk (PLL_* from icepll, CLK_HZ = the achieved rate)
//   BTN_N        user button: held = reset (also until the PLL locks, and at power-on)
//   TX           UART to the FTDI's second channel (115200 8N1): the node's console
//   FLASH_*      the SPI flash the bitstream came from: the boot ROM reads the firmware
//   LEDR_N/LEDG_N the red and green LEDs (run / exit / boot errors, board_leds)
//   LED1-LED5    the break-off PMOD's LEDs (PMOD 2): link 0-3 up, LED5 heartbeat
//   P1A*, P1B*   PMOD 1A and 1B: the link ports, one PMOD row each, 2 lanes out and 2 in
//                (boards/link-pinout.md: a + port sends on pins 1-2 of its row, a - port
//                receives on pins 7-8 and sends on 9-10)
// The tile's parameters reach board_node through yosys chparam (config.mk's board profile),
// or in simulation from board_params.vh (below).
module board_icebreaker #(
    parameter        CLK_HZ     = 24000000,
    parameter [3:0]  PLL_DIVR   = 4'd0,
    parameter [6:0]  PLL_DIVF   = 7'd63,
    parameter [2:0]  PLL_DIVQ   = 3'd5,
    parameter [2:0]  PLL_FILTER = 3'd1
) (
    input  wire CLK,
    input  wire BTN_N,
    output wire TX,
    output wire LEDR_N,
    output wire LEDG_N,
    output wire LED1,
    output wire LED2,
    output wire LED3,
    output wire LED4,
    output wire LED5,
    output wire FLASH_SCK,
    output wire FLASH_SSB,
    output wire FLASH_IO0,
    input  wire FLASH_IO1,
    output wire P1A1, output wire P1A2, input wire P1A3, input wire P1A4,
    input  wire P1A7, input  wire P1A8, output wire P1A9, output wire P1A10,
    output wire P1B1, output wire P1B2, input wire P1B3, input wire P1B4,
    input  wire P1B7, input  wire P1B8, output wire P1B9, output wire P1B10
);
    wire clk, locked;
    SB_PLL40_PAD #(
        .FEEDBACK_PATH("SIMPLE"),
        .DIVR(PLL_DIVR), .DIVF(PLL_DIVF), .DIVQ(PLL_DIVQ), .FILTER_RANGE(PLL_FILTER)
    ) pll (
        .PACKAGEPIN(CLK), .PLLOUTGLOBAL(clk), .LOCK(locked),
        .RESETB(1'b1), .BYPASS(1'b0)
    );

    // reset: at power-on (the counter starts at 0 in the bitstream), while the PLL has not
    // locked, and while the button is held; released synchronously
    // (every iCE40 flip-flop is 0 after configuration)
    reg [15:0] por = 16'd0;
    reg [1:0]  btn_sync = 2'b00;
    reg        run = 1'b0;
    always @(posedge clk) begin
        btn_sync <= {btn_sync[0], BTN_N};
        if (!locked || !btn_sync[1]) por <= 16'd0;
        else if (!(&por))           por <= por + 16'd1;
        run <= &por;
    end
    wire rst = !run;

    wire       led_red, led_green, led_beat;
    wire [3:0] led_link;
    wire [7:0] link_tx;
    // [2k + lane] of port k
    wire [7:0] link_rx = {P1B8, P1B7, P1B4, P1B3, P1A8, P1A7, P1A4, P1A3};
    assign {P1B10, P1B9, P1B2, P1B1, P1A10, P1A9, P1A2, P1A1} = link_tx;
    // simulation-only observation outputs of board_node
    wire        unused_console_valid, unused_exited, unused_halted;
    wire [7:0]  unused_console_data;
    wire [31:0] unused_boot_status, unused_exit_code;

    // The tile's parameters: yosys's chparam on board_node for the bitstream (boards.mk);
    // a simulation of this top from RTL (tests/boards/tb_board_mesh.v) defines
    // BOARD_NODE_PARAMS and BOOT_HEX and gets the same values from board_params.vh, which
    // boards.mk writes from config.mk's board profile.
    board_node #(
`ifdef BOARD_NODE_PARAMS
`include "board_params.vh"
        .BOOT_INIT(`BOOT_HEX),
`endif
        .CLK_HZ(CLK_HZ)
    ) node (
        .clk(clk), .rst(rst),
        .uart_tx(TX),
        .spi_sck(FLASH_SCK), .spi_cs_n(FLASH_SSB), .spi_mosi(FLASH_IO0), .spi_miso(FLASH_IO1),
        .led_red(led_red), .led_green(led_green), .led_link(led_link), .led_beat(led_beat),
        .link_tx(link_tx), .link_rx(link_rx),
        .console_valid(unused_console_valid), .console_data(unused_console_data),
        .boot_status(unused_boot_status), .exited(unused_exited),
        .exit_code(unused_exit_code), .halted(unused_halted)
    );
    assign LEDR_N = !led_red;
    assign LEDG_N = !led_green;
    assign {LED4, LED3, LED2, LED1} = led_link;
    assign LED5 = led_beat;
endmodule
