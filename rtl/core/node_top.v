// SPDX-License-Identifier: ISC
// node_top: one rvmesh node without network: core + RAM + timer + console + tohost
// detection, i.e. node_core (rtl/core/node_core.v, the glue tile.v shares) with nothing on
// its NI, board-device and line ports.
//
// Memory map (byte addresses):
//   RAM_BASE .. RAM_BASE+RAM_BYTES-1  on-chip RAM (code and data), single-cycle
//   CONSOLE_ADDR (one word)           console TX: a store prints its low byte; loads read 0
//   TIMER_BASE .. TIMER_BASE+0xffff   machine timer (node_timer: mtime, mtimecmp as in
//                                     qemu virt's CLINT); drives the core's timer interrupt
//   anything else                     access fault (0x20000000.. is kept for the NI)
// tohost_addr names the word the simulator watches (the ELF symbol `tohost`): a store to
// it with bit 0 set pulses tohost_valid with the stored word in tohost_data.
module node_top #(
    parameter [31:0] RAM_BASE     = 32'h8000_0000,
    parameter        RAM_BYTES    = 65536,          // a power of two; RAM_BASE a multiple of it
    parameter [31:0] RESET_PC     = RAM_BASE,
    parameter [31:0] CONSOLE_ADDR = 32'h1000_0000,
    parameter [31:0] TIMER_BASE   = 32'h0200_0000,  // 64 KiB aligned
    parameter [31:0] HART_ID      = 32'd0,
    // rv32_core's configuration (see rtl/core/README.md)
    parameter        MUL_KIND      = 1,             // 1 single-cycle, 2 DSP, 0 iterative
    parameter        DIV_BITS      = 4,             // quotient bits per divider step
    parameter        LOAD_BYPASS   = 1,             // load data forwarded in W
    parameter        FAST_REDIRECT = 1,             // redirects fetch in the same cycle
    parameter        DSP_COUNTERS  = 0,             // mcycle/minstret in DSP blocks
    // test builds only: 1 makes the data bus insert pseudo-random wait states (an LFSR
    // holds dmem_req_ready low on about one cycle in four), exercising the core's stalls
    parameter        BUS_WAIT_TEST = 0
) (
    input  wire        clk,
    input  wire        rst,
    input  wire [31:0] tohost_addr,
    input  wire        irq_external,
    output wire        console_valid,   // a character is written this cycle
    output wire [7:0]  console_data,
    output wire        tohost_valid,    // the program ends this cycle
    output wire [31:0] tohost_data,
    output wire        retire_valid,
    output wire [31:0] retire_pc,
    output wire        trap_valid,
    output wire [31:0] trap_cause,
    output wire [31:0] trap_pc,
    output wire [31:0] trap_tval,
    output wire        halted
);
    // the node is node_core (rtl/core/node_core.v, shared with rtl/tile/tile.v) without its
    // NI, finisher, boot ROM and board devices: those requests fault, their ports idle
    wire [31:0] bus_addr, bus_data;
    wire        bus_write, ni_req_valid, io_req_valid, line_grant;
    wire [3:0]  bus_wstrb;
    wire [31:0] line_rdata;
    wire unused_ports = ^{bus_addr, bus_data, bus_write, bus_wstrb, ni_req_valid, io_req_valid,
                          line_grant, line_rdata};
    localparam ADDR_BITS = $clog2(RAM_BYTES / 4);

    node_core #(.RAM_BASE(RAM_BASE), .RAM_BYTES(RAM_BYTES), .RESET_PC(RESET_PC),
                .CONSOLE_ADDR(CONSOLE_ADDR), .TIMER_BASE(TIMER_BASE),
                .MUL_KIND(MUL_KIND), .DIV_BITS(DIV_BITS), .LOAD_BYPASS(LOAD_BYPASS),
                .FAST_REDIRECT(FAST_REDIRECT), .DSP_COUNTERS(DSP_COUNTERS),
                .BUS_WAIT_TEST(BUS_WAIT_TEST)) glue (
        .clk(clk), .rst(rst), .hart_id(HART_ID), .tohost_addr(tohost_addr), .hold(1'b0),
        .irq_external(irq_external), .console_ready(1'b1),
        .bus_addr(bus_addr), .bus_write(bus_write), .bus_wstrb(bus_wstrb), .bus_data(bus_data),
        .ni_req_valid(ni_req_valid), .ni_req_ready(1'b0), .ni_req_error(1'b1), .ni_resp_data(32'd0),
        .io_req_valid(io_req_valid), .io_req_ready(1'b0), .io_req_error(1'b1), .io_resp_data(32'd0),
        .line_req(1'b0), .line_index({ADDR_BITS{1'b0}}), .line_wstrb(4'b0000), .line_wdata(32'd0),
        .line_grant(line_grant), .line_rdata(line_rdata),
        .console_valid(console_valid), .console_data(console_data),
        .tohost_valid(tohost_valid), .tohost_data(tohost_data),
        .retire_valid(retire_valid), .retire_pc(retire_pc),
        .trap_valid(trap_valid), .trap_cause(trap_cause), .trap_pc(trap_pc),
        .trap_tval(trap_tval), .halted(halted)
    );
endmodule
