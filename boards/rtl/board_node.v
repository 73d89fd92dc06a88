// SPDX-License-Identifier: ISC
// board_node: one rvmesh node as a board runs it, without the board's pins and clock
// (board_<name>.v adds those): the tile (core + node RAM + NI + router, rtl/tile/tile.v)
// with the board's memory (RAM_SP_BANKS single-ported banks, e.g. the UP5K's SPRAM), its
// boot ROM (BOOT_INIT, built from boards/boot/), its devices (board_io: SPI flash, node
// identity, LEDs, status; the console word -> board_uart_tx) and its links.
//
// The tile's parameters are this module's (the board profile in config.mk sets them: yosys
// chparam / verilator -G on board_node). The node's coordinates and the machine's shape
// are not parameters: the boot ROM writes them from the flash image into board_io, which
// drives the tile's inputs, so one bitstream serves every board of a machine.
//
// Links: port k = 2*d + s of the router. With LINK_PHY = 0 (no PHY built in) each
// output link k is wired back into input link k^1 of the same tile (as mesh_top wires a
// neighbour), which keeps the router's link logic in the design (so resource counts are
// honest) while no flit ever leaves the board: link_up stays 0 and the link pins idle. The
// loop is open only in a machine of one node (NODE_INDEX count 1), where the router sends
// nothing on any link; in a larger machine a worm for another node waits at its link for
// credits that never come (no wrong delivery; the collectives' timeout reports it).
// With LINK_PHY = 1 every port gets a link_phy (rtl/link/link_phy.v): its flit/credit side
// on the router's link, its serial side on LINK_TX_PINS output and LINK_RX_PINS input
// pins (equal: the PHY's lanes) of the port's PMOD row (boards/link-pinout.md), link_up;
// LINK_RETRY is its RETRY (config.mk's LINK_RETRY: 1 go-back-N retry, 0 fail-stop). Its
// err_count and retry_count are not read yet (for the NI's status registers).
module board_node #(
    parameter        DIMS         = 2,
    parameter        FLIT_BITS    = 32,
    parameter        BUF_DEPTH    = 4,
    parameter        INJ_DEPTH    = 4,
    parameter        VCS          = 2,
    parameter        BUF_RAM      = 0,      // the router's (tile.v); config.mk ROUTER_BOARD_*
    parameter        INJ_ANY_PORT = 1,
    parameter        PIPELINE     = 0,
    parameter        SIDE_BITS    = 7,
    parameter [31:0] RAM_BASE     = 32'h8000_0000,
    parameter        RAM_BYTES    = 131072,
    parameter        LINE_WORDS   = 1,
    parameter        COMBINE      = 0,      // the NI combines puts (config.mk NI_BOARD_COMBINE)
    // rv32_core's configuration (rtl/core/README.md; config.mk's CORE_BOARD_* through the
    // board profile's BOARD_TILE_PARAMS)
    parameter        MUL_KIND     = 2,
    parameter        DIV_BITS     = 1,
    parameter        LOAD_BYPASS  = 0,
    parameter        FAST_REDIRECT = 0,
    parameter        DSP_COUNTERS = 1,
    parameter        RAM_SP_BANKS = 2,
    parameter        BOOT_BYTES   = 2048,
    parameter        BOOT_INIT    = "",
    parameter        CLK_HZ       = 24000000,
    parameter        BAUD         = 115200,
    parameter        SPI_HALF     = 1,
    parameter        TICK_HZ      = 8,
    parameter        LINK_PHY     = 0,
    parameter        LINK_RETRY   = 1,
    parameter        LINK_TX_PINS = 2,
    parameter        LINK_RX_PINS = 2,
    parameter        LINK_TAG_RAM = 1,      // link_phy's TAG_RAM: the queue's {last, vc} in a block RAM
    parameter        P            = 2 * DIMS,                             // derived
    parameter        VC_BITS      = (VCS <= 2) ? 1 : (VCS <= 4) ? 2 : 3   // derived
) (
    input  wire                       clk,
    input  wire                       rst,
    output wire                       uart_tx,
    output wire                       spi_sck,
    output wire                       spi_cs_n,
    output wire                       spi_mosi,
    input  wire                       spi_miso,
    output wire                       led_red,
    output wire                       led_green,
    output wire [P-1:0]               led_link,
    output wire                       led_beat,
    output wire [P*LINK_TX_PINS-1:0]  link_tx,
    input  wire [P*LINK_RX_PINS-1:0]  link_rx,
    // observation (simulation; not pins)
    output wire                       console_valid,
    output wire [7:0]                 console_data,
    output wire [31:0]                boot_status,
    output reg                        exited,
    output reg  [31:0]                exit_code,
    output wire                       halted
);
    localparam [31:0] BOOT_BASE = 32'h0000_1000;
    localparam [31:0] IO_BASE   = 32'h0300_0000;
    localparam        IO_BYTES  = 256;

    wire [23:0] my_coord, dim_size;
    wire        torus;
    wire [15:0] node_index, node_count;
    wire [31:0] tohost_addr;
    wire        io_req_valid, io_req_ready, io_req_error, io_req_write;
    wire [31:0] io_req_addr, io_req_data, io_resp_data;
    wire [3:0]  io_req_wstrb;
    wire        uart_ready;
    wire        tohost_valid;
    wire [31:0] tohost_data;   // (status << 1) | 1

    wire [P-1:0]           lin_valid, lin_last, lout_valid, lout_last;
    wire [P*VC_BITS-1:0]   lin_vc, lout_vc;
    wire [P*FLIT_BITS-1:0] lin_data, lout_data;
    wire [P*VCS-1:0]       lin_credit, lout_credit;
    wire [P-1:0]           link_up;
    wire [P*32-1:0]        link_status;   // the PHYs' counters, read by the NI (LINK_STATUS)

    // observation outputs of the tile that a board does not use
    wire        unused_retire_valid, unused_trap_valid;
    wire [31:0] unused_retire_pc, unused_trap_cause, unused_trap_pc, unused_trap_tval;
    wire        unused_tohost_flag = tohost_data[0];   // 1 by definition of tohost_valid

    tile #(
        .DIMS(DIMS), .FLIT_BITS(FLIT_BITS), .BUF_DEPTH(BUF_DEPTH), .INJ_DEPTH(INJ_DEPTH),
        .VCS(VCS), .BUF_RAM(BUF_RAM), .INJ_ANY_PORT(INJ_ANY_PORT), .PIPELINE(PIPELINE),
        .SIDE_BITS(SIDE_BITS), .RAM_BASE(RAM_BASE), .RAM_BYTES(RAM_BYTES), .LINE_WORDS(LINE_WORDS),
        .COMBINE(COMBINE),
        .RESET_PC(BOOT_BASE), .MUL_KIND(MUL_KIND), .DIV_BITS(DIV_BITS),
        .LOAD_BYPASS(LOAD_BYPASS), .FAST_REDIRECT(FAST_REDIRECT), .DSP_COUNTERS(DSP_COUNTERS),
        .RAM_SP_BANKS(RAM_SP_BANKS), .BOOT_BASE(BOOT_BASE), .BOOT_BYTES(BOOT_BYTES),
        .BOOT_INIT(BOOT_INIT), .IO_BASE(IO_BASE), .IO_BYTES(IO_BYTES)
    ) tile (
        .clk(clk), .rst(rst),
        .my_coord(my_coord), .dim_size(dim_size), .torus(torus),
        .node_index(node_index), .node_count(node_count), .tohost_addr(tohost_addr),
        .console_ready(uart_ready), .stop(1'b0),
        .io_req_valid(io_req_valid), .io_req_ready(io_req_ready), .io_req_error(io_req_error),
        .io_req_addr(io_req_addr), .io_req_write(io_req_write), .io_req_wstrb(io_req_wstrb),
        .io_req_data(io_req_data), .io_resp_data(io_resp_data),
        .lin_valid(lin_valid), .lin_vc(lin_vc), .lin_last(lin_last), .lin_data(lin_data),
        .lin_credit(lin_credit),
        .lout_valid(lout_valid), .lout_vc(lout_vc), .lout_last(lout_last),
        .lout_data(lout_data), .lout_credit(lout_credit), .link_status(link_status),
        .console_valid(console_valid), .console_data(console_data),
        .tohost_valid(tohost_valid), .tohost_data(tohost_data),
        .retire_valid(unused_retire_valid), .retire_pc(unused_retire_pc),
        .trap_valid(unused_trap_valid), .trap_cause(unused_trap_cause),
        .trap_pc(unused_trap_pc), .trap_tval(unused_trap_tval), .halted(halted)
    );

    always @(posedge clk) begin
        if (rst) begin
            exited    <= 1'b0;
            exit_code <= 32'd0;
        end else if (tohost_valid && !exited) begin
            exited    <= 1'b1;
            exit_code <= {1'b0, tohost_data[31:1]};
        end
    end

    board_uart_tx #(.DIV((CLK_HZ + BAUD / 2) / BAUD)) uart (
        .clk(clk), .rst(rst), .valid(console_valid), .ready(uart_ready),
        .data(console_data), .tx(uart_tx)
    );

    wire [1:0] led_sw;
    board_io #(.CLK_HZ(CLK_HZ), .PORTS(P), .HAVE_PHY(LINK_PHY), .SPI_HALF(SPI_HALF)) io (
        .clk(clk), .rst(rst),
        .req_valid(io_req_valid), .req_ready(io_req_ready), .req_error(io_req_error),
        .req_addr(io_req_addr), .req_write(io_req_write), .req_wstrb(io_req_wstrb),
        .req_data(io_req_data), .resp_data(io_resp_data),
        .my_coord(my_coord), .dim_size(dim_size), .torus(torus),
        .node_index(node_index), .node_count(node_count), .tohost_addr(tohost_addr),
        .boot_status(boot_status), .led_sw(led_sw), .link_up(link_up),
        .exited(exited), .halted(halted), .exit_code(exit_code),
        .spi_sck(spi_sck), .spi_cs_n(spi_cs_n), .spi_mosi(spi_mosi), .spi_miso(spi_miso)
    );

    board_leds #(.CLK_HZ(CLK_HZ), .TICK_HZ(TICK_HZ), .PORTS(P)) leds (
        .clk(clk), .rst(rst), .boot_status(boot_status), .led_sw(led_sw),
        .exited(exited), .exit_ok(exit_code == 32'd0), .halted(halted), .link_up(link_up),
        .led_red(led_red), .led_green(led_green), .led_link(led_link), .led_beat(led_beat)
    );

    genvar k;
    generate
        if (LINK_PHY != 0) begin : phy
            // ---- one link_phy per port (rtl/link/link_phy.v): LINK_TX_PINS lanes out and
            // LINK_RX_PINS lanes in (equal: the PHY's LANES), pins as boards/link-pinout.md
            wire [P-1:0] link_fault;
            for (k = 0; k < P; k = k + 1) begin : port
                wire [1:0] unused_cause;
                wire [15:0] err_count, retry_count;      // the NI's LINK_STATUS(k)
                link_phy #(.FLIT_BITS(FLIT_BITS), .VCS(VCS), .BUF_DEPTH(BUF_DEPTH),
                           .LANES(LINK_TX_PINS), .TAG_RAM(LINK_TAG_RAM), .RETRY(LINK_RETRY)) phy (
                    .clk(clk), .rst(rst),
                    // the router's output link k goes out, its credits come back ...
                    .lout_valid(lout_valid[k]), .lout_vc(lout_vc[k*VC_BITS +: VC_BITS]),
                    .lout_last(lout_last[k]), .lout_data(lout_data[k*FLIT_BITS +: FLIT_BITS]),
                    .lout_credit(lout_credit[k*VCS +: VCS]),
                    // ... and the partner's flits come in as input link k
                    .lin_valid(lin_valid[k]), .lin_vc(lin_vc[k*VC_BITS +: VC_BITS]),
                    .lin_last(lin_last[k]), .lin_data(lin_data[k*FLIT_BITS +: FLIT_BITS]),
                    .lin_credit(lin_credit[k*VCS +: VCS]),
                    .tx_pin(link_tx[k*LINK_TX_PINS +: LINK_TX_PINS]),
                    .rx_pin(link_rx[k*LINK_RX_PINS +: LINK_RX_PINS]),
                    .link_up(link_up[k]), .link_fault(link_fault[k]), .fault_cause(unused_cause),
                    .err_count(err_count), .retry_count(retry_count)
                );
                assign link_status[k*32 +: 32] = {retry_count, err_count};
            end
            wire unused_fault = |link_fault;   // (a fault's tile reset: not yet, see README)
        end else begin : loopback
            // no PHY (LINK_PHY = 0): output link k -> input link k^1, here
            wire loop_on = node_count == 16'd1;
            for (k = 0; k < P; k = k + 1) begin : port
                assign lin_valid[k ^ 1]                       = lout_valid[k] && loop_on;
                assign lin_vc[(k ^ 1)*VC_BITS +: VC_BITS]     = lout_vc[k*VC_BITS +: VC_BITS];
                assign lin_last[k ^ 1]                        = lout_last[k];
                assign lin_data[(k ^ 1)*FLIT_BITS +: FLIT_BITS] = lout_data[k*FLIT_BITS +: FLIT_BITS];
                assign lout_credit[k*VCS +: VCS]              = lin_credit[(k ^ 1)*VCS +: VCS] & {VCS{loop_on}};
            end
            assign link_up = {P{1'b0}};
            assign link_status = {(P*32){1'b0}};
            assign link_tx = {(P*LINK_TX_PINS){1'b0}};
            wire unused_link_rx = ^link_rx;
        end
    endgenerate
endmodule
