// node_top: one rvmesh node without network: core + RAM + console + tohost detection.
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
    localparam WORDS     = RAM_BYTES / 4;
    localparam ADDR_BITS = $clog2(WORDS);

    wire [31:0] imem_addr, imem_data;
    wire        dmem_req_valid, dmem_req_write;
    wire [31:0] dmem_req_addr, dmem_req_data;
    wire [3:0]  dmem_req_wstrb;
    reg  [31:0] dmem_resp_data;

    // ready: always, unless the wait-state test is built in
    reg  [15:0] wait_lfsr;
    always @(posedge clk) begin
        if (rst)
            wait_lfsr <= 16'hace1;
        else
            wait_lfsr <= {wait_lfsr[14:0], wait_lfsr[15] ^ wait_lfsr[13] ^ wait_lfsr[12] ^ wait_lfsr[10]};
    end
    wire dmem_req_ready = (BUS_WAIT_TEST == 0) || (wait_lfsr[1:0] != 2'b00);
    // nothing is accepted during reset (the pipeline's state is not yet defined then)
    wire dmem_accept    = !rst && dmem_req_valid && dmem_req_ready;

    // RAM_BASE is a multiple of RAM_BYTES: the RAM is where the upper address bits match
    localparam TOP = ADDR_BITS + 2;   // first address bit above the RAM
    wire imem_in_ram = imem_addr[31:TOP] == RAM_BASE[31:TOP] && imem_addr[1:0] == 2'b00;
    wire dmem_in_ram = dmem_req_addr[31:TOP] == RAM_BASE[31:TOP];
    wire unused_byte_bits = ^dmem_req_addr[1:0];   // lanes come from the strobes
    wire dmem_console = {dmem_req_addr[31:2], 2'b00} == CONSOLE_ADDR;
    wire dmem_timer   = dmem_req_addr[31:16] == TIMER_BASE[31:16];
    wire irq_timer;

    rv32_core #(.RESET_PC(RESET_PC), .MUL_KIND(MUL_KIND), .DIV_BITS(DIV_BITS),
                .LOAD_BYPASS(LOAD_BYPASS), .FAST_REDIRECT(FAST_REDIRECT),
                .DSP_COUNTERS(DSP_COUNTERS)) core (
        .clk(clk), .rst(rst), .hart_id(HART_ID),
        .imem_addr(imem_addr), .imem_error(!imem_in_ram), .imem_data(imem_data),
        .dmem_req_valid(dmem_req_valid), .dmem_req_ready(dmem_req_ready),
        .dmem_req_error(!dmem_in_ram && !dmem_console && !dmem_timer),
        .dmem_req_addr(dmem_req_addr), .dmem_req_write(dmem_req_write),
        .dmem_req_wstrb(dmem_req_wstrb), .dmem_req_data(dmem_req_data),
        .dmem_resp_data(dmem_resp_data),
        .irq_external(irq_external), .irq_timer(irq_timer),
        .retire_valid(retire_valid), .retire_pc(retire_pc),
        .trap_valid(trap_valid), .trap_cause(trap_cause), .trap_pc(trap_pc),
        .trap_tval(trap_tval), .halted(halted)
    );

    wire [31:0] ram_d_data;
    node_ram #(.WORDS(WORDS), .ADDR_BITS(ADDR_BITS)) ram (
        .clk(clk),
        .i_addr(imem_addr[TOP-1:2]), .i_data(imem_data),
        .d_enable(dmem_accept && dmem_in_ram),
        .d_wstrb(dmem_req_write ? dmem_req_wstrb : 4'b0000),
        .d_line(dmem_req_addr[TOP-1:2]), .d_wdata(dmem_req_data), .d_data(ram_d_data)
    );

    wire [31:0] timer_data;
    node_timer timer (
        .clk(clk), .rst(rst),
        .req_valid(dmem_accept && dmem_timer), .req_word(dmem_req_addr[15:2]),
        .req_wstrb(dmem_req_write ? dmem_req_wstrb : 4'b0000), .req_data(dmem_req_data),
        .resp_data(timer_data), .irq_timer(irq_timer)
    );

    // load data: from the device that accepted last cycle's request
    reg resp_from_ram, resp_from_timer;
    always @(posedge clk) begin
        if (rst) begin
            resp_from_ram   <= 1'b0;
            resp_from_timer <= 1'b0;
        end else if (dmem_accept) begin
            resp_from_ram   <= dmem_in_ram;
            resp_from_timer <= dmem_timer;
        end
    end
    always @(*)
        dmem_resp_data = resp_from_ram ? ram_d_data : resp_from_timer ? timer_data : 32'd0;

    assign console_valid = dmem_accept && dmem_req_write && dmem_console && dmem_req_wstrb[0];
    assign console_data  = dmem_req_data[7:0];

    assign tohost_valid = dmem_accept && dmem_req_write && dmem_in_ram &&
                          {dmem_req_addr[31:2], 2'b00} == tohost_addr &&
                          dmem_req_wstrb[0] && dmem_req_data[0];
    assign tohost_data  = dmem_req_data;
endmodule
