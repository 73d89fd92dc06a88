// tile: one rvmesh node with its network: rv32_core + node_ram + node_timer + tile_ni +
// noc_router. The router's 2*DIMS link ports are the tile's ports; mesh_top wires tiles
// together. Coordinates, sizes and the torus flag are inputs (constants in a mesh) so that
// every tile of a machine is the same module.
//
// Memory map of the core's data bus (byte addresses):
//   RAM_BASE .. RAM_BASE+RAM_BYTES-1  on-chip RAM (code and data), single-cycle
//   CONSOLE_ADDR (one word)           console TX: a store prints its low byte; loads read 0
//   TIMER_BASE .. TIMER_BASE+0xffff   machine timer (node_timer, qemu virt's CLINT layout)
//   NI_BASE .. NI_BASE+0x0fff         network interface registers (rtl/tile/README.md);
//                                     the rest of the 256 MiB region NI_BASE[31:28] faults
//   FINISHER_ADDR (one word)          qemu virt's test finisher, which rvmesh_exit writes after
//                                     tohost: accepted and ignored (loads read 0), so that an
//                                     exited node spins quietly while the others run on
//   anything else                     access fault
// As in node_top, tohost_addr names the word whose store with bit 0 set pulses
// tohost_valid (the store also goes to RAM; DMA writes never pulse it). The NI's interrupt
// drives the core's external interrupt. The NI's engines share the RAM's data port with
// the core (round-robin when both want it, below); the RAM is LINE_WORDS banks wide, so the
// NI moves a line of LINE_WORDS words per access (the core one word of it).
module tile #(
    parameter        DIMS         = 2,
    parameter        FLIT_BITS    = 32,             // the NI supports 32 only
    parameter        BUF_DEPTH    = 4,
    parameter        INJ_DEPTH    = 4,
    parameter        VCS          = 2,
    parameter [31:0] RAM_BASE     = 32'h8000_0000,
    parameter        RAM_BYTES    = 131072,         // a power of two; RAM_BASE a multiple of it
    parameter        LINE_WORDS   = 16,             // words per RAM data-port access (the NI's line)
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
    localparam WORDS     = RAM_BYTES / 4;
    localparam ADDR_BITS = $clog2(WORDS);
    localparam TOP       = ADDR_BITS + 2;   // first address bit above the RAM

    wire [31:0] imem_addr, imem_data;
    wire        dmem_req_valid, dmem_req_write;
    wire [31:0] dmem_req_addr, dmem_req_data;
    wire [3:0]  dmem_req_wstrb;
    reg  [31:0] dmem_resp_data;

    wire imem_in_ram  = imem_addr[31:TOP] == RAM_BASE[31:TOP] && imem_addr[1:0] == 2'b00;
    wire dmem_in_ram  = dmem_req_addr[31:TOP] == RAM_BASE[31:TOP];
    wire dmem_console = {dmem_req_addr[31:2], 2'b00} == CONSOLE_ADDR;
    wire dmem_timer   = dmem_req_addr[31:16] == TIMER_BASE[31:16];
    wire dmem_ni      = dmem_req_addr[31:28] == NI_BASE[31:28];
    wire dmem_finisher = {dmem_req_addr[31:2], 2'b00} == FINISHER_ADDR;
    wire unused_byte_bits = ^dmem_req_addr[1:0];   // lanes come from the strobes

    wire ni_ready, ni_error;
    wire [31:0] ni_data;
    // The RAM's data port is shared by the core and the NI's engines. When both want it in
    // the same cycle they alternate (round-robin of two: ni_turn says who wins the next
    // contested cycle), so neither waits more than one cycle for the other; an uncontested
    // request is served at once. A core request that loses simply waits (dmem_req_ready
    // low); the core's load data is on the RAM's output the cycle after acceptance, before
    // an NI access can change it. The core moves one word of a line (its strobes placed
    // there), the NI whole lines.
    wire                        ni_mem_req;
    wire [ADDR_BITS-LB-1:0]     ni_mem_line;
    wire [4*LINE_WORDS-1:0]     ni_mem_wstrb;
    wire [32*LINE_WORDS-1:0]    ni_mem_wdata;
    reg                         ni_turn;
    wire core_ram  = dmem_req_valid && dmem_in_ram;
    wire ni_grant  = !rst && ni_mem_req && (!core_ram || ni_turn);
    always @(posedge clk) begin
        if (rst)                         ni_turn <= 1'b0;
        else if (core_ram && ni_mem_req) ni_turn <= !ni_turn;
    end
    wire dmem_req_ready = dmem_ni ? ni_ready : !(dmem_in_ram && ni_mem_req && ni_turn);
    wire dmem_req_error = dmem_ni ? ni_error : (!dmem_in_ram && !dmem_console && !dmem_timer && !dmem_finisher);
    // nothing is accepted or written during reset: the pipeline's and the engines' state is
    // not yet defined then (a random power-on state would otherwise write RAM)
    wire dmem_accept    = !rst && dmem_req_valid && dmem_req_ready && !dmem_req_error;
    wire irq_timer, irq_ni;

    rv32_core #(.RESET_PC(RESET_PC), .MUL_KIND(MUL_KIND), .DIV_BITS(DIV_BITS),
                .LOAD_BYPASS(LOAD_BYPASS), .FAST_REDIRECT(FAST_REDIRECT),
                .DSP_COUNTERS(DSP_COUNTERS)) core (
        .clk(clk), .rst(rst), .hart_id({16'd0, node_index}),
        .imem_addr(imem_addr), .imem_error(!imem_in_ram), .imem_data(imem_data),
        .dmem_req_valid(dmem_req_valid), .dmem_req_ready(dmem_req_ready),
        .dmem_req_error(dmem_req_error),
        .dmem_req_addr(dmem_req_addr), .dmem_req_write(dmem_req_write),
        .dmem_req_wstrb(dmem_req_wstrb), .dmem_req_data(dmem_req_data),
        .dmem_resp_data(dmem_resp_data),
        .irq_external(irq_ni), .irq_timer(irq_timer),
        .retire_valid(retire_valid), .retire_pc(retire_pc),
        .trap_valid(trap_valid), .trap_cause(trap_cause), .trap_pc(trap_pc),
        .trap_tval(trap_tval), .halted(halted)
    );

    // the core's word within the line: its strobes and data moved there, its load data
    // picked from there (the word index registered with the access)
    wire [ADDR_BITS-1:0]      core_word = dmem_req_addr[TOP-1:2];
    wire [ADDR_BITS-1:0]      word_mask = LINE_WORDS[ADDR_BITS-1:0] - {{(ADDR_BITS-1){1'b0}}, 1'b1};
    wire [ADDR_BITS-1:0]      core_pos  = core_word & word_mask;
    wire [4*LINE_WORDS-1:0]   core_strb = {{(4*LINE_WORDS-4){1'b0}}, dmem_req_write ? dmem_req_wstrb : 4'b0000}
                                          << (4 * core_pos);
    reg  [ADDR_BITS-1:0]      core_pos_q;
    always @(posedge clk) if (dmem_accept && dmem_in_ram) core_pos_q <= core_pos;
    wire [32*LINE_WORDS-1:0] ram_d_line;
    wire [31:0]              ram_d_data = ram_d_line[32 * core_pos_q +: 32];
    node_ram #(.WORDS(WORDS), .ADDR_BITS(ADDR_BITS), .LINE_WORDS(LINE_WORDS)) ram (
        .clk(clk),
        .i_addr(imem_addr[TOP-1:2]), .i_data(imem_data),
        .d_enable((dmem_accept && dmem_in_ram) || ni_grant),
        .d_wstrb(ni_grant ? ni_mem_wstrb : core_strb),
        .d_line(ni_grant ? ni_mem_line : core_word[ADDR_BITS-1:LB]),
        .d_wdata(ni_grant ? ni_mem_wdata : {LINE_WORDS{dmem_req_data}}), .d_data(ram_d_line)
    );

    wire [31:0] timer_data;
    node_timer timer (
        .clk(clk), .rst(rst),
        .req_valid(dmem_accept && dmem_timer), .req_word(dmem_req_addr[15:2]),
        .req_wstrb(dmem_req_write ? dmem_req_wstrb : 4'b0000), .req_data(dmem_req_data),
        .resp_data(timer_data), .irq_timer(irq_timer)
    );

    // router <-> NI
    wire [P-1:0]           inj_valid, inj_ready, inj_last, inj_error;
    wire [P*FLIT_BITS-1:0] inj_data;
    wire [P-1:0]           ej_valid, ej_ready, ej_last;
    wire [P*FLIT_BITS-1:0] ej_data;
    wire [15:0]            err_count;
    wire [P*(VCS+1)-1:0]   buf_nonempty;

    tile_ni #(.DIMS(DIMS), .FLIT_BITS(FLIT_BITS), .INJ_DEPTH(INJ_DEPTH), .VCS(VCS),
              .RAM_BASE(RAM_BASE), .RAM_BYTES(RAM_BYTES), .LINE_WORDS(LINE_WORDS)) ni (
        .clk(clk), .rst(rst),
        .my_coord(my_coord), .dim_size(dim_size), .torus(torus),
        .node_index(node_index), .node_count(node_count),
        .req_valid(dmem_req_valid && dmem_ni), .req_ready(ni_ready), .req_error(ni_error),
        .req_offset(dmem_req_addr[11:0]), .req_in_window(dmem_req_addr[27:12] == 16'd0),
        .req_write(dmem_req_write), .req_wstrb(dmem_req_wstrb), .req_data(dmem_req_data),
        .resp_data(ni_data), .irq(irq_ni),
        .mem_req(ni_mem_req), .mem_line(ni_mem_line),
        .mem_wstrb(ni_mem_wstrb), .mem_wdata(ni_mem_wdata), .mem_grant(ni_grant),
        .mem_rdata(ram_d_line),
        .inj_valid(inj_valid), .inj_ready(inj_ready), .inj_data(inj_data),
        .inj_last(inj_last), .inj_error(inj_error),
        .ej_valid(ej_valid), .ej_ready(ej_ready), .ej_data(ej_data), .ej_last(ej_last),
        .err_count(err_count), .buf_nonempty(buf_nonempty)
    );

    noc_router #(
        .DIMS(DIMS), .FLIT_BITS(FLIT_BITS), .BUF_DEPTH(BUF_DEPTH), .INJ_DEPTH(INJ_DEPTH),
        .ERR_BITS(16), .VCS(VCS)
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

    // load data: from the device that accepted last cycle's request
    reg resp_from_ram, resp_from_timer, resp_from_ni;
    always @(posedge clk) begin
        if (rst) begin
            resp_from_ram   <= 1'b0;
            resp_from_timer <= 1'b0;
            resp_from_ni    <= 1'b0;
        end else if (dmem_req_valid && dmem_req_ready) begin
            resp_from_ram   <= dmem_in_ram;
            resp_from_timer <= dmem_timer;
            resp_from_ni    <= dmem_ni;
        end
    end
    always @(*)
        dmem_resp_data = resp_from_ram ? ram_d_data : resp_from_timer ? timer_data :
                         resp_from_ni ? ni_data : 32'd0;

    assign console_valid = dmem_accept && dmem_req_write && dmem_console && dmem_req_wstrb[0];
    assign console_data  = dmem_req_data[7:0];

    assign tohost_valid = dmem_accept && dmem_req_write && dmem_in_ram &&
                          {dmem_req_addr[31:2], 2'b00} == tohost_addr &&
                          dmem_req_wstrb[0] && dmem_req_data[0];
    assign tohost_data  = dmem_req_data;
endmodule
