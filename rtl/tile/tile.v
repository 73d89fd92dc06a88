// SPDX-License-Identifier: ISC
// tile: one rvmesh node with its network: rv32_core + node_ram + node_timer + tile_ni +
// noc_router. The router's 2*DIMS link ports are the tile's ports; mesh_top wires tiles
// together. Coordinates, sizes and the torus flag are inputs (constants in a mesh) so that
// every tile of a machine is the same module.
//
// The core, its RAM, timer and boot ROM, the data-bus decode, the console, tohost and the
// sharing of the RAM's data port are node_core's (rtl/core/node_core.v, the glue node_top
// shares; its header has the memory map and the single-ported memories' rules). The tile
// turns on node_core's NI region (NI_BASE .. NI_BASE+0x0fff: the NI's registers,
// rtl/tile/README.md; the rest of the 256 MiB region NI_BASE[31:28] faults) and its
// FINISHER_ADDR (qemu virt's test finisher, which rvmesh_exit writes after tohost: accepted
// and ignored, so that an exited node spins quietly while the others run on), and puts
// the NI's DMA engines on the RAM's line port (the RAM is LINE_WORDS banks wide: the NI
// moves a line of LINE_WORDS words per access, the core one word of it). The NI's
// interrupt drives the core's external interrupt. The io_* port carries the board's
// devices (IO_BYTES > 0); console_ready holds a console store while a board's UART is busy.
module tile #(
    parameter        DIMS         = 2,
    parameter        FLIT_BITS    = 32,             // the NI supports 32 only
    parameter        BUF_DEPTH    = 4,
    parameter        INJ_DEPTH    = 4,
    parameter        VCS          = 2,
    // the router's shape beyond its sizes (rtl/noc/noc_router.v; config.mk's ROUTER_BOARD_*
    // are a board's: buffers in block RAM, injection j to link j only, registered route)
    parameter        BUF_RAM      = 0,
    parameter        INJ_ANY_PORT = 1,
    parameter        PIPELINE     = 0,
    parameter        SIDE_BITS    = 7,
    parameter [31:0] RAM_BASE     = 32'h8000_0000,
    parameter        RAM_BYTES    = 131072,         // a power of two; RAM_BASE a multiple of it
    parameter        LINE_WORDS   = 16,             // words per RAM data-port access (the NI's line)
    parameter        COMBINE      = 0,              // the NI combines puts (kinds 2-9) at the RAM port
    parameter [31:0] RESET_PC     = RAM_BASE,
    parameter [31:0] CONSOLE_ADDR = 32'h1000_0000,
    parameter [31:0] TIMER_BASE   = 32'h0200_0000,  // 64 KiB aligned
    parameter [31:0] NI_BASE      = 32'h2000_0000,  // 256 MiB aligned
    parameter [31:0] FINISHER_ADDR = 32'h0010_0000, // qemu virt test finisher: stores ignored
    // rv32_core's configuration (rtl/core/README.md)
    parameter        MUL_KIND     = 1,
    parameter        DIV_BITS     = 4,
    parameter        LOAD_BYPASS  = 1,
    parameter        FAST_REDIRECT = 1,
    parameter        DSP_COUNTERS = 0,
    parameter        RAM_SP_BANKS = 0,              // 0: dual-ported RAM; 2: two single-ported banks (SPRAM)
    parameter [31:0] BOOT_BASE    = 32'h0000_1000,  // boot ROM (a multiple of BOOT_BYTES)
    parameter        BOOT_BYTES   = 0,              // 0: none; else a power of two
    parameter        BOOT_INIT    = "",             // its contents ($readmemh, a word per line)
    parameter [31:0] IO_BASE      = 32'h0300_0000,  // board devices (a multiple of IO_BYTES)
    parameter        IO_BYTES     = 0,              // 0: none; else a power of two >= 4
    parameter        VC_BITS      = (VCS <= 2) ? 1 : (VCS <= 4) ? 2 : 3,  // derived: do not set
    parameter        LB           = (LINE_WORDS <= 1) ? 0 : $clog2(LINE_WORDS)  // derived
) (
    input  wire                        clk,
    input  wire                        rst,
    input  wire [23:0]                 my_coord,     // 8 bits per dimension, x in [7:0]
    input  wire [23:0]                 dim_size,     // 8 bits per dimension
    input  wire                        torus,
    input  wire [15:0]                 node_index,   // x + X*(y + Y*z); also mhartid
    input  wire [15:0]                 node_count,
    input  wire [31:0]                 tohost_addr,
    input  wire                        console_ready, // the console takes a byte now (1 in simulation)
    input  wire                        stop,          // 1: the core stops at its next load/store (mesh-sim --stop-node)
    // board devices (IO_BYTES > 0): a request of the core's data bus inside the IO window
    output wire                        io_req_valid,
    input  wire                        io_req_ready,
    input  wire                        io_req_error,
    output wire [31:0]                 io_req_addr,   // the full byte address
    output wire                        io_req_write,
    output wire [3:0]                  io_req_wstrb,
    output wire [31:0]                 io_req_data,
    input  wire [31:0]                 io_resp_data,  // the cycle after acceptance
    // network links (the router's, port k = 2*d + s)
    input  wire [2*DIMS-1:0]           lin_valid,
    input  wire [2*DIMS*VC_BITS-1:0]   lin_vc,
    input  wire [2*DIMS-1:0]           lin_last,
    input  wire [2*DIMS*FLIT_BITS-1:0] lin_data,
    output wire [2*DIMS*VCS-1:0]       lin_credit,
    output wire [2*DIMS-1:0]           lout_valid,
    output wire [2*DIMS*VC_BITS-1:0]   lout_vc,
    output wire [2*DIMS-1:0]           lout_last,
    output wire [2*DIMS*FLIT_BITS-1:0] lout_data,
    input  wire [2*DIMS*VCS-1:0]       lout_credit,
    // the links' counters as the surroundings count them, read by the NI (LINK_STATUS(p)):
    // per port p, [15:0] errors detected on input link p, [31:16] flits resent on output
    // link p; 0 where the links have no protection
    input  wire [2*DIMS*32-1:0]        link_status,
    // observation
    output wire                        console_valid,
    output wire [7:0]                  console_data,
    output wire                        tohost_valid,
    output wire [31:0]                 tohost_data,
    output wire                        retire_valid,
    output wire [31:0]                 retire_pc,
    output wire                        trap_valid,
    output wire [31:0]                 trap_cause,
    output wire [31:0]                 trap_pc,
    output wire [31:0]                 trap_tval,
    output wire                        halted
);
    localparam P         = 2 * DIMS;
    localparam ADDR_BITS = $clog2(RAM_BYTES / 4);

    // the core, its memories, timer and bus decode: node_core (rtl/core/node_core.v, shared
    // with node_top); the NI is its NI-register device and its RAM line master
    wire [31:0]              bus_addr, bus_data;
    wire                     bus_write;
    wire [3:0]               bus_wstrb;
    wire                     ni_req_valid, ni_ready, ni_error, irq_ni;
    wire [31:0]              ni_data;
    wire                     ni_mem_req, ni_grant;
    wire [ADDR_BITS-LB-1:0]  ni_mem_line;
    wire [4*LINE_WORDS-1:0]  ni_mem_wstrb;
    wire [32*LINE_WORDS-1:0] ni_mem_wdata, ram_d_line;

    node_core #(.RAM_BASE(RAM_BASE), .RAM_BYTES(RAM_BYTES), .LINE_WORDS(LINE_WORDS),
                .RESET_PC(RESET_PC), .CONSOLE_ADDR(CONSOLE_ADDR), .TIMER_BASE(TIMER_BASE),
                .HAS_NI(1), .NI_BASE(NI_BASE), .HAS_FINISHER(1), .FINISHER_ADDR(FINISHER_ADDR),
                .MUL_KIND(MUL_KIND), .DIV_BITS(DIV_BITS), .LOAD_BYPASS(LOAD_BYPASS),
                .FAST_REDIRECT(FAST_REDIRECT), .DSP_COUNTERS(DSP_COUNTERS),
                .RAM_SP_BANKS(RAM_SP_BANKS), .BOOT_BASE(BOOT_BASE), .BOOT_BYTES(BOOT_BYTES),
                .BOOT_INIT(BOOT_INIT), .IO_BASE(IO_BASE), .IO_BYTES(IO_BYTES)) glue (
        .clk(clk), .rst(rst), .hart_id({16'd0, node_index}), .tohost_addr(tohost_addr), .hold(stop),
        .irq_external(irq_ni), .console_ready(console_ready),
        .bus_addr(bus_addr), .bus_write(bus_write), .bus_wstrb(bus_wstrb), .bus_data(bus_data),
        .ni_req_valid(ni_req_valid), .ni_req_ready(ni_ready), .ni_req_error(ni_error),
        .ni_resp_data(ni_data),
        .io_req_valid(io_req_valid), .io_req_ready(io_req_ready), .io_req_error(io_req_error),
        .io_resp_data(io_resp_data),
        .line_req(ni_mem_req), .line_index(ni_mem_line), .line_wstrb(ni_mem_wstrb),
        .line_wdata(ni_mem_wdata), .line_grant(ni_grant), .line_rdata(ram_d_line),
        .console_valid(console_valid), .console_data(console_data),
        .tohost_valid(tohost_valid), .tohost_data(tohost_data),
        .retire_valid(retire_valid), .retire_pc(retire_pc),
        .trap_valid(trap_valid), .trap_cause(trap_cause), .trap_pc(trap_pc),
        .trap_tval(trap_tval), .halted(halted)
    );

    // board devices: the core's request
    assign io_req_addr  = bus_addr;
    assign io_req_write = bus_write;
    assign io_req_wstrb = bus_wstrb;
    assign io_req_data  = bus_data;

    // router <-> NI
    wire [P-1:0]           inj_valid, inj_ready, inj_last, inj_error;
    wire [P*FLIT_BITS-1:0] inj_data;
    wire [P-1:0]           ej_valid, ej_ready, ej_last;
    wire [P*FLIT_BITS-1:0] ej_data;
    wire [15:0]            err_count;
    wire [P*(VCS+1)-1:0]   buf_nonempty;

    tile_ni #(.DIMS(DIMS), .FLIT_BITS(FLIT_BITS), .INJ_DEPTH(INJ_DEPTH), .VCS(VCS),
              .RAM_BASE(RAM_BASE), .RAM_BYTES(RAM_BYTES), .LINE_WORDS(LINE_WORDS),
              .COMBINE(COMBINE)) ni (
        .clk(clk), .rst(rst),
        .my_coord(my_coord), .dim_size(dim_size), .torus(torus),
        .node_index(node_index), .node_count(node_count),
        .req_valid(ni_req_valid), .req_ready(ni_ready), .req_error(ni_error),
        .req_offset(bus_addr[11:0]), .req_in_window(bus_addr[27:12] == 16'd0),
        .req_write(bus_write), .req_wstrb(bus_wstrb), .req_data(bus_data),
        .resp_data(ni_data), .irq(irq_ni),
        .mem_req(ni_mem_req), .mem_line(ni_mem_line),
        .mem_wstrb(ni_mem_wstrb), .mem_wdata(ni_mem_wdata), .mem_grant(ni_grant),
        .mem_rdata(ram_d_line),
        .inj_valid(inj_valid), .inj_ready(inj_ready), .inj_data(inj_data),
        .inj_last(inj_last), .inj_error(inj_error),
        .ej_valid(ej_valid), .ej_ready(ej_ready), .ej_data(ej_data), .ej_last(ej_last),
        .err_count(err_count), .buf_nonempty(buf_nonempty), .link_status(link_status)
    );

    noc_router #(
        .DIMS(DIMS), .FLIT_BITS(FLIT_BITS), .BUF_DEPTH(BUF_DEPTH), .INJ_DEPTH(INJ_DEPTH),
        .ERR_BITS(16), .VCS(VCS), .BUF_RAM(BUF_RAM), .INJ_ANY_PORT(INJ_ANY_PORT),
        .PIPELINE(PIPELINE), .SIDE_BITS(SIDE_BITS)
    ) router (
        .clk(clk), .rst(rst),
        .my_coord(my_coord), .dim_size(dim_size), .torus(torus),
        .inj_check_enable(1'b1),
        .lin_valid(lin_valid), .lin_vc(lin_vc), .lin_last(lin_last), .lin_data(lin_data),
        .lin_credit(lin_credit),
        .lout_valid(lout_valid), .lout_vc(lout_vc), .lout_last(lout_last),
        .lout_data(lout_data), .lout_credit(lout_credit),
        .inj_valid(inj_valid), .inj_ready(inj_ready), .inj_data(inj_data),
        .inj_last(inj_last), .inj_error(inj_error),
        .ej_valid(ej_valid), .ej_ready(ej_ready), .ej_data(ej_data), .ej_last(ej_last),
        .err_count(err_count), .buf_nonempty(buf_nonempty)
    );
endmodule
