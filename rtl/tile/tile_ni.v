// SPDX-License-Identifier: ISC
// tile_ni: the network interface of a tile (version 3). A slave on the core's data bus
// that decodes the NI window (the tile decodes 0x2000_0000-0x2fff_ffff and passes the low
// 12 bits; anything above 0x2000_0fff faults), a master on the RAM's data port (a line of
// LINE_WORDS words per access), and the router's 2*DIMS injection and ejection channels.
// The register map is in rtl/tile/README.md (the one definition).
//
// Per port p it has a transmit engine (ni_tx_engine) and a receive engine (ni_rx_engine):
//   - version 1: the core writes flits to TX_DATA(p) and reads them from RX_DATA(p), the
//     queues being the router's own buffers (the NI holds no flit: a write to a full queue
//     and a read of an empty one wait);
//   - version 2: the engines move a worm's payload between RAM and the port (TX/RX DMA);
//   - version 3: plans. The TX engine runs a list of send descriptors from RAM, each
//     waiting for one of 16 event counters to reach a threshold before its worm goes out;
//     the RX engine, with its port in plan mode, writes every arriving put into the window
//     it names and counts it on the counter it names. The core posts a compiled schedule
//     once (TXQ_ADDR/TXQ_COUNT per port, windows, counter targets, EPOCH) and waits for
//     PLAN_STATUS.done; relays and later steps start in hardware.
// A local port (engine pair number P = 2*DIMS) joins a TX engine's output straight to an RX
// engine's input: a list of descriptors on it, or a v2 DMA pair, copies RAM to RAM at a line
// per access (a plan's own block into its result). The 2(P+1) engines take turns at the RAM
// (noc_rr_arbiter); the tile shares the RAM's data
// port between the core and the NI. Everything an engine reads or writes is checked to lie
// inside the RAM (and, for puts, inside the window named); a refused descriptor or worm
// sets a bit in PLAN_ERROR and writes nothing.
//
// Timing: a register access is decoded combinationally and answered the cycle it is
// offered (ready = 1) unless it must wait for a flit or a free slot; read data is
// registered and appears on resp_data the cycle after acceptance, as the core expects.
module tile_ni #(
    parameter        DIMS       = 2,
    parameter        FLIT_BITS  = 32,         // the NI moves 32-bit flits: must be 32
    parameter        INJ_DEPTH  = 4,          // reported in PORTS
    parameter        VCS        = 2,          // the router's buf_nonempty layout
    parameter [31:0] RAM_BASE   = 32'h8000_0000,
    parameter        RAM_BYTES  = 131072,     // a power of two (<= 256 KiB); RAM_BASE a multiple of it
    parameter        LINE_WORDS = 16,         // words per RAM access (a power of two, <= 16)
    parameter        COMBINE    = 0,          // 1: combining puts (kinds 2-9) at the RAM port
    parameter        RAM_AW     = $clog2(RAM_BYTES / 4),                      // derived
    parameter        LB         = (LINE_WORDS <= 1) ? 0 : $clog2(LINE_WORDS)  // derived
) (
    input  wire                        clk,
    input  wire                        rst,
    // machine description (constants in a mesh)
    input  wire [23:0]                 my_coord,     // 8 bits per dimension, x in [7:0]
    input  wire [23:0]                 dim_size,     // 8 bits per dimension
    input  wire                        torus,
    input  wire [15:0]                 node_index,   // x + X*(y + Y*z)
    input  wire [15:0]                 node_count,
    // data bus (rv32_core's dmem port, already qualified: the request is in the window)
    input  wire                        req_valid,
    output reg                         req_ready,
    output reg                         req_error,
    input  wire [11:0]                 req_offset,   // byte offset in the window
    input  wire                        req_in_window, // address bits above the offset match
    input  wire                        req_write,
    input  wire [3:0]                  req_wstrb,
    input  wire [31:0]                 req_data,
    output reg  [31:0]                 resp_data,
    output wire                        irq,
    // RAM data port (shared with the core; the tile arbitrates)
    output wire                        mem_req,
    output wire [RAM_AW-LB-1:0]        mem_line,
    output wire [4*LINE_WORDS-1:0]     mem_wstrb,    // all 0: a read
    output wire [32*LINE_WORDS-1:0]    mem_wdata,
    input  wire                        mem_grant,    // the RAM does the access this cycle
    input  wire [32*LINE_WORDS-1:0]    mem_rdata,    // the line read, the cycle after grant
    // router: injection channels
    output wire [2*DIMS-1:0]           inj_valid,
    input  wire [2*DIMS-1:0]           inj_ready,
    output wire [2*DIMS*FLIT_BITS-1:0] inj_data,
    output wire [2*DIMS-1:0]           inj_last,
    input  wire [2*DIMS-1:0]           inj_error,
    // router: ejection channels
    input  wire [2*DIMS-1:0]           ej_valid,
    output wire [2*DIMS-1:0]           ej_ready,
    input  wire [2*DIMS*FLIT_BITS-1:0] ej_data,
    input  wire [2*DIMS-1:0]           ej_last,
    // router: status
    input  wire [15:0]                 err_count,    // the router's (ERR_BITS = 16)
    input  wire [2*DIMS*(VCS+1)-1:0]   buf_nonempty,
    // the links' counters, per port p (bits 32p+31..32p), as the tile's surroundings count
    // them (0 where a link has no protection): [15:0] words the receiving end of input link
    // p refused (errors detected), [31:16] flits the sending end of output link p sent again
    input  wire [2*DIMS*32-1:0]        link_status
);
    localparam P  = 2 * DIMS;
    localparam E  = P + 1;                // engine pairs: one per port, and the local one (index P)
    localparam W  = FLIT_BITS;
    localparam AW = RAM_AW;
    localparam CW = RAM_AW + 1;           // a DMA count: 0 .. all the RAM's words
    localparam TOP = RAM_AW + 2;          // first byte-address bit above the RAM
    localparam L  = LINE_WORDS;
    localparam NCNT = 16;                 // event counters
    localparam [31:0] VERSION = 32'h4e49_0003;   // "NI", version 3 (version 2 + plans)
    localparam [CW-1:0] RAM_WORDS = {1'b1, {AW{1'b0}}};


    // ---------------------------------------------------------------- decode
    // 0x000-0x0ff global registers (word g); 0x100 + 0x10*p + 4*r port p (v1);
    // 0x600 + 4*c CNT_SUB(c); 0x800 + 0x20*p + 4*r DMA of port p (v2);
    // 0x700 + 4*p LINK_STATUS(p); 0x900 + 8*w + 4*r window w; 0xa00 + 0x10*p + 4*r plan
    // list of port p
    wire [3:0]  region    = req_offset[11:8];
    wire        full_word = req_wstrb == 4'b1111;
    wire        wr        = req_in_window && req_write && full_word;
    wire        rd        = req_in_window && !req_write;
    wire [3:0]  port      = req_offset[7:4];
    wire [1:0]  preg      = req_offset[3:2];
    wire [5:0]  greg      = req_offset[7:2];
    wire        port_ok   = {28'd0, port} < P;
    wire [3:0]  dport     = req_offset[8:5];
    wire [1:0]  dreg      = req_offset[3:2];  // 0 TX_ADDR, 1 TX_COUNT, 2 RX_ADDR, 3 RX_COUNT
    wire        dport_ok  = {28'd0, dport} < E && !req_offset[4];   // the local port's too
    wire [3:0]  ccnt      = req_offset[5:2];
    localparam  PB        = (E <= 2) ? 1 : (E <= 4) ? 2 : 3;
    wire        eport_ok  = {28'd0, port} < E;                      // an engine: a port or the local one
    wire [PB-1:0] pidx    = port[PB-1:0];     // index of engine-sized arrays (checked by eport_ok)
    wire [PB-1:0] didx    = dport[PB-1:0];
    wire [1:0]  wnum      = req_offset[4:3];
    wire        wreg      = req_offset[2];    // 0 WIN_BASE, 1 WIN_WORDS

    // v1 port registers: 0 TX_DATA (W), 1 TX_LAST (W), 2 RX_DATA (R, pops), 3 PORT_STATUS (R)
    wire p_tx   = region == 4'h1 && port_ok && wr && !preg[1];
    wire p_rx   = region == 4'h1 && port_ok && rd && preg == 2'd2;
    wire p_stat = region == 4'h1 && port_ok && rd && preg == 2'd3;
    // v2 DMA registers: all four read and write
    wire d_read  = region == 4'h8 && dport_ok && rd;
    wire d_write = region == 4'h8 && dport_ok && wr;
    // v3: CNT_SUB (W), windows (R/W), plan lists: 0 TXQ_ADDR (R/W), 1 TXQ_COUNT (R/W), 2 TXQ_DONE (R)
    wire c_sub   = region == 4'h6 && req_offset[7:6] == 2'd0 && wr;
    wire l_read  = region == 4'h7 && req_offset[7:6] == 2'd0 && {28'd0, ccnt} < P && rd;
    wire w_read  = region == 4'h9 && req_offset[7:5] == 3'd0 && rd;
    wire w_write = region == 4'h9 && req_offset[7:5] == 3'd0 && wr;
    wire q_read  = region == 4'ha && eport_ok && rd && preg != 2'd3;
    wire q_write = region == 4'ha && eport_ok && wr && !preg[1];

    // global registers
    localparam G_VERSION = 6'd0, G_COORD = 6'd1, G_SHAPE = 6'd2, G_NODE = 6'd3,
               G_PORTS = 6'd4, G_RX_AVAIL = 6'd5, G_TX_STATUS = 6'd6, G_ERROR = 6'd7,
               G_REFUSED = 6'd8, G_IRQ_ENABLE = 6'd9, G_IRQ_PENDING = 6'd10,
               G_DMA_STATUS = 6'd11, G_DMA_ERROR = 6'd12, G_EPOCH = 6'd13,
               G_RX_MODE = 6'd14, G_PLAN_STATUS = 6'd15, G_PLAN_ERROR = 6'd16,
               G_PLAN_ERR_INFO = 6'd17, G_LINE = 6'd18,
               G_CNT = 6'd32, G_TARGET = 6'd48;      // 16 each
    wire g_any   = region == 4'h0 && req_in_window;
    wire g_read  = g_any && !req_write && (greg <= G_LINE || greg >= G_CNT);
    wire g_w1c   = g_any && wr && greg == G_ERROR;
    wire g_wirq  = g_any && wr && greg == G_IRQ_ENABLE;
    wire g_wdme  = g_any && wr && greg == G_DMA_ERROR;
    wire g_epoch = g_any && wr && greg == G_EPOCH;
    wire g_mode  = g_any && wr && greg == G_RX_MODE;
    wire g_perr  = g_any && wr && greg == G_PLAN_ERROR;
    wire g_cnt   = g_any && wr && greg >= G_CNT && greg < G_TARGET;
    wire g_tgt   = g_any && wr && greg >= G_TARGET;
    wire legal   = p_tx || p_rx || p_stat || d_read || d_write || c_sub || l_read || w_read ||
                   w_write || q_read || q_write || g_read || g_w1c || g_wirq || g_wdme ||
                   g_epoch || g_mode || g_perr || g_cnt || g_tgt;

    // ---------------------------------------------------------------- engines
    wire [E-1:0]      t_raw_busy, t_plan_busy, t_raw_end, t_err;
    wire [E*CW-1:0]   t_raw_left;
    wire [E*AW-1:0]   t_raw_next;
    wire [E*16-1:0]   t_plan_left, t_plan_done;
    wire [E*2-1:0]    t_err_code;
    wire [E-1:0]      t_inj_valid, t_inj_last;
    wire [E*32-1:0]   t_inj_data;
    wire [E-1:0]      r_raw_busy, r_plan_busy, r_end_last, r_inc, r_err, r_pop;
    wire [E*CW-1:0]   r_raw_left;
    wire [E*AW-1:0]   r_raw_next;
    wire [E*4-1:0]    r_inc_id;
    wire [E*2-1:0]    r_err_kind;
    wire [E*16-1:0]   r_err_src;
    wire [2*E-1:0]    m_req;            // [E-1:0] TX engines (reads), [2E-1:E] RX engines (writes)
    wire [2*E-1:0]    m_pick;           // one-hot: who gets the RAM if it is granted
    wire [2*E*(AW-LB)-1:0] m_lines;
    wire [E*L-1:0]    r_wmask;
    wire [E*32*L-1:0] r_wdata;
    wire [E*4-1:0]    r_op;             // per RX engine: 0 a write, 2-9 a combining put's line
    wire              c_read;           // the RAM access is a combining line's read (the RAM port)
    wire [16*NCNT-1:0] cnt_flat;
    wire [4*AW-1:0]    win_base_flat;
    wire [4*CW-1:0]    win_words_flat;

    // ---------------------------------------------------------------- state
    reg  [P-1:0]    refused;        // sticky: a worm injected on port p was refused
    reg  [15:0]     refused_count;  // refused worms, all ports (saturates)
    reg  [25:0]     irq_enable;     // [7:0] RX flit, [15:8] TX DMA idle, [23:16] RX DMA idle, [24] plan done, [25] plan error
    reg  [P-1:0]    rx_at_head;     // the next flit ejected on port p starts a worm (core view)
    reg  [3:0]      epoch;
    reg  [E-1:0]    rx_mode;        // port p's RX engine runs plans (bit P: the local port's)
    reg  [15:0]     cnt [0:NCNT-1];
    reg  [15:0]     tgt [0:NCNT-1];
    reg  [NCNT-1:0] tgt_on;
    reg  [AW-1:0]   win_base [0:3];
    reg  [CW-1:0]   win_words [0:3];
    reg  [AW-1:0]   q_addr [0:E-1]; // TXQ_ADDR as a word index
    reg  [31:0]     plan_error;     // PLAN_ERROR
    reg  [31:0]     plan_err_info;
    // v2 DMA: the address each engine starts from, and whether a refused address write
    // blocks the next start
    reg  [AW-1:0]   t_idx [0:E-1], r_idx [0:E-1];
    reg  [E-1:0]    t_ran, r_ran;   // the engine has run since its address was written
    reg  [E-1:0]    t_bad, r_bad;
    reg  [E-1:0]    t_derr, r_derr; // DMA_ERROR

    wire [E-1:0] tx_busy = t_raw_busy | t_plan_busy;
    wire [E-1:0] rx_busy = r_raw_busy | rx_mode;
    wire [P-1:0] tx_idle;           // TX queue p empty (the router's injection buffer)
    genvar j;
    generate
        for (j = 0; j < P; j = j + 1) begin : tx_state
            assign tx_idle[j] = !buf_nonempty[P * VCS + j];
        end
    endgenerate
    wire unused_bufs = ^buf_nonempty[P*VCS-1:0];

    // ---------------------------------------------------------------- core access (v1)
    wire [P-1:0] tx_core_ready = inj_ready & ~tx_busy[P-1:0];
    wire [P-1:0] tx_core_idle  = tx_idle & ~tx_busy[P-1:0];
    wire [P-1:0] rx_core_valid = ej_valid & ~rx_busy[P-1:0];
    wire [P-1:0] port_sel = {{(P-1){1'b0}}, 1'b1} << port;
    wire [E-1:0] eng_sel  = {{(E-1){1'b0}}, 1'b1} << port;
    wire wait_tx = p_tx && !(|(tx_core_ready & port_sel));
    wire wait_rx = p_rx && !(|(rx_core_valid & port_sel));
    always @(*) begin
        req_ready = req_valid && (!legal || !(wait_tx || wait_rx));
        req_error = !legal;
    end
    wire accept = req_valid && req_ready && legal;
    wire [P-1:0] core_tx = (accept && p_tx) ? port_sel : {P{1'b0}};
    wire [P-1:0] core_rx = (accept && p_rx) ? port_sel : {P{1'b0}};

    // ---------------------------------------------------------------- writes the engines take
    wire [AW-1:0] w_idx     = req_data[TOP-1:2];
    wire          w_addr_ok = req_data[1:0] == 2'b00 && req_data[31:TOP] == RAM_BASE[31:TOP];
    wire [31:0]   w_n       = {1'b0, req_data[30:0]};        // a count written
    wire          w_zero    = w_n == 32'd0;
    wire          dma_wr    = accept && d_write;
    // a v2 start: from the engine's address (the written one, or where it stopped)
    reg  [AW-1:0] d_from;
    integer x;
    always @(*) begin
        d_from = {AW{1'b0}};
        for (x = 0; x < E; x = x + 1)
            if (dport == x[3:0])
                d_from = dreg[1] ? (r_ran[x] ? r_raw_next[x * AW +: AW] : r_idx[x])
                                 : (t_ran[x] ? t_raw_next[x * AW +: AW] : t_idx[x]);
    end
    wire [CW-1:0] d_room = RAM_WORDS - {1'b0, d_from};
    wire          w_small = w_n[31:CW] == {(32-CW){1'b0}};              // a count below 2**CW
    wire          d_fits = w_small && w_n[CW-1:0] <= d_room;
    // a plan list start: 16-byte descriptors from TXQ_ADDR, all inside the RAM
    wire [AW-1:0] q_from  = q_addr[pidx];
    wire [18:0]   q_end   = {{(19-AW){1'b0}}, q_from} + {1'b0, w_n[15:0], 2'b00};   // words
    wire          q_fits  = w_n[31:16] == 16'd0 && q_end <= {{(18-AW){1'b0}}, RAM_WORDS};
    wire          q_start = accept && q_write && preg == 2'd1 && !w_zero;
    wire          q_stop  = accept && q_write && preg == 2'd1 && w_zero;
    wire          q_ok    = q_fits && !(|(tx_busy & eng_sel));
    wire          q_addr_ok = w_addr_ok && req_data[3:2] == 2'b00;

    // ---------------------------------------------------------------- the engines
    generate
        for (j = 0; j < E; j = j + 1) begin : eng
            localparam [3:0] J4 = j[3:0];
            wire w_tx_addr  = dma_wr && dport == J4 && dreg == 2'd0;
            wire w_tx_count = dma_wr && dport == J4 && dreg == 2'd1;
            wire w_rx_addr  = dma_wr && dport == J4 && dreg == 2'd2;
            wire w_rx_count = dma_wr && dport == J4 && dreg == 2'd3;
            wire t_bad_addr = w_tx_addr && (tx_busy[j] || !w_addr_ok);
            wire r_bad_addr = w_rx_addr && (rx_busy[j] || !w_addr_ok);
            wire t_refuse   = t_bad_addr || (w_tx_count && !w_zero && (tx_busy[j] || t_bad[j] || !d_fits));
            wire r_refuse   = r_bad_addr || (w_rx_count && !w_zero && (rx_busy[j] || r_bad[j] || !d_fits));
            wire t_go       = w_tx_count && !w_zero && !t_refuse;
            wire r_go       = w_rx_count && !w_zero && !r_refuse;
            wire p_go       = q_start && q_ok && port == J4;

            ni_tx_engine #(.AW(AW), .LINE_WORDS(L), .COMBINE(COMBINE)) tx (
                .clk(clk), .rst(rst),
                .raw_start(t_go), .raw_addr(d_from), .raw_count(w_n[CW-1:0]), .raw_last(req_data[31]),
                .raw_stop(w_tx_count && w_zero),
                .raw_busy(t_raw_busy[j]), .raw_left(t_raw_left[j * CW +: CW]),
                .raw_next(t_raw_next[j * AW +: AW]), .raw_end(t_raw_end[j]),
                .plan_start(p_go), .plan_addr(q_from), .plan_count(w_n[15:0]),
                .plan_stop(q_stop && port == J4),
                .plan_busy(t_plan_busy[j]), .plan_left(t_plan_left[j * 16 +: 16]),
                .plan_done(t_plan_done[j * 16 +: 16]), .plan_error(t_err[j]),
                .plan_error_code(t_err_code[j * 2 +: 2]),
                .node_index(node_index), .epoch(epoch), .counters(cnt_flat),
                .m_req(m_req[j]), .m_line(m_lines[j * (AW-LB) +: AW-LB]),
                .m_grant(mem_grant && m_pick[j]), .m_rdata(mem_rdata),
                .inj_valid(t_inj_valid[j]), .inj_ready(ch_ready && tx_busy[j]),
                .inj_data(t_inj_data[j * 32 +: 32]), .inj_last(t_inj_last[j])
            );
            ni_rx_engine #(.AW(AW), .LINE_WORDS(L), .COMBINE(COMBINE)) rx (
                .clk(clk), .rst(rst),
                .raw_start(r_go), .raw_addr(d_from), .raw_count(w_n[CW-1:0]),
                .raw_stop(w_rx_count && w_zero),
                .raw_busy(r_raw_busy[j]), .raw_left(r_raw_left[j * CW +: CW]),
                .raw_next(r_raw_next[j * AW +: AW]), .raw_end_last(r_end_last[j]),
                .plan_mode(rx_mode[j]), .win_base(win_base_flat), .win_words(win_words_flat),
                .epoch(epoch), .plan_busy(r_plan_busy[j]),
                .inc_valid(r_inc[j]), .inc_id(r_inc_id[j * 4 +: 4]),
                .err_valid(r_err[j]), .err_kind(r_err_kind[j * 2 +: 2]),
                .err_src(r_err_src[j * 16 +: 16]),
                .ej_valid(ch_valid && (r_raw_busy[j] || rx_mode[j])), .ej_data(ch_data),
                .ej_last(ch_last), .ej_pop(r_pop[j]),
                .m_req(m_req[E + j]), .m_line(m_lines[(E + j) * (AW-LB) +: AW-LB]),
                .m_wmask(r_wmask[j * L +: L]), .m_wdata(r_wdata[j * 32 * L +: 32 * L]),
                .m_op(r_op[j * 4 +: 4]), .m_grant(mem_grant && m_pick[E + j] && !c_read)
            );

            // what the engines see: a router port's channels, or (the local port) the TX
            // engine's output straight into the RX engine
            wire        ch_ready, ch_valid, ch_last;
            wire [31:0] ch_data;
            if (j < P) begin : router_port
                // the router's injection channel takes a flit whenever valid: offered only into room
                assign ch_ready = inj_ready[j];
                assign ch_valid = ej_valid[j];
                assign ch_last  = ej_last[j];
                assign ch_data  = ej_data[j * W +: 32];
                assign inj_valid[j] = tx_busy[j] ? t_inj_valid[j] && inj_ready[j] : core_tx[j];
                assign inj_last[j]  = tx_busy[j] ? t_inj_last[j] : (core_tx[j] && preg[0]);
                assign inj_data[j * W +: W] = tx_busy[j] ? t_inj_data[j * 32 +: 32] : req_data;
                assign ej_ready[j]  = core_rx[j] | r_pop[j];
            end else begin : local_port
                assign ch_ready = r_pop[j];
                assign ch_valid = t_inj_valid[j] && tx_busy[j];
                assign ch_last  = t_inj_last[j];
                assign ch_data  = t_inj_data[j * 32 +: 32];
            end

            always @(posedge clk) begin
                if (rst) begin
                    t_idx[j] <= {AW{1'b0}};
                    r_idx[j] <= {AW{1'b0}};
                    t_ran[j] <= 1'b0;
                    r_ran[j] <= 1'b0;
                    t_bad[j] <= 1'b0;
                    r_bad[j] <= 1'b0;
                    t_derr[j] <= 1'b0;
                    r_derr[j] <= 1'b0;
                end else begin
                    if (w_tx_addr) t_bad[j] <= t_bad_addr;
                    if (w_rx_addr) r_bad[j] <= r_bad_addr;
                    if (w_tx_addr && !t_refuse) begin
                        t_idx[j] <= w_idx;
                        t_ran[j] <= 1'b0;
                    end
                    if (w_rx_addr && !r_refuse) begin
                        r_idx[j] <= w_idx;
                        r_ran[j] <= 1'b0;
                    end
                    if (t_go) t_ran[j] <= 1'b1;
                    if (r_go) r_ran[j] <= 1'b1;
                    t_derr[j] <= (t_derr[j] && !(accept && g_wdme && req_data[j])) || t_refuse;
                    r_derr[j] <= (r_derr[j] && !(accept && g_wdme && req_data[8 + j])) || r_refuse;
                end
            end
        end
    endgenerate

    // ---------------------------------------------------------------- the RAM port
    // The engines take turns (round robin). With COMBINE = 1, a combining put's line (an RX
    // engine's m_op, 2-9) takes three steps with the turn held on its engine: the line is
    // read (c_state 0 -> 1), combined word by word with the engine's words into c_data
    // (1 -> 2; the NI asks for nothing in that cycle), then written (2 -> 0): that write is
    // the engine's grant. No other engine reaches the RAM between the read and the write, so
    // lines combined into the same words from several ports at once all count. With
    // COMBINE = 0 none of it is built.
    wire [2*E-1:0]  arb_pick;
    wire            c_hold;         // the turn held on a combining line's engine
    wire            c_wait;         // its line being combined: the NI asks for nothing
    wire            c_write;        // its combined line's write
    wire [2*E-1:0]  c_pick_q;       // that engine
    wire [32*L-1:0] c_data_q;       // the combined line
    assign m_pick = c_hold ? c_pick_q : arb_pick;
    noc_rr_arbiter #(.N(2 * E)) mem_arb (
        .clk(clk), .rst(rst), .req(m_req), .advance(mem_grant && !c_read), .grant(arb_pick)
    );
    assign mem_req   = |m_req && !c_wait;
    wire   mem_write = |m_pick[2*E-1:E] && !c_read;   // an RX engine's line (else a read)
    reg [AW-LB-1:0] pick_line;
    reg [L-1:0]     pick_mask;
    reg [32*L-1:0]  pick_data;
    reg [3:0]       pick_op;
    integer e;
    always @(*) begin
        pick_line = {(AW-LB){1'b0}};
        pick_mask = {L{1'b0}};
        pick_data = {(32*L){1'b0}};
        pick_op   = 4'd0;
        for (e = 0; e < 2 * E; e = e + 1)
            if (m_pick[e]) pick_line = pick_line | m_lines[e * (AW-LB) +: AW-LB];
        for (e = 0; e < E; e = e + 1)
            if (m_pick[E + e]) begin
                pick_mask = pick_mask | r_wmask[e * L +: L];
                pick_op   = pick_op | r_op[4 * e +: 4];
                if (!c_write) pick_data = pick_data | r_wdata[e * 32 * L +: 32 * L];
            end
        if (c_write) pick_data = c_data_q;
    end
    assign mem_line  = pick_line;
    assign mem_wdata = pick_data;
    generate
        for (j = 0; j < L; j = j + 1) begin : strobes
            assign mem_wstrb[4 * j +: 4] = {4{pick_mask[j] && mem_write}};
        end
        if (COMBINE != 0) begin : combine
            // the combine: the RAM's word first, the put's second (min and max: signed for
            // kinds 6 and 7, unsigned for 8 and 9)
            reg  [1:0]      c_state;    // 0 free, 1 read done (combine), 2 write the line
            reg  [2*E-1:0]  c_pick;
            reg  [32*L-1:0] c_data;
            integer cw;
            assign c_read   = c_state == 2'd0 && pick_op != 4'd0;
            assign c_hold   = c_state != 2'd0;
            assign c_wait   = c_state == 2'd1;
            assign c_write  = c_state == 2'd2;
            assign c_pick_q = c_pick;
            assign c_data_q = c_data;
            always @(posedge clk) begin
                if (rst) c_state <= 2'd0;
                else case (c_state)
                    2'd0: if (mem_grant && c_read) begin
                        c_state <= 2'd1;
                        c_pick  <= arb_pick;
                    end
                    2'd1: begin
                        c_state <= 2'd2;
                        for (cw = 0; cw < L; cw = cw + 1)
                            case (pick_op)
                                4'd2: c_data[32 * cw +: 32] <= mem_rdata[32 * cw +: 32] + pick_data[32 * cw +: 32];
                                4'd3: c_data[32 * cw +: 32] <= mem_rdata[32 * cw +: 32] & pick_data[32 * cw +: 32];
                                4'd4: c_data[32 * cw +: 32] <= mem_rdata[32 * cw +: 32] | pick_data[32 * cw +: 32];
                                4'd5: c_data[32 * cw +: 32] <= mem_rdata[32 * cw +: 32] ^ pick_data[32 * cw +: 32];
                                4'd6: c_data[32 * cw +: 32] <= ($signed(mem_rdata[32 * cw +: 32]) < $signed(pick_data[32 * cw +: 32]))
                                                               ? mem_rdata[32 * cw +: 32] : pick_data[32 * cw +: 32];
                                4'd7: c_data[32 * cw +: 32] <= ($signed(mem_rdata[32 * cw +: 32]) > $signed(pick_data[32 * cw +: 32]))
                                                               ? mem_rdata[32 * cw +: 32] : pick_data[32 * cw +: 32];
                                4'd8: c_data[32 * cw +: 32] <= (mem_rdata[32 * cw +: 32] < pick_data[32 * cw +: 32])
                                                               ? mem_rdata[32 * cw +: 32] : pick_data[32 * cw +: 32];
                                default: c_data[32 * cw +: 32] <= (mem_rdata[32 * cw +: 32] > pick_data[32 * cw +: 32])
                                                                  ? mem_rdata[32 * cw +: 32] : pick_data[32 * cw +: 32];
                            endcase
                    end
                    default: if (mem_grant) c_state <= 2'd0;
                endcase
            end
        end else begin : no_combine
            assign c_read   = 1'b0;
            assign c_hold   = 1'b0;
            assign c_wait   = 1'b0;
            assign c_write  = 1'b0;
            assign c_pick_q = {(2*E){1'b0}};
            assign c_data_q = {(32*L){1'b0}};
            wire unused_op = ^pick_op;
        end
    endgenerate

    // ---------------------------------------------------------------- counters
    // Per counter, the worms counted this cycle (at most one per engine: IW bits). A counter
    // written (COUNT) or reduced (CNT_SUB) takes the one shared value cnt_base, else itself,
    // plus its worms: one adder a counter. It overflows when its worms carry it past 0xffff
    // (a count near the top: bits above the low three all ones), as a write never does.
    localparam IW = (E < 4) ? 2 : 3;
    reg  [NCNT-1:0]    tgt_met;
    reg  [IW*NCNT-1:0] incs;         // per counter: worms counted this cycle
    reg  [NCNT-1:0]    overflow_now;
    integer c, q;
    always @(*) begin
        for (c = 0; c < NCNT; c = c + 1) begin
            incs[IW * c +: IW] = {IW{1'b0}};
            for (q = 0; q < E; q = q + 1)
                if (r_inc[q] && r_inc_id[4 * q +: 4] == c[3:0])
                    incs[IW * c +: IW] = incs[IW * c +: IW] + {{(IW-1){1'b0}}, 1'b1};
            tgt_met[c]      = !tgt_on[c] || !(cnt[c] - tgt[c] >= 16'h8000);
            overflow_now[c] = &cnt[c][15:IW] &&
                              ({1'b0, cnt[c][IW-1:0]} + {1'b0, incs[IW * c +: IW]} > {1'b0, {IW{1'b1}}});
        end
    end
    wire        cnt_take = accept && (g_cnt || c_sub);   // COUNT(ccnt) or CNT_SUB(ccnt): greg[3:0] == ccnt
    wire [15:0] cnt_base = g_cnt ? req_data[15:0] : cnt[ccnt] - req_data[15:0];
    generate
        for (j = 0; j < NCNT; j = j + 1) begin : cflat
            assign cnt_flat[16 * j +: 16] = cnt[j];
        end
        for (j = 0; j < 4; j = j + 1) begin : wflat
            assign win_base_flat[AW * j +: AW]  = win_base[j];
            assign win_words_flat[CW * j +: CW] = win_words[j];
        end
    endgenerate
    wire targets_met = &tgt_met;
    wire plan_done   = targets_met && !(|t_plan_busy);

    // a window written: WIN_BASE word-aligned in the RAM (it closes the window: words 0),
    // then WIN_WORDS with base + words inside the RAM
    wire [CW:0]   w_win_end = {2'b00, win_base[wnum]} + {1'b0, w_n[CW-1:0]};
    wire          win_ok    = wreg ? (w_small && w_win_end <= {1'b0, RAM_WORDS} && req_data[31] == 1'b0)
                                   : w_addr_ok;

    // ---------------------------------------------------------------- read data
    wire [W-1:0] rx_flit   = ej_data[port * W +: W];
    wire         rx_valid  = |(rx_core_valid & port_sel);
    wire         rx_last   = |(ej_last & port_sel);
    wire         rx_head   = |(rx_at_head & port_sel);
    wire         tx_ready1 = |(tx_core_ready & port_sel);
    wire         tx_idle1  = |(tx_core_idle & port_sel);
    // masks of ports (P bits) and of engines (E bits) as the registers show them: 8 bits each.
    // Wires, not functions: Verilator numbers an inlined function's temporaries per instance,
    // and a mesh's tiles could then no longer share one body of simulation code.
    localparam ZP = 8 - P;                // DIMS <= 3: P <= 6, E <= 7
    localparam ZE = 8 - E;
    wire [7:0] rx_valid8    = {{ZP{1'b0}}, rx_core_valid};
    wire [7:0] rx_head8     = {{ZP{1'b0}}, rx_core_valid & rx_at_head};
    wire [7:0] tx_idle8     = {{ZP{1'b0}}, tx_core_idle};
    wire [7:0] tx_ready8    = {{ZP{1'b0}}, tx_core_ready};
    wire [7:0] refused8     = {{ZP{1'b0}}, refused};
    wire [7:0] r_idle8      = {{ZE{1'b0}}, ~r_raw_busy};
    wire [7:0] t_idle8      = {{ZE{1'b0}}, ~t_raw_busy};
    wire [7:0] r_ended8     = {{ZE{1'b0}}, r_end_last & ~r_raw_busy};
    wire [7:0] r_busy8      = {{ZE{1'b0}}, r_raw_busy};
    wire [7:0] t_busy8      = {{ZE{1'b0}}, t_raw_busy};
    wire [7:0] r_derr8      = {{ZE{1'b0}}, r_derr};
    wire [7:0] t_derr8      = {{ZE{1'b0}}, t_derr};
    wire [7:0] rx_mode8     = {{ZE{1'b0}}, rx_mode};
    wire [7:0] r_plan_busy8 = {{ZE{1'b0}}, r_plan_busy};
    wire [7:0] t_plan_busy8 = {{ZE{1'b0}}, t_plan_busy};
    wire [25:0]  irq_pend  = irq_enable & {|plan_error, plan_done, r_idle8, t_idle8, rx_valid8};
    localparam [7:0] P8 = P[7:0];
    localparam [7:0] W8 = W[7:0];
    localparam [7:0] D8 = INJ_DEPTH[7:0];
    localparam [3:0] DIMS4 = DIMS[3:0];
    localparam [7:0] L8 = L[7:0];
    reg  [31:0]  read_value;
    always @(*) begin
        read_value = 32'd0;
        if (p_rx)
            read_value = rx_flit[31:0];
        else if (p_stat)
            read_value = {22'd0, tx_idle1, tx_ready1, 5'd0, rx_valid && rx_last,
                          rx_valid && rx_head, rx_valid};
        else if (d_read)
            case (dreg)
                2'd0:    read_value = {RAM_BASE[31:TOP], t_ran[didx] ? t_raw_next[dport * AW +: AW] : t_idx[didx], 2'b00};
                2'd1:    read_value = {t_raw_end[didx], {(31-CW){1'b0}}, t_raw_left[dport * CW +: CW]};
                2'd2:    read_value = {RAM_BASE[31:TOP], r_ran[didx] ? r_raw_next[dport * AW +: AW] : r_idx[didx], 2'b00};
                default: read_value = {{(32-CW){1'b0}}, r_raw_left[dport * CW +: CW]};
            endcase
        else if (l_read)
            read_value = link_status[ccnt * 32 +: 32];
        else if (w_read)
            read_value = wreg ? {{(32-CW){1'b0}}, win_words[wnum]} : {RAM_BASE[31:TOP], win_base[wnum], 2'b00};
        else if (q_read)
            case (preg)
                2'd0:    read_value = {RAM_BASE[31:TOP], q_addr[pidx], 2'b00};
                2'd1:    read_value = {16'd0, t_plan_left[port * 16 +: 16]};
                default: read_value = {16'd0, t_plan_done[port * 16 +: 16]};
            endcase
        else if (greg >= G_TARGET)
            read_value = {tgt_on[greg[3:0]], 15'd0, tgt[greg[3:0]]};
        else if (greg >= G_CNT)
            read_value = {16'd0, cnt[greg[3:0]]};
        else
            case (greg)
                G_VERSION:       read_value = VERSION;
                G_COORD:         read_value = {8'd0, my_coord};
                G_SHAPE:         read_value = {3'd0, torus, DIMS4, dim_size};
                G_NODE:          read_value = {node_count, node_index};
                G_PORTS:         read_value = {8'd0, D8, W8, P8};
                G_RX_AVAIL:      read_value = {8'd0, rx_head8, 8'd0,
                                               rx_valid8};
                G_TX_STATUS:     read_value = {16'd0, tx_idle8, tx_ready8};
                G_ERROR:         read_value = {24'd0, refused8};
                G_REFUSED:       read_value = {err_count[15:0], refused_count};
                G_IRQ_ENABLE:    read_value = {6'd0, irq_enable};
                G_IRQ_PENDING:   read_value = {6'd0, irq_pend};
                G_DMA_STATUS:    read_value = {|{t_derr, r_derr}, 7'd0, r_ended8,
                                               r_busy8, t_busy8};
                G_DMA_ERROR:     read_value = {16'd0, r_derr8, t_derr8};
                G_EPOCH:         read_value = {28'd0, epoch};
                G_RX_MODE:       read_value = {24'd0, rx_mode8};
                G_PLAN_STATUS:   read_value = {|plan_error, 13'd0, plan_done, targets_met,
                                               r_plan_busy8, t_plan_busy8};
                G_PLAN_ERROR:    read_value = plan_error;
                G_PLAN_ERR_INFO: read_value = plan_err_info;
                G_LINE:          read_value = {7'd0, COMBINE != 0, 8'd16, L8, 8'd4};   // [24] combining puts; words: line, counters, descriptor
                default:         read_value = 32'd0;
            endcase
    end
    always @(posedge clk) begin
        if (accept && !req_write) resp_data <= read_value;
    end
    assign irq = |irq_pend;

    // ---------------------------------------------------------------- state updates
    wire       any_refused = |inj_error;
    reg  [2:0] refused_now;               // worms the router refused this cycle
    integer    rn;
    always @(*) begin
        refused_now = 3'd0;
        for (rn = 0; rn < P; rn = rn + 1) refused_now = refused_now + {2'd0, inj_error[rn]};
    end
    // the plan errors of the RX engines by kind (2: malformed), and of the TX engines
    reg  [E-1:0] malformed_e, unexpected_e;
    integer      me;
    always @(*) begin
        for (me = 0; me < E; me = me + 1) begin
            malformed_e[me]  = r_err[me] && r_err_kind[2 * me +: 2] == 2'd2;
            unexpected_e[me] = r_err[me] && r_err_kind[2 * me +: 2] != 2'd2;
        end
    end
    wire [7:0] malformed8  = {{ZE{1'b0}}, malformed_e};
    wire [7:0] unexpected8 = {{ZE{1'b0}}, unexpected_e};
    wire [7:0] t_err8      = {{ZE{1'b0}}, t_err};
    integer    k;
    always @(posedge clk) begin
        if (rst) begin
            refused       <= {P{1'b0}};
            refused_count <= 16'd0;
            irq_enable    <= 26'd0;
            rx_at_head    <= {P{1'b1}};
            epoch         <= 4'd0;
            rx_mode       <= {E{1'b0}};
            tgt_on        <= {NCNT{1'b0}};
            plan_error    <= 32'd0;
            plan_err_info <= 32'd0;
            for (k = 0; k < NCNT; k = k + 1) begin
                cnt[k] <= 16'd0;
                tgt[k] <= 16'd0;
            end
            for (k = 0; k < 4; k = k + 1) begin
                win_base[k]  <= {AW{1'b0}};
                win_words[k] <= {CW{1'b0}};
            end
            for (k = 0; k < E; k = k + 1) q_addr[k] <= {AW{1'b0}};
        end else begin
            refused <= (refused & ~((accept && g_w1c) ? req_data[P-1:0] : {P{1'b0}})) | inj_error;
            if (any_refused)
                refused_count <= (refused_count > 16'hfff9) ? 16'hffff
                                                            : refused_count + {13'd0, refused_now};
            if (accept && g_wirq) irq_enable <= req_data[25:0];
            rx_at_head <= (rx_at_head & ~ej_ready) | (ej_ready & ej_last);
            if (accept && g_epoch) epoch <= req_data[3:0];
            if (accept && g_mode)  rx_mode <= req_data[E-1:0];
            // counters: a write sets, CNT_SUB subtracts, worms counted add
            for (k = 0; k < NCNT; k = k + 1) begin
                cnt[k] <= ((cnt_take && ccnt == k[3:0]) ? cnt_base : cnt[k]) +
                          {{(16-IW){1'b0}}, incs[IW * k +: IW]};
                if (accept && g_tgt && greg[3:0] == k[3:0]) begin
                    tgt[k]    <= req_data[15:0];
                    tgt_on[k] <= req_data[31];
                end
            end
            if (accept && w_write) begin
                if (!wreg && win_ok) win_base[wnum] <= w_idx;
                // a refused write, and any base write, leaves the window taking nothing
                win_words[wnum] <= (wreg && win_ok) ? w_n[CW-1:0] : {CW{1'b0}};
            end
            if (accept && q_write && preg == 2'd0 && q_addr_ok && !(|(tx_busy & eng_sel)))
                q_addr[pidx] <= w_idx;
            // PLAN_ERROR: [7:0] a descriptor refused on port p, [15:8] an unexpected worm
            // on port p, [23:16] a malformed worm on port p, [24] a counter overflowed, [25] a
            // window write refused, [26] a plan list start or TXQ_ADDR write refused, [27]
            // the router refused a plan worm (a descriptor's route leaves the machine)
            plan_error <= (plan_error & ~((accept && g_perr) ? req_data : 32'd0)) |
                          {4'd0, |(inj_error & tx_busy[P-1:0]),
                           (accept && ((q_start && !q_ok) ||
                                       (q_write && preg == 2'd0 && (!q_addr_ok || |(tx_busy & eng_sel))))),
                           accept && w_write && !win_ok, |overflow_now,
                           malformed8,
                           unexpected8, t_err8};
            for (k = 0; k < E; k = k + 1) begin
                if (r_err[k])
                    plan_err_info[21:0] <= {r_err_kind[2 * k +: 2], k[3:0], r_err_src[16 * k +: 16]};
                if (t_err[k])
                    plan_err_info[29:24] <= {t_err_code[2 * k +: 2], k[3:0]};
            end
        end
    end

    // bits of the request the map does not use
    wire unused_ni = ^{req_offset[1:0], req_data, r_plan_busy, t_raw_left};
endmodule
