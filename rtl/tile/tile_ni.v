// tile_ni: the network interface of a tile. A slave on the core's data bus that decodes
// the NI window (the tile decodes 0x2000_0000-0x2fff_ffff and passes the low 12 bits;
// anything above 0x2000_0fff faults) and
// shows the core the router's 2*DIMS injection and 2*DIMS ejection channels as registers.
// The register map is in rtl/tile/README.md (the one definition).
//
// Queues: the transmit queue of port p is the router's injection buffer p (INJ_DEPTH
// flits), the receive queue of port p the router's input buffers of link p (VCS x
// BUF_DEPTH flits), drained through ejection channel p. The NI itself holds no flits, so
// it cannot lose one: a write to a full TX queue and a read of an empty RX queue wait
// (dmem_req_ready low) until the router can take or give the flit; the router's credit
// flow control never overruns an RX queue. A worm the router refuses at injection
// (its path would leave the mesh, exceed a ring, has no hop, or a bad start dimension)
// sets a sticky bit in ERROR and is counted in REFUSED. An access the map does not define
// (unknown offset, a write to a read-only register, a read of a write-only one, a store
// of fewer than 4 bytes, a port >= 2*DIMS) is answered with dmem_req_error: the core takes
// a load/store access fault.
//
// DMA: every port p has a TX engine (streams words of RAM into TX queue p, optionally
// marking the last one as the worm's last flit) and an RX engine (pops words of RX queue
// p into RAM, stopping at its count or after a worm's last flit). The engines are RAM bus
// masters on the dma_* port, which the tile shares with the core (tile.v arbitrates: the
// core and the DMA alternate when both want the RAM in the same cycle); among themselves
// the 2P engines take turns (noc_rr_arbiter). A TX engine reads a word only while its
// queue has a free slot and no word of its own is on the way; the word arrives on
// dma_rdata the next cycle and enters the queue then (the slot cannot have gone: only
// the engine fills that queue while it is busy, the router only empties it). An RX engine
// writes the front flit of its queue and pops it in the same cycle. While an engine of
// port p is busy the core's TX_DATA/TX_LAST (RX_DATA) accesses to port p wait, and the
// status registers show the queue as not ready (not holding a flit) for the core, so the
// words of a worm keep their order. Starts are checked: an address that is misaligned or
// outside the RAM, a count that runs past the RAM's end, or a start on a busy engine is
// refused (sticky bit in DMA_ERROR), so no engine ever touches anything outside the RAM.
//
// Timing: a request is decoded combinationally and answered the cycle it is offered
// (ready = 1) unless it must wait for a flit or a free slot; read data is registered and
// appears on resp_data the cycle after acceptance, as the core expects.
module tile_ni #(
    parameter        DIMS      = 2,
    parameter        FLIT_BITS = 32,         // the NI moves 32-bit flits: must be 32
    parameter        INJ_DEPTH = 4,          // reported in PORTS
    parameter        VCS       = 2,          // the router's buf_nonempty layout
    parameter [31:0] RAM_BASE  = 32'h8000_0000,
    parameter        RAM_BYTES = 65536,      // a power of two; RAM_BASE a multiple of it
    parameter        RAM_AW    = $clog2(RAM_BYTES / 4)   // derived: do not set
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
    output wire                        irq,          // an enabled RX queue holds a flit, or
                                                     // an enabled DMA engine is idle
    // RAM data port of the DMA engines (shared with the core; the tile arbitrates)
    output wire                        dma_req,      // an engine wants the RAM this cycle
    output wire                        dma_write,    // 1: write dma_wdata (all 4 bytes)
    output wire [RAM_AW-1:0]           dma_addr,     // word index in the RAM
    output wire [31:0]                 dma_wdata,
    input  wire                        dma_grant,    // the RAM does the access this cycle
    input  wire [31:0]                 dma_rdata,    // the word read, the cycle after grant
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
    input  wire [2*DIMS*(VCS+1)-1:0]   buf_nonempty
);
    localparam P = 2 * DIMS;
    localparam W = FLIT_BITS;
    localparam AW = RAM_AW;
    localparam CW = RAM_AW + 1;           // a DMA count: 0 .. all the RAM's words
    localparam TOP = RAM_AW + 2;          // first byte-address bit above the RAM
    localparam [31:0] VERSION = 32'h4e49_0002;   // "NI", version 2 (version 1 + DMA)
    localparam [CW-1:0] RAM_WORDS = {1'b1, {AW{1'b0}}};

    function [7:0] z8;                  // a port mask, zero-extended to 8 bits
        input [P-1:0] mask;
        begin
            z8 = 8'd0;
            z8[P-1:0] = mask;
        end
    endfunction
    function [2:0] popcount;
        input [P-1:0] mask;
        integer i;
        begin
            popcount = 3'd0;
            for (i = 0; i < P; i = i + 1) popcount = popcount + {2'd0, mask[i]};
        end
    endfunction

    // ---------------------------------------------------------------- decode
    // 0x000-0x0ff: global registers (word index g); 0x100 + 0x10*p + 4*r: port p, reg r;
    // 0x800 + 0x20*p + 4*r: DMA engines of port p, reg r (0..3)
    wire        is_port   = req_offset[11:8] == 4'h1;
    wire [3:0]  port      = req_offset[7:4];
    wire [1:0]  preg      = req_offset[3:2];
    wire [5:0]  greg      = req_offset[7:2];
    wire        is_global = req_offset[11:8] == 4'h0;
    wire        port_ok   = {28'd0, port} < P;
    wire        full_word = req_wstrb == 4'b1111;
    wire        is_dma    = req_offset[11:9] == 3'b100 && !req_offset[4];
    wire [3:0]  dport     = req_offset[8:5];
    wire [1:0]  dreg      = req_offset[3:2];  // 0 TX_ADDR, 1 TX_COUNT, 2 RX_ADDR, 3 RX_COUNT
    wire        dport_ok  = {28'd0, dport} < P;

    // port registers: 0 TX_DATA (W), 1 TX_LAST (W), 2 RX_DATA (R, pops), 3 PORT_STATUS (R)
    wire p_tx   = req_in_window && is_port && port_ok && req_write && full_word && !preg[1];
    wire p_rx   = req_in_window && is_port && port_ok && !req_write && preg == 2'd2;
    wire p_stat = req_in_window && is_port && port_ok && !req_write && preg == 2'd3;
    // DMA registers: all four read and write
    wire d_read  = req_in_window && is_dma && dport_ok && !req_write;
    wire d_write = req_in_window && is_dma && dport_ok && req_write && full_word;

    // global registers
    localparam G_VERSION = 6'd0, G_COORD = 6'd1, G_SHAPE = 6'd2, G_NODE = 6'd3,
               G_PORTS = 6'd4, G_RX_AVAIL = 6'd5, G_TX_STATUS = 6'd6, G_ERROR = 6'd7,
               G_REFUSED = 6'd8, G_IRQ_ENABLE = 6'd9, G_IRQ_PENDING = 6'd10,
               G_DMA_STATUS = 6'd11, G_DMA_ERROR = 6'd12;
    wire g_any  = req_in_window && is_global;
    wire g_read = g_any && !req_write && greg <= G_DMA_ERROR;
    wire g_w1c  = g_any && req_write && full_word && greg == G_ERROR;
    wire g_wirq = g_any && req_write && full_word && greg == G_IRQ_ENABLE;
    wire g_wdme = g_any && req_write && full_word && greg == G_DMA_ERROR;
    wire legal  = p_tx || p_rx || p_stat || g_read || g_w1c || g_wirq || g_wdme ||
                  d_read || d_write;

    // ---------------------------------------------------------------- state
    reg  [P-1:0]   refused;        // sticky: a worm injected on port p was refused
    reg  [15:0]    refused_count;  // refused worms, all ports (saturates)
    reg  [3*P-1:0] irq_enable;     // [P-1:0] RX flit, [2P-1:P] TX DMA idle, [3P-1:2P] RX DMA idle
    reg  [P-1:0]   rx_at_head;     // the next flit ejected on port p starts a worm

    wire [P-1:0] tx_idle;         // TX queue p empty: every flit written has gone or been refused
    genvar j;
    generate
        for (j = 0; j < P; j = j + 1) begin : tx_state
            assign tx_idle[j] = !buf_nonempty[P * VCS + j];
        end
    endgenerate
    // buf_nonempty also reports the network input buffers; the NI shows only the
    // injection side (the RX side is ej_valid)
    wire unused_bufs = ^buf_nonempty[P*VCS-1:0];

    // ---------------------------------------------------------------- DMA engine signals
    wire [P-1:0]    tx_busy;       // TX engine p: words left, or one on its way to the queue
    wire [P-1:0]    tx_fly;        // ... a word read last cycle enters TX queue p now
    wire [P-1:0]    tx_fly_last;   // ... and it is the worm's last flit
    wire [P-1:0]    rx_busy;       // RX engine p runs
    wire [P-1:0]    rx_end_last;   // RX engine p stopped after a worm's last flit
    wire [P-1:0]    tx_err, rx_err; // sticky: a start (or address write) was refused
    wire [2*P-1:0]  eng_want;      // [P-1:0] TX engines (reads), [2P-1:P] RX engines (writes)
    wire [2*P-1:0]  eng_pick;      // one-hot: the engine that gets the RAM if it is granted
    wire [P*32-1:0] tx_addr_rd, tx_count_rd, rx_addr_rd, rx_count_rd;  // register values
    wire [P*AW-1:0] eng_tx_idx, eng_rx_idx;
    wire [P*CW-1:0] eng_tx_left, eng_rx_left;

    // ---------------------------------------------------------------- core access
    // what the core sees of the queues: nothing of a port whose engine is busy
    wire [P-1:0] tx_core_ready = inj_ready & ~tx_busy;
    wire [P-1:0] tx_core_idle  = tx_idle & ~tx_busy;
    wire [P-1:0] rx_core_valid = ej_valid & ~rx_busy;

    // waiting: the flit or the free slot the request needs is not there yet
    wire [P-1:0] port_sel = {{(P-1){1'b0}}, 1'b1} << port;
    // (the TX queues share one data bus: a core store waits while an engine's word enters
    // any queue, at most one cycle)
    wire wait_tx = p_tx && (!(|(tx_core_ready & port_sel)) || (|tx_fly));
    wire wait_rx = p_rx && !(|(rx_core_valid & port_sel));

    always @(*) begin
        req_ready = req_valid && (!legal || !(wait_tx || wait_rx));
        req_error = !legal;
    end
    wire accept = req_valid && req_ready && legal;

    // ---------------------------------------------------------------- DMA registers and engines
    wire         dma_wr  = accept && d_write;
    wire [AW-1:0] w_idx  = req_data[TOP-1:2];
    wire          w_addr_ok = req_data[1:0] == 2'b00 && req_data[31:TOP] == RAM_BASE[31:TOP];
    wire [31:0]   w_n    = {1'b0, req_data[30:0]};                 // a count written
    wire          w_zero = w_n == 32'd0;

    // a count written fits when the addressed engine's next word index i and the count n
    // stay inside the RAM: i + n <= RAM_WORDS (one comparator for all engines: a store
    // addresses one engine)
    reg [AW-1:0] w_eng_idx;
    integer     x;
    always @(*) begin
        w_eng_idx = {AW{1'b0}};
        for (x = 0; x < P; x = x + 1)
            if (dport == x[3:0])
                w_eng_idx = dreg[1] ? eng_rx_idx[x * AW +: AW] : eng_tx_idx[x * AW +: AW];
    end
    wire [CW-1:0] w_room = RAM_WORDS - {1'b0, w_eng_idx};
    wire          w_fits = w_n <= {{(32-CW){1'b0}}, w_room};

    // the engines take turns at the RAM; the tile grants the RAM against the core
    noc_rr_arbiter #(.N(2 * P)) dma_arb (
        .clk(clk), .rst(rst), .req(eng_want), .advance(dma_grant), .grant(eng_pick)
    );
    assign dma_req = |eng_want;
    // the picked engine's address, words left and (RX) flit; one incrementer and one
    // decrementer serve all engines (only the granted one moves)
    reg [AW-1:0] pick_idx;
    reg [CW-1:0] pick_left;
    reg [W-1:0]  pick_data;
    integer e;
    always @(*) begin
        pick_idx  = {AW{1'b0}};
        pick_left = {CW{1'b0}};
        pick_data = {W{1'b0}};
        for (e = 0; e < P; e = e + 1) begin
            if (eng_pick[e]) begin
                pick_idx  = pick_idx | eng_tx_idx[e * AW +: AW];
                pick_left = pick_left | eng_tx_left[e * CW +: CW];
            end
            if (eng_pick[P + e]) begin
                pick_idx  = pick_idx | eng_rx_idx[e * AW +: AW];
                pick_left = pick_left | eng_rx_left[e * CW +: CW];
                pick_data = pick_data | ej_data[e * W +: W];
            end
        end
    end
    wire [AW-1:0] next_idx   = pick_idx + {{(AW-1){1'b0}}, 1'b1};
    wire [CW-1:0] next_left  = pick_left - {{(CW-1){1'b0}}, 1'b1};
    wire          pick_final = pick_left == {{(CW-1){1'b0}}, 1'b1};   // its last word
    assign dma_addr  = pick_idx;
    assign dma_write = |eng_pick[2*P-1:P];
    assign dma_wdata = pick_data[31:0];

    generate
        for (j = 0; j < P; j = j + 1) begin : dma
            localparam [3:0] J4 = j[3:0];
            wire w_tx_addr  = dma_wr && dport == J4 && dreg == 2'd0;
            wire w_tx_count = dma_wr && dport == J4 && dreg == 2'd1;
            wire w_rx_addr  = dma_wr && dport == J4 && dreg == 2'd2;
            wire w_rx_count = dma_wr && dport == J4 && dreg == 2'd3;

            reg  [AW-1:0] t_idx, r_idx;     // next word index
            reg  [CW-1:0] t_left, r_left;   // words left
            reg           t_end;            // the last word ends the worm
            reg           t_fly, t_fly_last;
            reg           r_on, r_end_last;
            reg           t_err, r_err;
            reg           t_bad, r_bad;     // the last address write was refused: no start
            wire          t_gnt = dma_grant && eng_pick[j];
            wire          r_gnt = dma_grant && eng_pick[P + j];
            assign tx_busy[j]     = t_left != {CW{1'b0}} || t_fly;
            assign tx_fly[j]      = t_fly;
            assign tx_fly_last[j] = t_fly_last;
            assign rx_busy[j]     = r_on;
            assign rx_end_last[j] = r_end_last;
            assign tx_err[j]      = t_err;
            assign rx_err[j]      = r_err;
            // a TX read only into a free slot, one word at a time (see the header)
            assign eng_want[j]     = t_left != {CW{1'b0}} && !t_fly && inj_ready[j];
            assign eng_want[P + j] = r_on && ej_valid[j];
            assign eng_tx_idx[j * AW +: AW] = t_idx;
            assign eng_rx_idx[j * AW +: AW] = r_idx;
            assign eng_tx_left[j * CW +: CW] = t_left;
            assign eng_rx_left[j * CW +: CW] = r_left;
            assign tx_addr_rd[j * 32 +: 32]  = {RAM_BASE[31:TOP], t_idx, 2'b00};
            assign tx_count_rd[j * 32 +: 32] = {t_end, {(31-CW){1'b0}}, t_left};
            assign rx_addr_rd[j * 32 +: 32]  = {RAM_BASE[31:TOP], r_idx, 2'b00};
            assign rx_count_rd[j * 32 +: 32] = {{(32-CW){1'b0}}, r_left};

            wire t_bad_addr = w_tx_addr && (tx_busy[j] || !w_addr_ok);
            wire r_bad_addr = w_rx_addr && (r_on || !w_addr_ok);
            wire t_refuse = t_bad_addr ||
                            (w_tx_count && !w_zero && (tx_busy[j] || t_bad || !w_fits));
            wire r_refuse = r_bad_addr ||
                            (w_rx_count && !w_zero && (r_on || r_bad || !w_fits));
            wire w1c = accept && g_wdme;

            always @(posedge clk) begin
                if (rst) begin
                    t_idx      <= {AW{1'b0}};
                    r_idx      <= {AW{1'b0}};
                    t_left     <= {CW{1'b0}};
                    r_left     <= {CW{1'b0}};
                    t_end      <= 1'b0;
                    t_fly      <= 1'b0;
                    t_fly_last <= 1'b0;
                    r_on       <= 1'b0;
                    r_end_last <= 1'b0;
                    t_err      <= 1'b0;
                    r_err      <= 1'b0;
                    t_bad      <= 1'b0;
                    r_bad      <= 1'b0;
                end else begin
                    // the engines
                    t_fly <= t_gnt;
                    if (t_gnt) begin
                        t_idx      <= next_idx;
                        t_left     <= next_left;
                        t_fly_last <= t_end && pick_final;
                    end
                    if (r_gnt) begin
                        r_idx  <= next_idx;
                        r_left <= next_left;
                        if (ej_last[j] || pick_final)
                            r_on <= 1'b0;
                        if (ej_last[j])
                            r_end_last <= 1'b1;
                    end
                    // the core's writes (a count of 0 stops the engine: never refused;
                    // a TX word already read still enters the queue)
                    if (w_tx_addr) t_bad <= t_bad_addr;
                    if (w_rx_addr) r_bad <= r_bad_addr;
                    if (w_tx_addr && !t_refuse)
                        t_idx <= w_idx;
                    if (w_tx_count && w_zero)
                        t_left <= {CW{1'b0}};
                    else if (w_tx_count && !t_refuse) begin
                        t_left <= w_n[CW-1:0];
                        t_end  <= req_data[31];
                    end
                    if (w_rx_addr && !r_refuse)
                        r_idx <= w_idx;
                    if (w_rx_count && w_zero) begin
                        r_left <= {CW{1'b0}};
                        r_on   <= 1'b0;
                    end else if (w_rx_count && !r_refuse) begin
                        r_left     <= w_n[CW-1:0];
                        r_on       <= 1'b1;
                        r_end_last <= 1'b0;
                    end
                    // sticky errors: set by a refused write, cleared by writing 1s
                    t_err <= (t_err && !(w1c && req_data[j])) || t_refuse;
                    r_err <= (r_err && !(w1c && req_data[8 + j])) || r_refuse;
                end
            end
        end
    endgenerate



    wire [P-1:0] core_tx = (accept && p_tx) ? port_sel : {P{1'b0}};
    assign inj_valid = core_tx | tx_fly;
    assign inj_last  = (preg[0] ? core_tx : {P{1'b0}}) | (tx_fly & tx_fly_last);
    wire [W-1:0] tx_word = (|tx_fly) ? dma_rdata : req_data;
    generate
        for (j = 0; j < P; j = j + 1) begin : tx_data
            assign inj_data[j * W +: W] = tx_word;
        end
    endgenerate
    assign ej_ready = ((accept && p_rx) ? port_sel : {P{1'b0}}) |
                      (dma_grant ? eng_pick[2*P-1:P] : {P{1'b0}});

    // ---------------------------------------------------------------- read data
    wire [W-1:0] rx_flit   = ej_data[port * W +: W];
    wire         rx_valid  = |(rx_core_valid & port_sel);
    wire         rx_last   = |(ej_last & port_sel);
    wire         rx_head   = |(rx_at_head & port_sel);
    wire         tx_ready1 = |(tx_core_ready & port_sel);
    wire         tx_idle1  = |(tx_core_idle & port_sel);
    wire [3*P-1:0] irq_pend3 = {irq_enable[3*P-1:2*P] & ~rx_busy,
                                irq_enable[2*P-1:P] & ~tx_busy,
                                irq_enable[P-1:0] & rx_core_valid};
    localparam [7:0] P8 = P[7:0];
    localparam [7:0] W8 = W[7:0];
    localparam [7:0] D8 = INJ_DEPTH[7:0];
    localparam [3:0] DIMS4 = DIMS[3:0];
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
                2'd0:    read_value = tx_addr_rd[dport * 32 +: 32];
                2'd1:    read_value = tx_count_rd[dport * 32 +: 32];
                2'd2:    read_value = rx_addr_rd[dport * 32 +: 32];
                default: read_value = rx_count_rd[dport * 32 +: 32];
            endcase
        else
            case (greg)
                G_VERSION:     read_value = VERSION;
                G_COORD:       read_value = {8'd0, my_coord};
                G_SHAPE:       read_value = {3'd0, torus, DIMS4, dim_size};
                G_NODE:        read_value = {node_count, node_index};
                G_PORTS:       read_value = {8'd0, D8, W8, P8};
                G_RX_AVAIL:    read_value = {8'd0, z8(rx_core_valid & rx_at_head), 8'd0,
                                             z8(rx_core_valid)};
                G_TX_STATUS:   read_value = {16'd0, z8(tx_core_idle), z8(tx_core_ready)};
                G_ERROR:       read_value = {24'd0, z8(refused)};
                G_REFUSED:     read_value = {err_count[15:0], refused_count};
                G_IRQ_ENABLE:  read_value = {8'd0, z8(irq_enable[3*P-1:2*P]),
                                             z8(irq_enable[2*P-1:P]), z8(irq_enable[P-1:0])};
                G_IRQ_PENDING: read_value = {8'd0, z8(irq_pend3[3*P-1:2*P]),
                                             z8(irq_pend3[2*P-1:P]), z8(irq_pend3[P-1:0])};
                G_DMA_STATUS:  read_value = {|{tx_err, rx_err}, 7'd0, z8(rx_end_last),
                                             z8(rx_busy), z8(tx_busy)};
                G_DMA_ERROR:   read_value = {16'd0, z8(rx_err), z8(tx_err)};
                default:       read_value = 32'd0;
            endcase
    end

    always @(posedge clk) begin
        if (accept && !req_write) resp_data <= read_value;
    end

    assign irq = |irq_pend3;

    // ---------------------------------------------------------------- state updates
    wire       any_refused = |inj_error;
    wire [2:0] refused_now = popcount(inj_error);
    always @(posedge clk) begin
        if (rst) begin
            refused       <= {P{1'b0}};
            refused_count <= 16'd0;
            irq_enable    <= {3*P{1'b0}};
            rx_at_head    <= {P{1'b1}};
        end else begin
            refused <= (refused & ~((accept && g_w1c) ? req_data[P-1:0] : {P{1'b0}})) | inj_error;
            if (any_refused)
                refused_count <= (refused_count > 16'hfff9) ? 16'hffff
                                                            : refused_count + {13'd0, refused_now};
            if (accept && g_wirq)
                irq_enable <= {req_data[16 +: P], req_data[8 +: P], req_data[0 +: P]};
            rx_at_head <= (rx_at_head & ~ej_ready) | (ej_ready & ej_last);
        end
    end

    // bits of the request the map does not use
    wire unused_ni = ^{req_offset[1:0], req_data};
endmodule
