// SPDX-License-Identifier: ISC
// ni_tx_engine: the transmit engine of one NI port (tile_ni has one per port). It feeds the
// router's injection channel of its port from RAM, in one of two modes:
//   raw  (NI version 2's TX DMA): `raw_count` words from `raw_addr` on, the last one marked
//        as the worm's last flit when `raw_last`; the core writes the worm's head itself;
//   plan (version 3): a list of `plan_count` 16-byte send descriptors from `plan_addr` on
//        (rtl/tile/README.md, "Plans"). For each, in order: wait until its trigger counter
//        reaches its threshold, then send the worm: the descriptor's head, the info flit
//        (this node, the worm's length), its put flit (with this NI's epoch filled in) and
//        the payload from RAM.
// Words come from RAM a line (LINE_WORDS words) per access into a FIFO of FIFO_WORDS words,
// so one engine sends a flit every cycle while it needs a RAM access only every
// LINE_WORDS cycles. The next descriptor is fetched while the payload of the current one
// streams and taken as its last flit goes: when its trigger has already fired, its head
// follows that flit in the next cycle (worms of a list back to back, no idle cycle). A
// payload is read only after its trigger fired (it may be a piece that just arrived), never
// before. A *paced* descriptor (word 2 bit 21; built only with lines of 4 words or more)
// relays a piece while it arrives (cut-through): its payload's j-th line is read only once
// its counter has reached threshold + j, for a piece whose put is counted a line at a time
// (ni_rx_engine), so the engine reads each line after the RX engine has written it.
// A descriptor is checked before anything of its worm is sent: a payload outside the RAM,
// a length that overflows the info flit, reserved bits set (a kind other than a put, a
// signal or, with COMBINE, a combining put), or a signal with a payload
// stops the list (plan_error, the code in plan_error_code): no flit of it is sent.
module ni_tx_engine #(
    parameter AW         = 15,          // RAM word-index bits
    parameter COMBINE    = 0,           // 1: descriptors of combining puts (kinds 2-9) are sent
    parameter LINE_WORDS = 16,          // words per RAM access (a power of two)
    parameter LB         = (LINE_WORDS <= 1) ? 0 : $clog2(LINE_WORDS),   // derived
    parameter FIFO_WORDS = (2 * LINE_WORDS < 4) ? 4 : 2 * LINE_WORDS,   // derived
    parameter FB         = $clog2(FIFO_WORDS)                           // derived
) (
    input  wire                   clk,
    input  wire                   rst,
    // raw mode (v2 DMA)
    input  wire                   raw_start,
    input  wire [AW-1:0]          raw_addr,     // word index of the first word
    input  wire [AW:0]            raw_count,    // words (> 0)
    input  wire                   raw_last,     // the last word ends the worm
    input  wire                   raw_stop,     // stop; words not yet sent are dropped
    output wire                   raw_busy,
    output reg  [AW:0]            raw_left,     // words not yet sent
    output reg  [AW-1:0]          raw_next,     // word index of the next word to send
    output reg                    raw_end,      // raw_last as given to the last start
    // plan mode (v3)
    input  wire                   plan_start,
    input  wire [AW-1:0]          plan_addr,    // word index of the first descriptor (4-aligned)
    input  wire [15:0]            plan_count,   // descriptors (> 0)
    input  wire                   plan_stop,    // abandon the list
    output wire                   plan_busy,    // descriptors left, or one being sent
    output reg  [15:0]            plan_left,    // descriptors not yet sent
    output reg  [15:0]            plan_done,    // descriptors sent since the last start
    output reg                    plan_error,   // pulse: a descriptor was refused
    output reg  [1:0]             plan_error_code, // 1 payload outside RAM, 2 length, 3 reserved bits
    input  wire [15:0]            node_index,
    input  wire [3:0]             epoch,
    input  wire [16*16-1:0]       counters,     // the NI's counters, counter c in [16c+15:16c]
    // RAM (through tile_ni's arbiter): a line read, data the cycle after the grant
    output wire                   m_req,
    output wire [AW-LB-1:0]       m_line,
    input  wire                   m_grant,
    input  wire [32*LINE_WORDS-1:0] m_rdata,
    // the router's injection channel
    output wire                   inj_valid,
    input  wire                   inj_ready,
    output reg  [31:0]            inj_data,
    output reg                    inj_last
);
    localparam L = LINE_WORDS;
    localparam [AW:0] RAM_WORDS = {1'b1, {AW{1'b0}}};

    // ------------------------------------------------------------------ state
    localparam NW = 6;                        // width of counts of words in a line (<= 32)
    localparam [NW-1:0] LN = L[NW-1:0];
    localparam [AW-1:0] LMASK = L[AW-1:0] - {{(AW-1){1'b0}}, 1'b1};
    // the payload fetch: words still to read from RAM, from pf_idx on
    reg  [AW-1:0] pf_idx;
    reg  [AW:0]   pf_left;
    // the next descriptor: its address, its words requested and arrived, and them
    reg  [AW-1:0] nd_addr;        // word index of the next descriptor to fetch
    reg  [15:0]   nd_togo;        // descriptors not yet fetched
    reg  [2:0]    nd_have;        // words of it requested (4: all)
    reg  [2:0]    nd_got;         // words of it arrived (4: complete)
    reg  [31:0]   nd_w0, nd_w1, nd_w2, nd_w3;
    // the read in flight (granted last cycle): what its words are for
    reg           rd_valid, rd_desc;
    reg  [NW-1:0] rd_n;           // words of the line wanted
    reg  [NW-1:0] rd_off;         // first word wanted, in the line
    reg  [2:0]    rd_slot;        // descriptor word the first one is (rd_desc)
    // the FIFO of payload words
    reg  [31:0]   fifo [0:FIFO_WORDS-1];
    reg  [FB-1:0] f_rd, f_wr;
    reg  [FB:0]   f_count;
    // the descriptor being sent
    localparam S_IDLE = 3'd0, S_WAIT = 3'd1, S_HEAD = 3'd2, S_INFO = 3'd3, S_PUT = 3'd4,
               S_PAY = 3'd5, S_RAW = 3'd6;
    reg  [2:0]    state;
    reg  [31:0]   cd_head, cd_put;
    reg  [15:0]   cd_words, cd_thr;
    reg  [AW-1:0] cd_idx;
    reg  [3:0]    cd_cnt;
    reg           cd_trig;
    reg           cd_pace;        // paced: line j of the payload waits for the counter
    reg  [15:0]   pf_thr;         // the count the next payload line read waits for (paced)
    reg  [15:0]   sent_left;      // payload words of the current worm not yet sent

    // ------------------------------------------------------------------ the next descriptor
    wire        nd_full  = nd_got == 3'd4;
    wire [15:0] nd_words = nd_w1[31:16];
    wire [15:0] nd_first = nd_w1[15:0];
    wire [31:0] nd_end   = {16'd0, nd_first} + {16'd0, nd_words};
    wire [31:0] ram_words32 = {{(31-AW){1'b0}}, RAM_WORDS};
    wire        nd_in_ram = nd_words == 16'd0 || nd_end <= ram_words32;
    wire [3:0]  nd_kind  = nd_w3[31:28];
    wire        nd_len_ok = nd_words <= 16'd65532;
    wire        nd_rsv_ok = nd_w2[31:22] == 10'd0 && (PACE || !nd_w2[21]) && !nd_w3[27] &&
                            (nd_kind == 4'd0 || (nd_kind == 4'd1 && nd_words == 16'd0 && !nd_w3[26]) ||
                             (COMBINE != 0 && nd_kind >= 4'd2 && nd_kind <= 4'd9));
    wire [1:0]  nd_bad   = !nd_in_ram ? 2'd1 : !nd_len_ok ? 2'd2 : !nd_rsv_ok ? 2'd3 : 2'd0;
    wire [31:0] cd_words32 = {16'd0, cd_words};
    wire [31:0] nd_words32 = {16'd0, nd_words};

    // ------------------------------------------------------------------ trigger
    // one comparator: in S_WAIT it watches the current descriptor's trigger; in every other
    // state the next descriptor's, so that a descriptor whose trigger has already fired is
    // taken and its head sent in the cycle after the last flit of the worm before it
    // (with lines under 4 words a descriptor takes several reads that start only once the
    // payload before it is requested, so it is never ready at a worm's end: the engine keeps
    // one state to take it and one to test its trigger, and saves the comparator's mux)
    localparam EARLY_TAKE = LINE_WORDS >= 4;
    localparam PACE       = LINE_WORDS >= 4;     // paced descriptors (cut-through relays)
    wire        trig_use_nd = EARLY_TAKE && state != S_WAIT;
    wire [3:0]  trig_cnt   = trig_use_nd ? nd_w2[19:16] : cd_cnt;
    wire [15:0] trig_thr   = trig_use_nd ? nd_w2[15:0] : cd_thr;
    wire        trig_on    = trig_use_nd ? nd_w2[20] : cd_trig;
    wire [15:0] trig_value = counters[16 * trig_cnt +: 16];
    wire [15:0] trig_diff  = trig_value - trig_thr;
    wire        trig_ok    = !trig_on || !trig_diff[15];   // modular: counter >= threshold
    // pacing (a paced descriptor's payload reads): the counter against pf_thr
    wire [15:0] pace_value = counters[16 * cd_cnt +: 16];
    wire [15:0] pace_diff  = pace_value - pf_thr;
    wire        pace_ok    = !PACE || !cd_pace || !pace_diff[15];

    // ------------------------------------------------------------------ RAM reads
    // a payload read when the FIFO has room for its words (and those already on the way);
    // else, with no payload left to read, a descriptor read while the next one is incomplete
    wire [AW-1:0] pf_off_w = pf_idx & LMASK;
    wire [NW-1:0] pf_off   = pf_off_w[NW-1:0];
    wire [NW-1:0] pf_room  = LN - pf_off;
    wire [NW-1:0] pf_n     = (pf_left < {{(AW+1-NW){1'b0}}, pf_room}) ? pf_left[NW-1:0] : pf_room;
    wire [FB+NW:0] f_after = {{NW{1'b0}}, f_count} +
                             {{(FB+1){1'b0}}, (rd_valid && !rd_desc) ? rd_n : {NW{1'b0}}} +
                             {{(FB+1){1'b0}}, pf_n};
    wire        want_pf = pf_left != {(AW+1){1'b0}} && f_after <= FIFO_WORDS[FB+NW:0] && pace_ok;
    wire [AW-1:0] nd_word   = nd_addr + {{(AW-3){1'b0}}, nd_have};
    wire [AW-1:0] nd_off_w  = nd_word & LMASK;
    wire [NW-1:0] nd_off    = nd_off_w[NW-1:0];
    wire [NW-1:0] nd_room   = LN - nd_off;
    wire [NW-1:0] nd_need   = {{(NW-3){1'b0}}, 3'd4 - nd_have};
    wire [NW-1:0] nd_n      = (nd_need < nd_room) ? nd_need : nd_room;
    wire        want_nd = pf_left == {(AW+1){1'b0}} && nd_togo != 16'd0 && nd_have != 3'd4 &&
                          state != S_RAW;
    assign m_req  = want_pf || want_nd;
    assign m_line = want_pf ? pf_idx[AW-1:LB] : nd_word[AW-1:LB];

    // ------------------------------------------------------------------ sending
    wire        f_has  = f_count != {(FB+1){1'b0}};
    wire [31:0] f_head = fifo[f_rd];
    reg         send_valid;
    always @(*) begin
        send_valid = 1'b0;
        inj_data   = 32'd0;
        inj_last   = 1'b0;
        case (state)
            S_HEAD: begin send_valid = 1'b1; inj_data = cd_head; end
            S_INFO: begin send_valid = 1'b1; inj_data = {cd_words + 16'd3, node_index}; end
            S_PUT: begin
                send_valid = 1'b1;
                inj_data   = {cd_put[31:26], epoch, cd_put[21:0]};
                inj_last   = cd_words == 16'd0;
            end
            S_PAY: begin
                send_valid = f_has;
                inj_data   = f_head;
                inj_last   = sent_left == 16'd1;
            end
            S_RAW: begin
                send_valid = f_has;
                inj_data   = f_head;
                inj_last   = raw_end && raw_left == {{AW{1'b0}}, 1'b1};
            end
            default: ;
        endcase
    end
    assign inj_valid = send_valid;
    wire sent = send_valid && inj_ready;
    wire pop  = sent && (state == S_PAY || state == S_RAW);

    // the next descriptor is taken when the engine is idle, or as the current worm's last
    // flit goes (no idle cycle between the worms of a list)
    wire worm_end = (state == S_PUT && sent && cd_words == 16'd0) ||
                    (state == S_PAY && pop && sent_left == 16'd1);
    wire take     = nd_full && ((EARLY_TAKE && worm_end) || (state == S_IDLE && !raw_start && !plan_start));

    assign raw_busy  = state == S_RAW;
    assign plan_busy = plan_left != 16'd0;

    // ------------------------------------------------------------------ the FIFO and reads
    wire [NW-1:0] fifo_in = (rd_valid && !rd_desc) ? rd_n : {NW{1'b0}};
    // descriptor word d of the read in flight: word rd_off + d - rd_slot of the line
    reg [3:0]   nd_take;
    reg [127:0] nd_in;
    integer d, at;
    always @(*) begin
        nd_take = 4'd0;
        nd_in   = 128'd0;
        for (d = 0; d < 4; d = d + 1) begin
            at = {{(32-NW){1'b0}}, rd_off} + d - {29'd0, rd_slot};
            if (d >= {29'd0, rd_slot} && d < {29'd0, rd_slot} + {{(32-NW){1'b0}}, rd_n} && at < L) begin
                nd_take[d] = 1'b1;
                nd_in[32 * d +: 32] = m_rdata[32 * at +: 32];
            end
        end
    end
    integer i;
    always @(posedge clk) begin
        if (rd_valid && !rd_desc)
            for (i = 0; i < L; i = i + 1)
                if (i < {{(32-NW){1'b0}}, rd_n})
                    fifo[(f_wr + i[FB-1:0]) & FIFO_WORDS[FB-1:0] - 1'b1] <= m_rdata[32 * ({{(32-NW){1'b0}}, rd_off} + i) +: 32];
        // descriptor words arriving
        if (rd_valid && rd_desc) begin
            if (nd_take[0]) nd_w0 <= nd_in[0 +: 32];
            if (nd_take[1]) nd_w1 <= nd_in[32 +: 32];
            if (nd_take[2]) nd_w2 <= nd_in[64 +: 32];
            if (nd_take[3]) nd_w3 <= nd_in[96 +: 32];
        end
    end

    wire stop = raw_stop || plan_stop;
    always @(posedge clk) begin
        if (rst || stop) begin
            rd_valid  <= 1'b0;
            rd_desc   <= 1'b0;
            rd_n      <= {NW{1'b0}};
            rd_off    <= {NW{1'b0}};
            rd_slot   <= 3'd0;
            f_rd      <= {FB{1'b0}};
            f_wr      <= {FB{1'b0}};
            f_count   <= {(FB+1){1'b0}};
            pf_idx    <= {AW{1'b0}};
            pf_left   <= {(AW+1){1'b0}};
            nd_addr   <= {AW{1'b0}};
            nd_togo   <= 16'd0;
            nd_have   <= 3'd0;
            nd_got    <= 3'd0;
            state     <= S_IDLE;
            raw_left  <= {(AW+1){1'b0}};
            plan_left <= 16'd0;
            cd_trig   <= 1'b0;
            cd_pace   <= 1'b0;
            pf_thr    <= 16'd0;
            sent_left <= 16'd0;
            if (rst) begin
                raw_next  <= {AW{1'b0}};
                raw_end   <= 1'b0;
                plan_done <= 16'd0;
            end
            plan_error      <= 1'b0;
            plan_error_code <= 2'd0;
        end else begin
            plan_error <= 1'b0;
            // a read granted: remember what comes back next cycle
            rd_valid <= m_grant;
            if (m_grant) begin
                rd_desc <= !want_pf;
                if (want_pf) begin
                    pf_thr  <= pf_thr + 16'd1;
                    rd_n    <= pf_n;
                    rd_off  <= pf_off;
                    pf_idx  <= pf_idx + {{(AW-NW){1'b0}}, pf_n};
                    pf_left <= pf_left - {{(AW+1-NW){1'b0}}, pf_n};
                end else begin
                    rd_n    <= nd_n;
                    rd_off  <= nd_off;
                    rd_slot <= nd_have;
                    nd_have <= nd_have + nd_n[2:0];
                end
            end
            if (rd_valid && rd_desc) nd_got <= nd_got + rd_n[2:0];
            // the FIFO's counts
            f_wr    <= f_wr + fifo_in[FB-1:0];
            if (pop) f_rd <= f_rd + {{(FB-1){1'b0}}, 1'b1};
            f_count <= f_count + fifo_in[FB:0] - {{FB{1'b0}}, pop};

            // the sender
            case (state)
                S_IDLE: begin
                    if (raw_start) begin
                        state    <= S_RAW;
                        cd_pace  <= 1'b0;
                        pf_idx   <= raw_addr;
                        pf_left  <= raw_count;
                        raw_left <= raw_count;
                        raw_next <= raw_addr;
                        raw_end  <= raw_last;
                    end else if (plan_start) begin
                        nd_addr   <= plan_addr;
                        nd_togo   <= plan_count;
                        nd_have   <= 3'd0;
                        nd_got    <= 3'd0;
                        plan_left <= plan_count;
                        plan_done <= 16'd0;
                    end
                end
                S_WAIT: if (trig_ok) begin
                    state     <= S_HEAD;
                    pf_thr    <= cd_thr;
                    pf_idx    <= cd_idx;
                    pf_left   <= cd_words32[AW:0];
                    sent_left <= cd_words;
                end
                S_HEAD: if (sent) state <= S_INFO;
                S_INFO: if (sent) state <= S_PUT;
                S_PUT: if (sent) begin
                    if (cd_words == 16'd0) begin
                        state     <= S_IDLE;
                        plan_left <= plan_left - 16'd1;
                        plan_done <= plan_done + 16'd1;
                    end else
                        state <= S_PAY;
                end
                S_PAY: if (pop) begin
                    sent_left <= sent_left - 16'd1;
                    if (sent_left == 16'd1) begin
                        state     <= S_IDLE;
                        plan_left <= plan_left - 16'd1;
                        plan_done <= plan_done + 16'd1;
                    end
                end
                S_RAW: if (pop) begin
                    raw_left <= raw_left - {{AW{1'b0}}, 1'b1};
                    raw_next <= raw_next + {{(AW-1){1'b0}}, 1'b1};
                    if (raw_left == {{AW{1'b0}}, 1'b1}) state <= S_IDLE;
                end
                default: state <= S_IDLE;
            endcase
            // take the next descriptor (after the case: it overrides the worm's end): check
            // it, then send it at once if its trigger has fired, else wait for it
            if (take) begin
                nd_have <= 3'd0;
                nd_got  <= 3'd0;
                if (nd_bad != 2'd0) begin
                    plan_error      <= 1'b1;
                    plan_error_code <= nd_bad;
                    nd_togo   <= 16'd0;
                    plan_left <= 16'd0;
                    state     <= S_IDLE;
                end else begin
                    cd_head  <= nd_w0;
                    cd_idx   <= nd_first[AW-1:0];
                    cd_words <= nd_words;
                    cd_thr   <= nd_w2[15:0];
                    cd_cnt   <= nd_w2[19:16];
                    cd_trig  <= nd_w2[20];
                    cd_pace  <= PACE && nd_w2[21];
                    cd_put   <= nd_w3;
                    nd_togo  <= nd_togo - 16'd1;
                    nd_addr  <= nd_addr + {{(AW-3){1'b0}}, 3'd4};
                    if (EARLY_TAKE && trig_ok) begin
                        state     <= S_HEAD;
                        pf_thr    <= nd_w2[15:0];
                        pf_idx    <= nd_first[AW-1:0];
                        pf_left   <= nd_words32[AW:0];
                        sent_left <= nd_words;
                    end else
                        state <= S_WAIT;
                end
            end
        end
    end

    // bits the engine does not use: the put flit's epoch (the NI's own goes out) and the
    // high bits of wide intermediates
    wire unused_tx = ^{cd_put[25:22], cd_words32, nd_words32, trig_diff[14:0], pace_diff[14:0], pf_off_w,
                       nd_off_w, fifo_in};
endmodule
