// SPDX-License-Identifier: ISC
// node_core: what every rvmesh node is built around, written once for node_top (one node,
// no network: node-sim and the core's benches) and tile (a node of the mesh, adding the
// NI and the router): rv32_core + node_ram + node_timer + (BOOT_BYTES > 0) node_rom, the
// core's data-bus decode, the console and tohost, and the RAM data port shared with a
// line master (the tile's NI). Every size is a parameter.
//
// Memory map of the core's data bus (byte addresses):
//   RAM_BASE .. RAM_BASE+RAM_BYTES-1  on-chip RAM (code and data), single-cycle
//   CONSOLE_ADDR (one word)           console TX: a store prints its low byte; loads read 0
//   TIMER_BASE .. TIMER_BASE+0xffff   machine timer (node_timer, qemu virt's CLINT layout)
//   NI_BASE .. (HAS_NI = 1)           the 256 MiB region NI_BASE[31:28]: requests go out on
//                                     the ni_* port (the tile's NI decides what faults)
//   FINISHER_ADDR (HAS_FINISHER = 1)  qemu virt's test finisher, which rvmesh_exit writes after
//                                     tohost: accepted and ignored (loads read 0), so that an
//                                     exited node spins quietly while the others run on
//   BOOT_BASE .. +BOOT_BYTES-1        (BOOT_BYTES > 0, boards) boot ROM: fetch and loads; a
//                                     store faults. Contents: the $readmemh file BOOT_INIT
//   IO_BASE .. +IO_BYTES-1            (IO_BYTES > 0, boards) the board's devices, on the io_*
//                                     port (same handshake as the core's data bus)
//   anything else                     access fault
// The fetch reads the RAM and the boot ROM only. The console store waits while
// console_ready is low (a board's UART is busy). tohost_addr names the word whose store
// with bit 0 set pulses tohost_valid (the store also goes to RAM; line writes never pulse
// it). The ni_* and io_* requests share the bus_* outputs (the core's request), answer
// with ready/error in the same cycle and with their load data the cycle after acceptance.
//
// The RAM's data port is LINE_WORDS words wide: the core moves one word of a line, the line
// master (line_*: the tile's NI engines) whole lines. When both want it in the same cycle
// they alternate (round-robin of two), so neither waits more than one cycle for the other.
//
// Single-ported memories (RAM_SP_BANKS > 0: a board's SPRAM banks; BOOT_BYTES > 0: the boot
// ROM's one read port). The fetch has no wait input, so it owns the memory it reads; a
// data access (core or line master) to that same memory "steals" it for one cycle: the
// core's pending data request is held (dmem_req_ready low) in that cycle and the next, in
// which the core fetches D's word again (rv32_core re-fetches D's word while it stalls and
// keeps no fetched word while it stalls), and the core's own stolen access is accepted the
// cycle after that: 2 wait states. A core access to the other bank costs nothing. The line
// master can steal the fetch's bank only while the core has a data request to hold (an NI
// buffer in the code bank waits for the core's next load or store): keep code in one
// bank and the data the NI moves in the other (boards/README.md, the board link layout).
//
// BUS_WAIT_TEST = 1 (test builds only): pseudo-random wait states (an LFSR holds the core's
// data request on about one cycle in four), exercising the core's stalls.
module node_core #(
    parameter [31:0] RAM_BASE      = 32'h8000_0000,
    parameter        RAM_BYTES     = 65536,          // a power of two; RAM_BASE a multiple of it
    parameter        LINE_WORDS    = 1,              // words per RAM data-port access (node_ram)
    parameter [31:0] RESET_PC      = RAM_BASE,
    parameter [31:0] CONSOLE_ADDR  = 32'h1000_0000,
    parameter [31:0] TIMER_BASE    = 32'h0200_0000,  // 64 KiB aligned
    parameter        HAS_NI        = 0,              // 1: the NI region goes out on ni_*
    parameter [31:0] NI_BASE       = 32'h2000_0000,  // 256 MiB aligned
    parameter        HAS_FINISHER  = 0,              // 1: stores to FINISHER_ADDR are ignored
    parameter [31:0] FINISHER_ADDR = 32'h0010_0000,
    // rv32_core's configuration (rtl/core/README.md)
    parameter        MUL_KIND      = 1,              // 1 single-cycle, 2 DSP, 0 iterative
    parameter        DIV_BITS      = 4,              // quotient bits per divider step
    parameter        LOAD_BYPASS   = 1,              // load data forwarded in W
    parameter        FAST_REDIRECT = 1,              // redirects fetch in the same cycle
    parameter        DSP_COUNTERS  = 0,              // mcycle/minstret in DSP blocks
    parameter        RAM_SP_BANKS  = 0,              // 0: dual-ported RAM; 2: two single-ported banks (SPRAM)
    parameter [31:0] BOOT_BASE     = 32'h0000_1000,  // boot ROM (a multiple of BOOT_BYTES)
    parameter        BOOT_BYTES    = 0,              // 0: none; else a power of two
    parameter        BOOT_INIT     = "",             // its contents ($readmemh, a word per line)
    parameter [31:0] IO_BASE       = 32'h0300_0000,  // board devices (a multiple of IO_BYTES)
    parameter        IO_BYTES      = 0,              // 0: none; else a power of two >= 4
    parameter        BUS_WAIT_TEST = 0,              // test builds only (above)
    parameter        ADDR_BITS     = $clog2(RAM_BYTES / 4),                 // derived: do not set
    parameter        LB            = (LINE_WORDS <= 1) ? 0 : $clog2(LINE_WORDS)  // derived
) (
    input  wire                         clk,
    input  wire                         rst,
    input  wire [31:0]                  hart_id,
    input  wire [31:0]                  tohost_addr,
    input  wire                         irq_external,
    input  wire                         console_ready,  // the console takes a byte now
    input  wire                         hold,           // 1: the core's data requests wait (stopped)
    // the core's data request, for the ni_* and io_* ports
    output wire [31:0]                  bus_addr,       // the full byte address
    output wire                         bus_write,
    output wire [3:0]                   bus_wstrb,
    output wire [31:0]                  bus_data,
    // the NI's registers (HAS_NI = 1)
    output wire                         ni_req_valid,
    input  wire                         ni_req_ready,
    input  wire                         ni_req_error,
    input  wire [31:0]                  ni_resp_data,   // the cycle after acceptance
    // board devices (IO_BYTES > 0)
    output wire                         io_req_valid,
    input  wire                         io_req_ready,
    input  wire                         io_req_error,
    input  wire [31:0]                  io_resp_data,   // the cycle after acceptance
    // the line master on the RAM's data port (the NI's engines)
    input  wire                         line_req,
    input  wire [ADDR_BITS-LB-1:0]      line_index,     // RAM word index / LINE_WORDS
    input  wire [4*LINE_WORDS-1:0]      line_wstrb,     // all 0: a read
    input  wire [32*LINE_WORDS-1:0]     line_wdata,
    output wire                         line_grant,     // the access happens this cycle
    output wire [32*LINE_WORDS-1:0]     line_rdata,     // a granted read's line, the cycle after
    // observation
    output wire                         console_valid,  // a character is written this cycle
    output wire [7:0]                   console_data,
    output wire                         tohost_valid,   // the program ends this cycle
    output wire [31:0]                  tohost_data,
    output wire                         retire_valid,
    output wire [31:0]                  retire_pc,
    output wire                         trap_valid,
    output wire [31:0]                  trap_cause,
    output wire [31:0]                  trap_pc,
    output wire [31:0]                  trap_tval,
    output wire                         halted
);
    // A hint to the simulator build: inline this glue into its parent (tile, node_top), as it
    // was before it had a module of its own; kept apart, mesh-sim ran about 1.5 times slower.
    /* verilator inline_module */
    localparam WORDS     = RAM_BYTES / 4;
    localparam TOP       = ADDR_BITS + 2;   // first address bit above the RAM

    wire [31:0] imem_addr, imem_data;
    wire        dmem_req_valid, dmem_req_write;
    wire [31:0] dmem_req_addr, dmem_req_data;
    wire [3:0]  dmem_req_wstrb;
    reg  [31:0] dmem_resp_data;

    // RAM_BASE is a multiple of RAM_BYTES: the RAM is where the upper address bits match
    wire imem_in_ram  = imem_addr[31:TOP] == RAM_BASE[31:TOP] && imem_addr[1:0] == 2'b00;
    wire dmem_in_ram  = dmem_req_addr[31:TOP] == RAM_BASE[31:TOP];
    wire dmem_console = {dmem_req_addr[31:2], 2'b00} == CONSOLE_ADDR;
    wire dmem_timer   = dmem_req_addr[31:16] == TIMER_BASE[31:16];
    wire dmem_ni      = HAS_NI != 0 && dmem_req_addr[31:28] == NI_BASE[31:28];
    wire dmem_finisher = HAS_FINISHER != 0 && {dmem_req_addr[31:2], 2'b00} == FINISHER_ADDR;
    wire unused_byte_bits = ^dmem_req_addr[1:0];   // lanes come from the strobes

    // boot ROM and board devices (constant 0 when absent)
    localparam ROM_TOP = (BOOT_BYTES >= 8) ? $clog2(BOOT_BYTES) : 3;  // first address bit above the ROM
    localparam IO_TOP  = (IO_BYTES >= 4) ? $clog2(IO_BYTES) : 2;
    wire imem_in_rom = BOOT_BYTES != 0 && imem_addr[31:ROM_TOP] == BOOT_BASE[31:ROM_TOP] &&
                       imem_addr[1:0] == 2'b00;
    wire dmem_rom    = BOOT_BYTES != 0 && dmem_req_addr[31:ROM_TOP] == BOOT_BASE[31:ROM_TOP];
    wire dmem_io     = IO_BYTES != 0 && dmem_req_addr[31:IO_TOP] == IO_BASE[31:IO_TOP];

    // wait states of the test builds: the bus is free unless BUS_WAIT_TEST's LFSR says so
    reg  [15:0] wait_lfsr;
    always @(posedge clk) begin
        if (rst)
            wait_lfsr <= 16'hace1;
        else
            wait_lfsr <= {wait_lfsr[14:0], wait_lfsr[15] ^ wait_lfsr[13] ^ wait_lfsr[12] ^ wait_lfsr[10]};
    end
    // hold (mesh-sim --stop-node): no data request is accepted, so the core stops at its next
    // load or store as a hung program would; the line master (the NI) goes on
    wire bus_free = !hold && ((BUS_WAIT_TEST == 0) || (wait_lfsr[1:0] != 2'b00));

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
    // taken; the core does not add the target here), unless it is a branch or a short jal
    // far from the edges of its bank; or D's word is the last word of its memory
    wire d_jal       = imem_data[6:0] == 7'b1101111;
    wire d_jump      = d_jal || (imem_data[6:0] == 7'b1100011 && imem_data[31]);
    wire d_short     = !d_jal || &{imem_data[31], imem_data[19:12]} || !(|{imem_data[31], imem_data[19:12]});
    wire may_leave   = f_last_q || (d_jump && !(f_far_q && d_short));

    // The RAM's data port, shared by the core and the line master (see the header): ni_turn
    // says who wins the next contested cycle; an uncontested request is served at once. A
    // core request that loses simply waits (dmem_req_ready low); the core's load data is on
    // the RAM's output the cycle after acceptance, before a line access can change it.
    reg                         ni_turn;
    // Single-ported memories: lost_q, last cycle's fetch was stolen (the core is held now and
    // fetches again); stolen_q, the core's request was already done (stolen or held) and is
    // accepted in the next cycle that is not lost_q, its load data kept in steal_data.
    reg                         lost_q, stolen_q, stolen_rom_q, did_q;
    reg  [31:0]                 steal_data;
    wire normal    = !rst && !lost_q && !stolen_q;
    wire [ADDR_BITS-1:0] n_above = {line_index, {LB{1'b0}}} >> B_LO;
    wire [SPB-1:0] n_bank = n_above[SPB-1:0];
    wire unused_n_bits = ^n_above;
    wire c_port    = normal && dmem_req_valid && dmem_in_ram; // the core wants the RAM port
    // the line master on the bank of D's fetch: only by stealing it, while the core is held
    wire n_on_f    = line_req && f_sp_q && n_bank == f_bank_q;
    wire contest   = normal && dmem_req_valid && line_req && (dmem_in_ram || n_on_f);
    always @(posedge clk) begin
        if (rst)          ni_turn <= 1'b0;
        else if (contest) ni_turn <= !ni_turn;
    end
    wire ni_turn_now = line_req && (ni_turn || !c_port);   // the port is the line master's this cycle
    wire n_steal   = n_on_f && normal && dmem_req_valid && ni_turn;
    // otherwise the line master must miss this cycle's actual fetch (nothing below depends on it)
    wire n_free    = !(SP_RAM && imem_in_ram && n_bank == f_bank);
    assign line_grant = !rst && ni_turn_now && (n_steal || n_free);
    // the core's request this cycle (not held by a steal of the line master, nor by a test
    // wait state)
    wire c_go      = normal && dmem_req_valid && !n_steal && bus_free;
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

    // ready: from the device addressed; low when nothing is offered (a misaligned access,
    // which the core does not offer, traps all the same)
    wire dmem_req_ready = accept_stolen   ? 1'b1 :
                          !c_go           ? 1'b0 :
                          dmem_ni         ? ni_req_ready :
                          dmem_io         ? io_req_ready :
                          dmem_in_ram     ? c_ram && !c_steal && !c_held :
                          dmem_rom        ? (dmem_req_write || (!c_steal && !c_held)) :
                          dmem_console    ? console_ready : 1'b1;
    wire dmem_req_error = dmem_ni ? ni_req_error : dmem_io ? io_req_error :
                          !(dmem_in_ram || dmem_console || dmem_timer || dmem_finisher ||
                            (dmem_rom && !dmem_req_write));
    // nothing is accepted or written during reset: the pipeline's and the line master's
    // state is not yet defined then (a random power-on state would otherwise write RAM)
    wire dmem_accept    = !rst && dmem_req_valid && dmem_req_ready && !dmem_req_error;
    wire irq_timer;

    rv32_core #(.RESET_PC(RESET_PC), .MUL_KIND(MUL_KIND), .DIV_BITS(DIV_BITS),
                .LOAD_BYPASS(LOAD_BYPASS), .FAST_REDIRECT(FAST_REDIRECT),
                .DSP_COUNTERS(DSP_COUNTERS)) core (
        .clk(clk), .rst(rst), .hart_id(hart_id),
        .imem_addr(imem_addr), .imem_error(!imem_in_ram && !imem_in_rom), .imem_data(imem_data),
        .dmem_req_valid(dmem_req_valid), .dmem_req_ready(dmem_req_ready),
        .dmem_req_error(dmem_req_error),
        .dmem_req_addr(dmem_req_addr), .dmem_req_write(dmem_req_write),
        .dmem_req_wstrb(dmem_req_wstrb), .dmem_req_data(dmem_req_data),
        .dmem_resp_data(dmem_resp_data),
        .irq_external(irq_external), .irq_timer(irq_timer),
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
        .d_enable(core_ram_access || line_grant),
        .d_wstrb(line_grant ? line_wstrb : core_strb),
        .d_line(line_grant ? line_index : core_word[ADDR_BITS-1:LB]),
        .d_wdata(line_grant ? line_wdata : {LINE_WORDS{dmem_req_data}}), .d_data(ram_d_line)
    );
    assign line_rdata = ram_d_line;

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

    // the NI's registers and the board devices
    assign bus_addr     = dmem_req_addr;
    assign bus_write    = dmem_req_write;
    assign bus_wstrb    = dmem_req_wstrb;
    assign bus_data     = dmem_req_data;
    assign ni_req_valid = dmem_req_valid && dmem_ni && c_go;
    assign io_req_valid = dmem_req_valid && dmem_io && c_go;

    wire [31:0] timer_data;
    node_timer timer (
        .clk(clk), .rst(rst),
        .req_valid(dmem_accept && dmem_timer), .req_word(dmem_req_addr[15:2]),
        .req_wstrb(dmem_req_write ? dmem_req_wstrb : 4'b0000), .req_data(dmem_req_data),
        .resp_data(timer_data), .irq_timer(irq_timer)
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
                         resp_from_ni ? ni_resp_data : resp_from_io ? io_resp_data : 32'd0;

    assign console_valid = dmem_accept && dmem_req_write && dmem_console && dmem_req_wstrb[0];
    assign console_data  = dmem_req_data[7:0];

    assign tohost_valid = dmem_accept && dmem_req_write && dmem_in_ram &&
                          {dmem_req_addr[31:2], 2'b00} == tohost_addr &&
                          dmem_req_wstrb[0] && dmem_req_data[0];
    assign tohost_data  = dmem_req_data;
endmodule
