// SPDX-License-Identifier: ISC
// link_tx: the sending half of a board link (link_phy holds the protocol; the frame layout
// is drawn in rtl/link/README.md).
//
// It takes the flits of the local router's output link into a queue and sends frames on
// LANES pins, one symbol (LANES bits) every OVERSAMPLE cycles. Every frame has the same
// length: a head (start bit, flit flag, hear flag, the flit's last and vc), the flit's
// data (zeros without a flit), the credits the local router has returned since the last
// frame (one per VC at most), and 8 check bits. A frame goes out
//   - for every queued flit (send_data);
//   - with no flit when credits wait, or after 2^KEEPALIVE_LOG2 idle symbols, so that a
//     silent line means a lost partner (send_data);
//   - without flits or credits, otherwise (training, or failed), with gaps of more than a
//     frame's length between them, so that a receiver that lost track of the frames
//     finds their starts again (link_rx).
// Between frames every lane is high for at least one symbol (the stop symbol); a frame
// begins with lane 0 going low (the start bit). The credits of a frame are taken when it
// reaches its credit bits, late in the frame, which shortens the credit round trip.
//
// The queue holds VCS*BUF_DEPTH flits: the router may send that many back to back (all of
// its credits) while the line takes one per frame. Its data words are a memory written a
// whole flit at a time and read LANES bits at a time, straight onto the pins: yosys maps
// it to iCE40 block RAM with a wide write port and a narrow read port, so the data needs
// no shift register. {last, vc} are a memory of their own, in one more block RAM
// (TAG_RAM = 1) or in flip-flops (TAG_RAM = 0: (VC_BITS+1)*VCS*BUF_DEPTH of them and a
// multiplexer);
// the same logic either way, the storage is synthesis's choice.
//
// With RETRY = 1 (go-back-N, link_phy has the protocol) the queue is also the replay
// buffer: a flit stays in it until the partner acknowledges it (aptr, the oldest
// unacknowledged; rptr, the next to send; hptr, one past the highest ever sent), and the
// queue pointers are the sequence numbers. A flit frame carries its sequence number and
// every frame a resend request (nack) in its head; the acknowledgement (the sequence number
// this side expects next) and the credit totals per VC (modulo 2^CRED_BITS, counted from
// reset) in its tail, loaded late in the frame as the credits are. On a resend request from
// the partner, or after 2^TIMEOUT_LOG2 symbols with flits sent and no acknowledgement
// progress, rptr goes back to aptr at the next symbol between frames, and the next frame
// waits for a gap longer than a frame (the partner's receiver finds the frames' starts
// again after a damaged one, link_rx). Resend requests that come from a rewind until the
// end of the first frame after its gap are ignored: the partner sent them before the gap
// found it again (it asks in every frame while lost). A frame goes out early (after one idle symbol) when
// the local router returned a credit, a flit was delivered (the acknowledgement moved) or
// a resend is to be requested. While our own receiver has lost the frames' starts, every
// frame waits for the long gap too: if the partner's receiver is lost as well, neither
// would otherwise ever see a line idle long enough to find them again. With RETRY = 0
// none of that is built: the pending-credit
// counters send one credit per VC per frame (the frames of rtl/link/README.md, RETRY = 0).
module link_tx #(
    parameter FLIT_BITS       = 32,
    parameter VCS             = 2,
    parameter VC_BITS         = 1,
    parameter BUF_DEPTH       = 4,
    parameter LANES           = 2,
    parameter OVERSAMPLE      = 3,
    parameter HEAD_SYMS       = 3,     // set by link_phy: symbols of the head
    parameter DATA_SYMS       = 16,    // set by link_phy: symbols of the data (FLIT_BITS / LANES)
    parameter CRED_SYMS       = 1,     // set by link_phy: symbols of credit bits
    parameter TAG_RAM         = 1,     // {last, vc} of the queued flits: 1 block RAM, 0 flip-flops
    parameter KEEPALIVE_LOG2  = 6,     // set by link_phy
    parameter RETRY           = 0,     // set by link_phy: 1 sequence numbers and go-back-N
    parameter HEAD_W          = 5,     // set by link_phy: head bits (start bit included)
    parameter TAIL_W          = 2,     // set by link_phy: credit field bits
    parameter SEQ_BITS        = 4,     // set by link_phy: $clog2(VCS * BUF_DEPTH) + 1
    parameter CRED_BITS       = 3,     // set by link_phy: a credit total, RETRY = 1
    parameter TIMEOUT_LOG2    = 7,     // set by link_phy: symbols without acknowledgement
    parameter CHECK_BITS      = 8      // set by link_phy: the frame check (link_crc)
) (
    input  wire                 clk,
    input  wire                 rst,
    // the local router's output link (flits to the partner)
    input  wire                 lout_valid,
    input  wire [VC_BITS-1:0]   lout_vc,
    input  wire                 lout_last,
    input  wire [FLIT_BITS-1:0] lout_data,
    // credits the local router frees on its input link (returned to the partner)
    input  wire [VCS-1:0]       lin_credit,
    // what to send (link_phy's link state)
    input  wire                 send_data,     // up: flits, credits, keepalives
    input  wire                 hear,          // the frames say "I hear you"
    output reg                  frame_done,    // pulse: a frame has been sent
    // RETRY = 1 (unused with RETRY = 0)
    input  wire [SEQ_BITS-1:0]  ack,           // the sequence number we expect next
    input  wire                 ack_bump,      // pulse: it moved (a flit was delivered)
    input  wire                 nack,          // ask the partner to resend (level)
    input  wire                 lost,          // our receiver lost the frames: send apart
    output wire                 frame_start,   // pulse: a frame's head was decided (nack taken)
    input  wire                 peer_valid,    // pulse: a good frame from the partner was taken
    input  wire [SEQ_BITS-1:0]  peer_ack,      // ... its acknowledgement
    input  wire                 peer_nack,     // ... its resend request
    output wire                 retry,         // pulse: a flit was sent again
    output reg  [LANES-1:0]     tx_pin
);
    localparam D    = LANES;
    localparam N    = OVERSAMPLE;
    localparam VB   = VC_BITS;
    localparam CK   = CHECK_BITS;
    localparam CS   = CK / D;                    // check symbols
    localparam PRE  = HEAD_SYMS + DATA_SYMS + CRED_SYMS;   // symbols before the check bits
    localparam L    = PRE + CS;                  // a frame, in symbols (stop symbol not counted)
    localparam HSW  = HEAD_SYMS * D;             // head bits, with padding
    localparam HSRW = (HSW > CRED_SYMS * D) ? HSW : CRED_SYMS * D;   // hsr: the head, then the credits
    localparam SW   = $clog2(L);
    localparam CW   = ((SW + 1 > KEEPALIVE_LOG2) ? SW + 1 : KEEPALIVE_LOG2) + 1;
    localparam PW   = $clog2(N);
    localparam PCW  = $clog2(BUF_DEPTH + 1);     // a pending-credit counter: 0..BUF_DEPTH
    localparam CB   = CRED_BITS;
    localparam TL   = TIMEOUT_LOG2;
    localparam QA   = $clog2(VCS * BUF_DEPTH);   // queue address bits (entries)
    localparam QD   = 1 << QA;
    localparam WA   = $clog2(DATA_SYMS);         // word address bits within an entry
    localparam WPE  = 1 << WA;                   // words per entry (a power of two)

    localparam [PW-1:0] PH_LAST = N[PW-1:0] - 1'b1;
    // While sending, symbol pos (= cnt) is loaded at the next tick.
    localparam integer  DATA_AT_I  = HEAD_SYMS;
    localparam integer  CRED_AT_I  = HEAD_SYMS + DATA_SYMS;
    localparam integer  CHECK_AT_I = PRE;
    localparam integer  LAST_AT_I  = L - 1;
    localparam integer  DATA_LAST_I = CRED_AT_I - 1;
    localparam [SW-1:0] DATA_LAST  = DATA_LAST_I[SW-1:0];
    localparam [SW-1:0] LAST_AT    = LAST_AT_I[SW-1:0];

    // x is one of the values lo .. hi - 1
    function in_range;
        input [15:0] x;
        input integer lo;
        input integer hi;
        integer j;
        begin
            in_range = 1'b0;
            for (j = lo; j < hi; j = j + 1) in_range = in_range | (x == j[15:0]);
        end
    endfunction

    // ------------------------------------------------------------------ the queue
    // pointers one bit wider than the address: a queue holding QD flits is not empty
    reg  [QA:0]   wptr;
    reg  [QA:0]   wptr_q;                // wptr a cycle late: the flit's tag can be read
    reg  [QA:0]   rptr;                  // the head: the flit the next flit frame sends
    wire          head_valid = wptr_q != rptr;
    wire          head_pop;              // its last data symbol is on the pins
    wire [WA-1:0] widx;                  // the data word the next data symbol takes
    reg  [D-1:0]  word;                  // q_word[{rptr, widx}], one cycle late
    wire [VB:0]   head_tag;              // {vc, last} of the head
    wire [QA:0]   wptr_inc;
    wire [QA:0]   rptr_inc;
    wire          rewind;                // RETRY: rptr back to aptr (between frames)
    wire [QA:0]   aptr;                  // RETRY: the oldest unacknowledged flit (else 0)
    link_add #(.WIDTH(QA + 1)) wptr_add (.a(wptr), .b({{QA{1'b0}}, 1'b1}), .sum(wptr_inc));
    link_add #(.WIDTH(QA + 1)) rptr_add (.a(rptr), .b({{QA{1'b0}}, 1'b1}), .sum(rptr_inc));

    always @(posedge clk) begin
        if (rst) begin
            wptr   <= {(QA + 1){1'b0}};
            wptr_q <= {(QA + 1){1'b0}};
            rptr   <= {(QA + 1){1'b0}};
        end else begin
            if (lout_valid) wptr <= wptr_inc;
            wptr_q <= wptr;
            if (head_pop) rptr <= rptr_inc;
            else if (rewind) rptr <= aptr;
        end
    end

    // The data words: written FLIT_BITS at once (entry wptr), read LANES bits at a time.
    // What a frame reads was written at least a cycle before (head_valid comes from
    // wptr_q), and what it reads at the same time as a write is not used, hence
    // no_rw_check: no bypass logic around the block RAM.
    (* no_rw_check, ram_style = "block" *) reg [D-1:0] q_word [0:QD*WPE-1];
    integer k;
    always @(posedge clk) begin
        if (lout_valid) begin
            for (k = 0; k < DATA_SYMS; k = k + 1)
                q_word[{wptr[QA-1:0], k[WA-1:0]}] <= lout_data[k * D +: D];
        end
        word <= q_word[{rptr[QA-1:0], widx}];
    end
    // The tags: read every cycle at the head, so head_tag is that of head a cycle before.
    reg [VB:0] tag_rd;
    assign head_tag = tag_rd;
    generate
        if (TAG_RAM != 0) begin : tag_ebr
            (* no_rw_check, ram_style = "block" *) reg [VB:0] q_tag [0:QD-1];
            always @(posedge clk) begin
                if (lout_valid) q_tag[wptr[QA-1:0]] <= {lout_vc, lout_last};
                tag_rd <= q_tag[rptr[QA-1:0]];
            end
        end else begin : tag_ff
            (* no_rw_check, ram_style = "logic" *) reg [VB:0] q_tag [0:QD-1];
            always @(posedge clk) begin
                if (lout_valid) q_tag[wptr[QA-1:0]] <= {lout_vc, lout_last};
                tag_rd <= q_tag[rptr[QA-1:0]];
            end
        end
    endgenerate

    // ------------------------------------------------------------------ credits
    // RETRY = 0: pend[v] counts the credits the local router returned on VC v, not sent
    // yet; at most BUF_DEPTH (the partner never holds more of our buffer than that); a
    // frame takes one per VC. RETRY = 1: totals, below (go_back_n).
    wire               cred_fire;       // the credit field goes into the frame now
    wire               want_tail;       // a frame should go out for its credit field
    wire [TAIL_W-1:0]  tail_word;       // the credit field
    genvar v;
    generate
        if (RETRY == 0) begin : pulses
            reg  [VCS*PCW-1:0] pend;
            wire [VCS-1:0]     cred_now;        // a credit waits, per VC
            for (v = 0; v < VCS; v = v + 1) begin : credit
                wire take = cred_fire && cred_now[v];
                wire [PCW-1:0] stepped;          // - 1 or + 1
                link_add #(.WIDTH(PCW)) step (.a(pend[v * PCW +: PCW]), .b({{(PCW - 1){take}}, 1'b1}),
                                              .sum(stepped));
                assign cred_now[v] = pend[v * PCW +: PCW] != {PCW{1'b0}};
                always @(posedge clk) begin
                    if (rst)
                        pend[v * PCW +: PCW] <= {PCW{1'b0}};
                    else if (lin_credit[v] != take)
                        pend[v * PCW +: PCW] <= stepped;
                end
            end
            assign want_tail = |cred_now;
            assign tail_word = cred_now;
        end
    endgenerate

    // ------------------------------------------------------------------ framing
    // A frame is decided at a tick (start) and goes out from the next tick on, one symbol
    // per tick: the head from hsr, the data words from the queue, the credit bits from hsr
    // (loaded with them one symbol before), the check bits from crc.
    reg             sending;  // a frame is on the pins
    reg  [CW-1:0]   cnt;      // sending: the symbol loaded at the next tick; else idle symbols
    reg  [PW-1:0]   ph;       // cycle within the symbol
    reg             f_flit;   // the frame carries a flit
    reg  [HSRW-1:0] hsr;
    reg  [CK-1:0]   crc;
    wire [SW-1:0]   pos  = cnt[SW-1:0];
    wire            tick = ph == PH_LAST;   // the last cycle of a symbol: the next one is loaded

    // A frame is decided after at least one idle symbol when up (and then only if there is
    // something to send, or for the keepalive); after L + 1 of them otherwise.
    wire [15:0] cnt16 = {{(16 - CW){1'b0}}, cnt};
    wire [15:0] pos16 = {{(16 - SW){1'b0}}, pos};
    wire long_gap  = cnt[CW-1] || in_range(cnt16, L + 1, 1 << (CW - 1));
    wire hold;                                    // RETRY: a rewind waits (no frame now)
    wire gap;                                     // RETRY: the next frame after a long gap
    wire start     = tick && !sending && !hold && ((send_data && !gap) ? (cnt != {CW{1'b0}} &&
                        (head_valid || want_tail || (|cnt[CW-1:KEEPALIVE_LOG2]))) : long_gap);
    wire flit      = send_data && head_valid;     // the frame decided now carries a flit
    wire in_data   = in_range(pos16, DATA_AT_I, CRED_AT_I);
    wire in_check  = in_range(pos16, CHECK_AT_I, L);
    wire at_last   = pos == LAST_AT;
    wire last_data = pos == DATA_LAST;
    wire [CW-1:0] cnt_inc;
    wire [PW-1:0] ph_inc;
    localparam integer  MINUS_DATA_AT_I = (1 << WA) - (DATA_AT_I % (1 << WA));
    localparam [WA-1:0] MINUS_DATA_AT   = MINUS_DATA_AT_I[WA-1:0];    // - DATA_AT, mod 2^WA
    link_add #(.WIDTH(CW)) cnt_add (.a(cnt), .b({{(CW - 1){1'b0}}, 1'b1}), .sum(cnt_inc));
    link_add #(.WIDTH(PW)) ph_add (.a(ph), .b({{(PW - 1){1'b0}}, 1'b1}), .sum(ph_inc));
    // the word of data symbol pos, read in the cycles before the tick that loads it
    link_add #(.WIDTH(WA)) widx_sub (.a(pos[WA-1:0]), .b(MINUS_DATA_AT), .sum(widx));
    assign head_pop  = tick && sending && f_flit && last_data;
    assign cred_fire = tick && sending && last_data && send_data;

    assign frame_start = start;

    // the head: [0] start, [1] flit, [2] hear, [3] last, [4 +: VB] vc; RETRY = 1 also
    // [4 + VB +: SEQ_BITS] the flit's sequence number, [4 + VB + SEQ_BITS] nack
    wire [HEAD_W-1:0] head_word;
    generate
        if (RETRY == 0) begin : head0
            assign head_word = {flit ? head_tag : {(VB + 1){1'b0}}, hear, flit, 1'b0};
        end else begin : head1
            assign head_word = {nack, rptr, flit ? head_tag : {(VB + 1){1'b0}}, hear, flit, 1'b0};
        end
    endgenerate

    reg  [HSRW-1:0] hsr_next;
    reg  [D-1:0]    sym_crc;                // check bits, top bit first
    integer i;
    always @* begin
        hsr_next = hsr >> D;
        if (start) begin
            hsr_next = {HSRW{1'b0}};
            hsr_next[HEAD_W-1:0] = head_word;
        end
        if (cred_fire) hsr_next[TAIL_W-1:0] = tail_word;
        for (i = 0; i < D; i = i + 1) sym_crc[i] = crc[CK - 1 - i];
    end
    wire [D-1:0]    sym_out = in_check ? sym_crc : in_data ? (word & {D{f_flit}}) : hsr[D-1:0];
    wire [CK-1:0]   crc_next;
    link_crc #(.BITS(D), .CHECK_BITS(CK)) crc_step (.crc_in(crc), .bits(sym_out), .crc_out(crc_next));

    always @(posedge clk) begin
        if (rst) begin
            sending    <= 1'b0;
            cnt        <= {CW{1'b0}};
            ph         <= {PW{1'b0}};
            frame_done <= 1'b0;
            tx_pin     <= {D{1'b1}};
        end else begin
            frame_done <= 1'b0;
            ph <= tick ? {PW{1'b0}} : ph_inc;
            if (tick) begin
                if (start || (sending && at_last))
                    cnt <= {CW{1'b0}};
                else if (!cnt[CW-1])
                    cnt <= cnt_inc;
                if (start) sending <= 1'b1;
                if (sending && at_last) begin
                    sending    <= 1'b0;
                    frame_done <= 1'b1;
                end
                tx_pin <= sending ? sym_out : {D{1'b1}};   // else stop / idle
            end
        end
    end

    // no reset needed: loaded at each frame start
    always @(posedge clk) begin
        if (start) f_flit <= flit;
        if (tick) hsr <= hsr_next;
        if (tick && sending) crc <= crc_next;
        else if (!sending) crc <= {CK{1'b1}};
    end

    // ------------------------------------------------------------------ go-back-N (RETRY)
    generate
        if (RETRY == 0) begin : no_retry
            assign hold   = 1'b0;
            assign gap    = 1'b0;
            assign rewind = 1'b0;
            assign aptr   = {(QA + 1){1'b0}};
            assign retry  = 1'b0;
            wire unused_retry = &{1'b0, ack, ack_bump, nack, lost, peer_valid, peer_ack, peer_nack, aptr};
        end else begin : go_back_n
            // Credit totals per VC (modulo 2^CB) and the flag that a frame should carry
            // news: a credit, a delivered flit (the acknowledgement moved), a resend request.
            reg  [VCS*CB-1:0] total;
            reg               news;
            for (v = 0; v < VCS; v = v + 1) begin : credit
                wire [CB-1:0] total_inc;
                link_add #(.WIDTH(CB)) total_add (.a(total[v * CB +: CB]),
                                                  .b({{(CB - 1){1'b0}}, 1'b1}), .sum(total_inc));
                always @(posedge clk) begin
                    if (rst) total[v * CB +: CB] <= {CB{1'b0}};
                    else if (lin_credit[v]) total[v * CB +: CB] <= total_inc;
                end
            end
            always @(posedge clk) begin
                if (rst) news <= 1'b0;
                else if ((|lin_credit) || ack_bump) news <= 1'b1;
                else if (cred_fire) news <= 1'b0;
            end
            assign want_tail = news || nack;
            assign tail_word = {ack, total};

            // The replay pointers: aptr (acknowledged up to), hptr (one past the highest
            // flit ever sent), the timeout, and a rewind that waits for the line to be idle.
            reg  [QA:0]   ap;
            reg  [QA:0]   hptr;
            reg  [TL:0]   quiet_syms;     // symbols with flits sent and no acknowledgement
            reg           pend;           // a rewind waits
            reg           long;           // the next frame after a long gap
            reg           deaf;           // from a rewind to the end of the frame after the gap
            wire [TL:0]   quiet_inc;
            link_add #(.WIDTH(TL + 1)) quiet_add (.a(quiet_syms), .b({{TL{1'b0}}, 1'b1}),
                                                  .sum(quiet_inc));
            wire progress = peer_valid && peer_ack != ap;
            assign aptr   = ap;
            assign hold   = pend;
            assign gap    = long || lost;
            assign rewind = tick && !sending && pend;
            assign retry  = head_pop && rptr != hptr;
            always @(posedge clk) begin
                if (rst) begin
                    ap         <= {(QA + 1){1'b0}};
                    hptr       <= {(QA + 1){1'b0}};
                    quiet_syms <= {(TL + 1){1'b0}};
                    pend       <= 1'b0;
                    long       <= 1'b0;
                    deaf       <= 1'b0;
                end else begin
                    if (peer_valid) ap <= peer_ack;
                    if (head_pop && rptr == hptr) hptr <= rptr_inc;
                    if (progress || rewind || ap == rptr)
                        quiet_syms <= {(TL + 1){1'b0}};
                    else if (tick && !quiet_syms[TL])
                        quiet_syms <= quiet_inc;
                    if (rewind) pend <= 1'b0;
                    else if ((peer_valid && peer_nack && !deaf) || quiet_syms[TL]) pend <= 1'b1;
                    if (rewind) long <= 1'b1;
                    else if (start) long <= 1'b0;
                    if (rewind) deaf <= 1'b1;
                    else if (frame_done && !long) deaf <= 1'b0;
                end
            end
        end
    endgenerate
endmodule
