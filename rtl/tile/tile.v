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
//   BOOT_BASE .. +BOOT_BYTES-1        (BOOT_BYTES > 0, boards) boot ROM: fetch and loads; a
//                                     store faults. Contents: the $readmemh file BOOT_INIT
//   IO_BASE .. +IO_BYTES-1            (IO_BYTES > 0, boards) the board's devices, on the io_*
//                                     port (same handshake as the core's data bus)
//   anything else                     access fault
// The console store waits while console_ready is low (a board's UART is busy).
// As in node_top, tohost_addr names the word whose store with bit 0 set pulses
// tohost_valid (the store also goes to RAM; DMA writes never pulse it). The NI's interrupt
// drives the core's external interrupt. The NI's engines share the RAM's data port with
// the core (round-robin when both want it, below); the RAM is LINE_WORDS banks wide, so the
// NI moves a line of LINE_WORDS words per access (the core one word of it).
//
// Single-ported memories (RAM_SP_BANKS > 0: a board's SPRAM banks; BOOT_BYTES > 0: the boot
// ROM's one read port). The fetch has no wait input, so it owns the memory it reads; a
// data access (core or NI) to that same memory "steals" it for one cycle: the core's
// pending data request is held (dmem_req_ready low) in that cycle and the next, in which
// the core fetches D's word again (rv32_core re-fetches D's word while it stalls and keeps
// no fetched word while it stalls), and the core's own stolen access is accepted the
// cycle after that: 2 wait states. A core access to the other bank costs nothing. The NI
// can steal the fetch's bank only while the core has a data request to hold (an NI
// buffer in the code bank waits for the core's next load or store): keep code in one
// bank and the data the NI moves in the other (boards/README.md, the board link layout).
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

    // boot ROM and board devices (constant 0 when absent)
    localparam ROM_TOP = (BOOT_BYTES >= 8) ? $clog2(BOOT_BYTES) : 3;  // first address bit above the ROM
    localparam IO_TOP  = (IO_BYTES >= 4) ? $clog2(IO_BYTES) : 2;
    wire imem_in_rom = BOOT_BYTES != 0 && imem_addr[31:ROM_TOP] == BOOT_BASE[31:ROM_TOP] &&
                       imem_addr[1:0] == 2'b00;
    wire dmem_rom    = BOOT_BYTES != 0 && dmem_req_addr[31:ROM_TOP] == BOOT_BASE[31:ROM_TOP];
    wire dmem_io     = IO_BYTES != 0 && dmem_req_addr[31:IO_TOP] == IO_BASE[31:IO_TOP];

    // Memories whose one port the fetch shares (see the header): which one the fetch and a
    // data access use. RAM banks are the top bits of the RAM's word index (B_LO bits below).
    localparam SPB   = (RAM_SP_BANKS >= 4) ? 2 : 1;    // bits of a bank number
    localparam B_LO  = ADDR_BITS - ((RAM_SP_BANKS >= 4) ? 2 : (RAM_SP_BANKS >= 2) ? 1 : 0);
    localparam SP_RAM = RAM_SP_BANKS != 0;
    wire [ADDR_BITS-1:0] f_above = imem_addr[TOP-1:2] >> B_LO;
    wire [ADDR_BITS-1:0] c_above = dmem_req_addr[TOP-1:2] >> B_LO;
    wire [SPB-1:0] f_bank = f_above[SPB-1:0];
    wire [SPB-1:0] c_bank = c_above[SPB-1:0];
    // the last word of the fetch's memory: the next sequential fetch leaves it
    wire [TOP-1:0]     f_word_bits = imem_addr[TOP-1:0];
    wire [ROM_TOP-1:0] f_rom_bits  = imem_addr[ROM_TOP-1:0];
    wire f_last = imem_in_rom ? &f_rom_bits[ROM_TOP-1:2] : &(f_word_bits[TOP-1:2] | ~({ADDR_BITS{1'b1}} >> (ADDR_BITS - B_LO)));
    wire unused_bank_bits = ^{f_above, c_above, f_word_bits[1:0], f_rom_bits[1:0]};
    // Last cycle's fetch, i.e. the memory D's word came from (rv32_core fetches D's pc again
    // whenever it holds, so while the core is held the fetch stays there). Decisions about
    // the core's request use these registered values only (the fetch address depends on
    // dmem_req_ready through the core's stall).
    // far from the other banks: at least 4 KiB from a boundary with another bank, so that a
    // branch or a short jal (offset under 4 KiB) cannot land in another bank (past the
    // RAM's own ends it lands in no memory at all)
    localparam FAR_HI = B_LO + 1;                 // the top byte-address bit inside a bank
    localparam HAS_FAR = SP_RAM && FAR_HI >= 13;  // banks of 16 KiB or more
    localparam FAR_LO = HAS_FAR ? 12 : FAR_HI;
    localparam integer LAST_BANK = RAM_SP_BANKS - 1;
    wire [FAR_HI-FAR_LO:0] f_edge = imem_addr[FAR_HI:FAR_LO];
    wire f_far = HAS_FAR && imem_in_ram && !(!(|f_edge) && f_bank != {SPB{1'b0}}) &&
                 !(&f_edge && f_bank != LAST_BANK[SPB-1:0]);
    reg f_rom_q, f_sp_q, f_last_q, f_far_q;
    reg [SPB-1:0] f_bank_q;
    always @(posedge clk) begin
        f_rom_q  <= imem_in_rom;
        f_sp_q   <= SP_RAM && imem_in_ram;
        f_bank_q <= f_bank;
        f_last_q <= f_last;
        f_far_q  <= f_far;
    end
    // D's word may send the next fetch elsewhere: a jal or a backward branch (predicted
    // taken; the tile does not add the target), unless it is a branch or a short jal far
    // from the edges of its bank; or D's word is the last word of its memory
    wire d_jal       = imem_data[6:0] == 7'b1101111;
    wire d_jump      = d_jal || (imem_data[6:0] == 7'b1100011 && imem_data[31]);
    wire d_short     = !d_jal || &{imem_data[31], imem_data[19:12]} || !(|{imem_data[31], imem_data[19:12]});
    wire may_leave   = f_last_q || (d_jump && !(f_far_q && d_short));

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
    // Single-ported memories: lost_q, last cycle's fetch was stolen (the core is held now and
    // fetches again); stolen_q, the core's request was already done (stolen or held) and is
    // accepted in the next cycle that is not lost_q, its load data kept in steal_data.
    reg                         lost_q, stolen_q, stolen_rom_q, did_q;
    reg  [31:0]                 steal_data;
    wire normal    = !rst && !lost_q && !stolen_q;
    wire [ADDR_BITS-1:0] n_above = {ni_mem_line, {LB{1'b0}}} >> B_LO;
    wire [SPB-1:0] n_bank = n_above[SPB-1:0];
    wire unused_n_bits = ^n_above;
    wire c_port    = normal && dmem_req_valid && dmem_in_ram; // the core wants the RAM port
    // the NI on the bank of D's fetch: only by stealing it, while the core is held
    wire n_on_f    = ni_mem_req && f_sp_q && n_bank == f_bank_q;
    wire contest   = normal && dmem_req_valid && ni_mem_req && (dmem_in_ram || n_on_f);
    always @(posedge clk) begin
        if (rst)          ni_turn <= 1'b0;
        else if (contest) ni_turn <= !ni_turn;
    end
    wire ni_turn_now = ni_mem_req && (ni_turn || !c_port);   // the port is the NI's this cycle
    wire n_steal   = n_on_f && normal && dmem_req_valid && ni_turn;
    // otherwise the NI must miss this cycle's actual fetch (nothing below depends on it)
    wire n_free    = !(SP_RAM && imem_in_ram && n_bank == f_bank);
    wire ni_grant  = !rst && ni_turn_now && (n_steal || n_free);
    // the core's request this cycle (not held by a steal of the NI)
    wire c_go      = normal && dmem_req_valid && !n_steal;
    wire c_ram     = c_go && dmem_in_ram && !ni_turn_now;     // the core has the RAM port
    wire c_rom     = c_go && dmem_rom && !dmem_req_write;     // a load from the boot ROM
    wire c_mem     = c_ram || c_rom;
    // its memory is the one D's word came from: steal (the fetch of this cycle is lost)
    wire c_same    = dmem_rom ? f_rom_q : (f_sp_q && c_bank == f_bank_q);
    wire c_single  = dmem_rom || SP_RAM;                      // a single-ported memory
    wire c_steal   = c_mem && c_same;
    // another memory, but the next fetch may go there: do it while the core is held
    wire c_held    = c_mem && !c_same && c_single && may_leave;
    wire accept_stolen = stolen_q && !lost_q;
    always @(posedge clk) begin
        if (rst) begin
            lost_q   <= 1'b0;
            stolen_q <= 1'b0;
            did_q    <= 1'b0;
        end else begin
            lost_q   <= c_steal || n_steal;
            did_q    <= c_steal || c_held;
            if (c_steal || c_held)  stolen_q <= 1'b1;
            else if (accept_stolen) stolen_q <= 1'b0;
        end
        if (c_steal || c_held) stolen_rom_q <= c_rom;
    end

    wire ni_go  = c_go;   // an NI register or board device access may happen this cycle
    wire dmem_req_ready = accept_stolen ? 1'b1 :
                          !c_go         ? 1'b0 :
                          dmem_ni       ? ni_ready :
                          dmem_io       ? io_req_ready :
                          dmem_in_ram   ? c_ram && !c_steal && !c_held :
                          dmem_rom      ? (dmem_req_write || (!c_steal && !c_held)) :
                          dmem_console  ? console_ready : 1'b1;
    wire dmem_req_error = dmem_ni ? ni_error : dmem_io ? io_req_error :
                          !(dmem_in_ram || dmem_console || dmem_timer || dmem_finisher ||
                            (dmem_rom && !dmem_req_write));
    // nothing is accepted or written during reset: the pipeline's and the engines' state is
    // not yet defined then (a random power-on state would otherwise write RAM)
    wire dmem_accept    = !rst && dmem_req_valid && dmem_req_ready && !dmem_req_error;
    wire irq_timer, irq_ni;

    rv32_core #(.RESET_PC(RESET_PC), .MUL_KIND(MUL_KIND), .DIV_BITS(DIV_BITS),
                .LOAD_BYPASS(LOAD_BYPASS), .FAST_REDIRECT(FAST_REDIRECT),
                .DSP_COUNTERS(DSP_COUNTERS)) core (
        .clk(clk), .rst(rst), .hart_id({16'd0, node_index}),
        .imem_addr(imem_addr), .imem_error(!imem_in_ram && !imem_in_rom), .imem_data(imem_data),
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
    wire core_ram_access = c_ram && (c_steal || c_held || dmem_accept);
    always @(posedge clk) if (core_ram_access) core_pos_q <= core_pos;
    wire [32*LINE_WORDS-1:0] ram_d_line;
    wire [31:0]              ram_d_data = ram_d_line[32 * core_pos_q +: 32];
    wire [31:0]              ram_i_data;
    node_ram #(.WORDS(WORDS), .ADDR_BITS(ADDR_BITS), .LINE_WORDS(LINE_WORDS),
               .SP_BANKS(RAM_SP_BANKS)) ram (
        .clk(clk),
        .i_addr(imem_addr[TOP-1:2]), .i_data(ram_i_data),
        .d_enable(core_ram_access || ni_grant),
        .d_wstrb(ni_grant ? ni_mem_wstrb : core_strb),
        .d_line(ni_grant ? ni_mem_line : core_word[ADDR_BITS-1:LB]),
        .d_wdata(ni_grant ? ni_mem_wdata : {LINE_WORDS{dmem_req_data}}), .d_data(ram_d_line)
    );

    // the boot ROM: one read port, the fetch's unless a load steals it
    wire [31:0] rom_data;
    generate
        if (BOOT_BYTES != 0) begin : boot
            localparam RW = ROM_TOP - 2;
            node_rom #(.WORDS(BOOT_BYTES / 4), .ADDR_BITS(RW), .INIT(BOOT_INIT)) rom (
                .clk(clk),
                .addr(c_rom ? dmem_req_addr[ROM_TOP-1:2] : imem_addr[ROM_TOP-1:2]),
                .data(rom_data)
            );
            assign imem_data = f_rom_q ? rom_data : ram_i_data;
        end else begin : no_boot
            assign rom_data  = 32'd0;
            assign imem_data = ram_i_data;
        end
    endgenerate
    // a stolen load's word, kept until the core accepts it
    always @(posedge clk) if (did_q) steal_data <= stolen_rom_q ? rom_data : ram_d_data;

    // board devices
    assign io_req_valid = dmem_req_valid && dmem_io && c_go;
    assign io_req_addr  = dmem_req_addr;
    assign io_req_write = dmem_req_write;
    assign io_req_wstrb = dmem_req_wstrb;
    assign io_req_data  = dmem_req_data;

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
        .req_valid(dmem_req_valid && dmem_ni && ni_go), .req_ready(ni_ready), .req_error(ni_error),
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
    reg resp_from_ram, resp_from_timer, resp_from_ni, resp_from_rom, resp_from_io, resp_stolen;
    always @(posedge clk) begin
        if (rst) begin
            resp_from_ram   <= 1'b0;
            resp_from_timer <= 1'b0;
            resp_from_ni    <= 1'b0;
            resp_from_rom   <= 1'b0;
            resp_from_io    <= 1'b0;
            resp_stolen     <= 1'b0;
        end else if (dmem_req_valid && dmem_req_ready) begin
            resp_from_ram   <= dmem_in_ram;
            resp_from_timer <= dmem_timer;
            resp_from_ni    <= dmem_ni;
            resp_from_rom   <= dmem_rom;
            resp_from_io    <= dmem_io;
            resp_stolen     <= accept_stolen;
        end
    end
    always @(*)
        dmem_resp_data = resp_stolen ? steal_data : resp_from_ram ? ram_d_data :
                         resp_from_rom ? rom_data : resp_from_timer ? timer_data :
                         resp_from_ni ? ni_data : resp_from_io ? io_resp_data : 32'd0;

    assign console_valid = dmem_accept && dmem_req_write && dmem_console && dmem_req_wstrb[0];
    assign console_data  = dmem_req_data[7:0];

    assign tohost_valid = dmem_accept && dmem_req_write && dmem_in_ram &&
                          {dmem_req_addr[31:2], 2'b00} == tohost_addr &&
                          dmem_req_wstrb[0] && dmem_req_data[0];
    assign tohost_data  = dmem_req_data;
endmodule
