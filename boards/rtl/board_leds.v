// SPDX-License-Identifier: ISC
// board_leds: what the board's LEDs say (boards/README.md, "LEDs"):
//   green steady            firmware running
//   green slow blink (1 Hz) firmware exited with status 0
//   red steady              firmware exited with a non-zero status, or the core halted
//   red blinks n times, pause: the boot ROM refused the image with error n (BOOT_STATUS)
//   green fast blink (4 Hz) boot ROM loading (red/green as the ROM sets LED, too)
//   link LED p              link p has a partner
//   heartbeat               toggles once a second while the clock runs
// TICK_HZ ticks per second from a prescaler of CLK_HZ.
module board_leds #(
    parameter CLK_HZ  = 24000000,
    parameter TICK_HZ = 8,
    parameter PORTS   = 4
) (
    input  wire             clk,
    input  wire             rst,
    input  wire [31:0]      boot_status,
    input  wire [1:0]       led_sw,
    input  wire             exited,
    input  wire             exit_ok,
    input  wire             halted,
    input  wire [PORTS-1:0] link_up,
    output reg              led_red,
    output reg              led_green,
    output wire [PORTS-1:0] led_link,
    output wire             led_beat
);
    localparam DIV = CLK_HZ / TICK_HZ;
    localparam PW  = (DIV <= 2) ? 1 : $clog2(DIV);
    reg [PW-1:0] pre;
    reg [2:0]    ticks;          // 8 ticks = one second at TICK_HZ = 8
    reg [5:0]    step;           // position in the error pattern
    wire tick = pre == {PW{1'b0}};
    wire [4:0] n = boot_status[4:0];             // error number (blinks)
    wire [5:0] period = {n, 1'b0} + 6'd6;       // n blinks of 2 ticks, 6 dark
    always @(posedge clk) begin
        if (rst) begin
            pre   <= DIV[PW-1:0] - 1'b1;
            ticks <= 3'd0;
            step  <= 6'd0;
        end else begin
            pre <= tick ? DIV[PW-1:0] - 1'b1 : pre - 1'b1;
            if (tick) begin
                ticks <= ticks + 3'd1;
                step  <= (step + 6'd1 >= period) ? 6'd0 : step + 6'd1;
            end
        end
    end
    wire booting = boot_status == 32'd0;
    wire running = boot_status == 32'd1;
    wire boot_error = boot_status[31:8] == 24'd1;
    wire unused_status = ^boot_status[7:5];
    always @(*) begin
        if (halted || (exited && !exit_ok)) begin
            led_red = 1'b1;  led_green = 1'b0;
        end else if (exited) begin
            led_red = 1'b0;  led_green = !ticks[2];
        end else if (running) begin
            led_red = 1'b0;  led_green = 1'b1;
        end else if (boot_error) begin
            led_red = step < {n, 1'b0} && !step[0];  led_green = 1'b0;
        end else if (booting) begin
            led_red = led_sw[0];  led_green = led_sw[1] | ticks[0];
        end else begin
            led_red = led_sw[0];  led_green = led_sw[1];
        end
    end
    assign led_link = link_up;
    assign led_beat = ticks[2];
endmodule
