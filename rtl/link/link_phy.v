// SPDX-License-Identifier: ISC
// link_phy: one router link between two boards, each on its own oscillator, over 2*LANES
// pins (LANES out, LANES in). The router side is spelled exactly as one port of
// noc_router: the router's output link (lout_valid, lout_vc, lout_last, lout_data) goes
// out, its credits (lout_credit) come back; the partner's flits come in as the router's
// input link (lin_valid, lin_vc, lin_last, lin_data) and the router's lin_credit goes
// back. Two link_phy joined pin to pin behave, for the two routers, like noc_links' wire:
// every flit delivered once, in order, intact, with the routers' own credit counts
// (BUF_DEPTH per VC) governing the flow end to end; only slower (rtl/link/README.md has
// the figures, the frame layout and the reasoning).
//
// Line: every lane idles high; a frame is a start bit (lane 0 low), then LANES bits per
// symbol, OVERSAMPLE cycles per symbol, then at least one stop symbol (every lane high).
// Every frame has the same length and carries: a flag "I hear you", a flit if its flag
// says so, one returned credit per VC, and an 8-bit CRC (link_crc) over all of it. A frame
// without a flit carries credits, or keeps the line alive (at least one every
// 2^KEEPALIVE_LOG2 idle symbols).
//
// RETRY = 1 (go-back-N; RETRY = 0 builds none of it): a flit frame also carries the
// flit's sequence number (its place in link_tx's queue, which keeps every flit until it
// is acknowledged), every frame a resend request (nack), the sequence number its sender
// expects next (ack, cumulative) and, instead of one credit per VC, the credits returned
// since reset per VC modulo 2^CRED_BITS (a lost frame's credits come with the next good
// one). The receiver delivers only the flit expected next; it refuses damaged frames and
// flits out of sequence (err_count), asks for a resend while it has lost the frames'
// starts (after a damaged frame) and after a flit ahead of the expected one; the sender
// goes back to the oldest unacknowledged flit on a request or a timeout, after a gap that
// lets a lost receiver find the starts again, and counts the flits it sends again
// (retry_count). Check and framing errors are then not faults (rtl/link/README.md:
// "Retry").
//
// Link state (link_up, link_fault, fault_cause):
//   TRAIN  from reset: frames without flits, with gaps longer than a frame between them
//          (so that a receiver finds their starts, link_rx). The first GUARD_FRAMES say
//          "I do not hear you" whatever comes in, and what comes in meanwhile is ignored:
//          a partner that was up before our reset faults on them (or on the frame the
//          reset cut short), so whatever it sends after them is fresh. Then "I hear you"
//          once a good frame came in; UP when a good frame says the partner hears us
//          (both directions work). That frame and every later one are taken. Flits from
//          the router wait in the queue meanwhile.
//   UP     flits and credits flow. Any of these is a fault:
//            0 restart     a good frame says the partner does not hear us: it was reset
//                          or has failed;
//            1 silence     no good frame while we sent 2^SILENCE_LOG2 frames: the cable
//                          is off, the partner lost power or its configuration, or the
//                          line is stuck;
//            2 crc         a frame failed its check (a bit error on the cable);
//            3 framing     a frame without its stop bit (likewise).
//          (With RETRY = 1 only 0 and 1: check and stop-bit errors are refused and sent
//          again, and silence waits 4 times as long.)
//   FAIL   fail-stop: frames without flits (apart) that say "I do not hear you" until
//          reset, so the partner faults too; nothing is delivered.
// Nothing is delivered to the router outside UP and nothing damaged is delivered at all.
// After a fault the routers' credit counts and worms may be cut, so the board resets the
// whole tile (rtl/link/README.md: "Faults and resets").
module link_phy #(
    parameter FLIT_BITS  = 32,
    parameter VCS        = 2,    // virtual channels per link: 1, 2, 4 or 8 (as noc_router)
    parameter BUF_DEPTH  = 4,    // the router's flits per VC on an input: sizes the queue
    parameter LANES      = 2,    // data pins per direction: 1, 2 or 4
    parameter OVERSAMPLE = 3,    // fabric cycles per symbol: >= 3 (both boards the same)
    parameter TAG_RAM    = 1,    // the queue's {last, vc}: 1 in a block RAM, 0 in flip-flops
    parameter RETRY      = 1,    // 1: sequence numbers, go-back-N; 0: a damaged frame is a fault
    parameter VC_BITS    = (VCS <= 2) ? 1 : (VCS <= 4) ? 2 : 3   // derived: do not set
) (
    input  wire                 clk,
    input  wire                 rst,
    // the local router's output link k: flits to the partner, credits back
    input  wire                 lout_valid,
    input  wire [VC_BITS-1:0]   lout_vc,
    input  wire                 lout_last,
    input  wire [FLIT_BITS-1:0] lout_data,
    output wire [VCS-1:0]       lout_credit,
    // the local router's input link k: the partner's flits, our credits back
    output wire                 lin_valid,
    output wire [VC_BITS-1:0]   lin_vc,
    output wire                 lin_last,
    output wire [FLIT_BITS-1:0] lin_data,
    input  wire [VCS-1:0]       lin_credit,
    // pins (tx_pin registered; rx_pin from the partner, asynchronous)
    output wire [LANES-1:0]     tx_pin,
    input  wire [LANES-1:0]     rx_pin,
    // state, for LEDs and status registers
    output wire                 link_up,
    output wire                 link_fault,   // held until reset
    output reg  [1:0]           fault_cause,  // valid with link_fault: 0 break, 1 silence, 2 crc, 3 framing
    // counters (RETRY = 1; 0 with RETRY = 0), saturating
    output reg  [15:0]          err_count,    // frames refused: check, framing, out of sequence
    output reg  [15:0]          retry_count   // flits sent again
);
    // ---- frame layout (bit 0 is the start bit; README.md draws it). A frame is
    //   head:    [0] start = 0, [1] flit, [2] hear, [3] last, [4 +: VC_BITS] vc; zeros to
    //            a whole symbol
    //   data:    FLIT_BITS bits, bit 0 first (zeros without a flit)
    //   credits: VCS bits, one per VC; zeros to a whole symbol
    //   check:   8 bits (link_crc over every symbol before), bit 7 first (RETRY = 1: 16
    //            bits, CRC-16, bit 15 first)
    // RETRY = 1 adds to the head [4 + VC_BITS +: SEQ_BITS] the flit's sequence number and
    // [4 + VC_BITS + SEQ_BITS] nack (resend, from the oldest unacknowledged flit), and the
    // credit field becomes {ack (the sequence number expected next), per VC the total of
    // credits returned since reset, modulo 2^CRED_BITS}.
    localparam SEQ_BITS   = $clog2(VCS * BUF_DEPTH) + 1;   // the queue's pointers
    localparam CRED_BITS  = $clog2(BUF_DEPTH + 1);
    localparam HEAD_W     = (RETRY != 0) ? 5 + VC_BITS + SEQ_BITS : 4 + VC_BITS;
    localparam TAIL_W     = (RETRY != 0) ? VCS * CRED_BITS + SEQ_BITS : VCS;
    localparam HEAD_SYMS  = (HEAD_W + LANES - 1) / LANES;
    localparam DATA_SYMS  = FLIT_BITS / LANES;
    localparam CRED_SYMS  = (TAIL_W + LANES - 1) / LANES;
    // The check: CRC-8 for the fail-stop link (it stops at the first damaged frame), CRC-16
    // for the retrying one, which lives through many: under heavy damage (a burst, false
    // starts) one damaged frame in 256 would pass a CRC-8, one in 65,536 passes this.
    localparam CHECK_BITS = (RETRY != 0) ? 16 : 8;
    localparam FRAME_SYMS = HEAD_SYMS + DATA_SYMS + CRED_SYMS + CHECK_BITS / LANES;  // + a stop symbol
    // Keepalive: a frame after 2^KEEPALIVE_LOG2 idle symbols, so that while up each side
    // sends a frame at least every FRAME_SYMS + 1 + 2^KEEPALIVE_LOG2 symbols. Silence is
    // called when we have sent 2^SILENCE_LOG2 frames (at least FRAME_SYMS + 1 symbols
    // each) and received no good frame: more than twice that bound.
    localparam KEEPALIVE_LOG2 = 6;
    // With RETRY = 1 four times as many: a damaged frame costs the receiver a few frames
    // (until the sender's gap after its resend request), and a second one soon after
    // another, so only a stretch of about 30 frames without a good one is silence.
    localparam SILENCE_LOG2   = $clog2(2 * (FRAME_SYMS + 1 + (1 << KEEPALIVE_LOG2)) / (FRAME_SYMS + 1) + 1)
                                + 2 * RETRY;
    localparam GUARD_FRAMES   = 3;
    // Go-back-N timeout: flits sent and no acknowledgement for 2^TIMEOUT_LOG2 symbols, more
    // than three frames and their gaps (the longest an acknowledgement takes: the rest of
    // our frame, a frame of the partner's under way, a gap after its own rewind, the frame
    // that carries it).
    localparam TIMEOUT_LOG2   = $clog2(3 * (FRAME_SYMS + 2));

    localparam [1:0] S_TRAIN = 2'd0, S_UP = 2'd1, S_FAIL = 2'd2;
    localparam [1:0] F_RESTART = 2'd0, F_SILENCE = 2'd1, F_CRC = 2'd2, F_FRAMING = 2'd3;

    // Parameters out of range stop elaboration here (the instance names the rule).
    generate
        if (LANES != 1 && LANES != 2 && LANES != 4) begin : bad_lanes
            link_phy_LANES_must_be_1_2_or_4 stop ();
        end
        if (OVERSAMPLE < 3) begin : bad_oversample
            link_phy_OVERSAMPLE_must_be_at_least_3 stop ();
        end
        if (VCS != 1 && VCS != 2 && VCS != 4 && VCS != 8) begin : bad_vcs
            link_phy_VCS_must_be_1_2_4_or_8 stop ();
        end
        if (BUF_DEPTH < 1) begin : bad_depth
            link_phy_BUF_DEPTH_must_be_positive stop ();
        end
        if (FLIT_BITS % LANES != 0 || FLIT_BITS < 2 * LANES) begin : bad_flit
            link_phy_FLIT_BITS_must_be_a_multiple_of_LANES_at_least_2_LANES stop ();
        end
        if (RETRY != 0 && RETRY != 1) begin : bad_retry
            link_phy_RETRY_must_be_0_or_1 stop ();
        end
    endgenerate

    reg  [1:0] state;
    reg  [GUARD_FRAMES-1:0] guard; // a 1 shifted in per frame sent since reset: all ones, done
    reg        heard;      // a good frame came in after the guard
    reg  [SILENCE_LOG2:0] quiet;   // frames sent since the last good frame came in

    wire       frame_done;
    wire [SILENCE_LOG2:0] quiet_inc;
    link_add #(.WIDTH(SILENCE_LOG2 + 1)) quiet_add (.a(quiet), .b({{SILENCE_LOG2{1'b0}}, 1'b1}),
                                                  .sum(quiet_inc));
    wire       rx_ok, rx_bad_crc, rx_bad_stop, rx_lost;
    wire [HEAD_SYMS*LANES-1:0] rx_head;
    wire [CRED_SYMS*LANES-1:0] rx_tail;
    wire       rx_flit = rx_head[1];
    wire       rx_hear = rx_head[2];
    assign lin_last = rx_head[3];
    assign lin_vc   = rx_head[4 +: VC_BITS];
    // RETRY (driven by the receiver's state, below)
    wire [SEQ_BITS-1:0] expected;   // the sequence number we take next: our ack
    wire       deliver;             // a flit goes to the router now
    wire       nack_req;            // ask the partner to resend
    wire       tx_start, tx_retry;
    wire       peer_valid;          // a good frame was taken (its ack and credits count)
    wire [SEQ_BITS-1:0] peer_ack;
    wire       peer_nack;
    wire       lost_up;             // up, and our receiver has lost the frames' starts

    link_tx #(
        .FLIT_BITS(FLIT_BITS), .VCS(VCS), .VC_BITS(VC_BITS), .BUF_DEPTH(BUF_DEPTH),
        .LANES(LANES), .OVERSAMPLE(OVERSAMPLE), .HEAD_SYMS(HEAD_SYMS), .DATA_SYMS(DATA_SYMS),
        .CRED_SYMS(CRED_SYMS), .TAG_RAM(TAG_RAM), .KEEPALIVE_LOG2(KEEPALIVE_LOG2),
        .RETRY(RETRY), .HEAD_W(HEAD_W), .TAIL_W(TAIL_W), .SEQ_BITS(SEQ_BITS),
        .CRED_BITS(CRED_BITS), .TIMEOUT_LOG2(TIMEOUT_LOG2), .CHECK_BITS(CHECK_BITS)
    ) tx (
        .clk(clk), .rst(rst),
        .lout_valid(lout_valid), .lout_vc(lout_vc), .lout_last(lout_last), .lout_data(lout_data),
        .lin_credit(lin_credit),
        .send_data(state == S_UP), .hear(heard && state != S_FAIL),
        .frame_done(frame_done),
        .ack(expected), .ack_bump(deliver), .nack(nack_req), .lost(lost_up), .frame_start(tx_start),
        .peer_valid(peer_valid), .peer_ack(peer_ack), .peer_nack(peer_nack), .retry(tx_retry),
        .tx_pin(tx_pin)
    );

    link_rx #(
        .FLIT_BITS(FLIT_BITS), .LANES(LANES),
        .OVERSAMPLE(OVERSAMPLE), .HEAD_SYMS(HEAD_SYMS), .DATA_SYMS(DATA_SYMS),
        .CRED_SYMS(CRED_SYMS), .CHECK_BITS(CHECK_BITS)
    ) rx (
        .clk(clk), .rst(rst), .rx_pin(rx_pin),
        .ok(rx_ok), .fhead(rx_head), .fdata(lin_data), .ftail(rx_tail),
        .bad_crc(rx_bad_crc), .bad_stop(rx_bad_stop), .lost(rx_lost)
    );

    // A good frame that says the partner hears us is taken when up, or when training
    // after the guard (it brings the link up: the partner only says so, and only sends
    // flits, once it hears us).
    wire guarded = &guard;
    wire accept = rx_ok && rx_hear && (state == S_UP || (state == S_TRAIN && guarded));
    wire bad_frame = state == S_UP && (rx_bad_crc || rx_bad_stop);
    assign lin_valid   = deliver;
    assign link_up     = state == S_UP;
    assign link_fault  = state == S_FAIL;

    always @(posedge clk) begin
        if (rst) begin
            state       <= S_TRAIN;
            guard       <= {GUARD_FRAMES{1'b0}};
            heard       <= 1'b0;
            quiet       <= {(SILENCE_LOG2 + 1){1'b0}};
            fault_cause <= F_RESTART;
        end else begin
            if (rx_ok) quiet <= {(SILENCE_LOG2 + 1){1'b0}};
            else if (frame_done && !quiet[SILENCE_LOG2]) quiet <= quiet_inc;
            if (frame_done) guard <= {guard[GUARD_FRAMES-2:0], 1'b1};
            case (state)
                S_TRAIN: begin
                    if (rx_ok && guarded) heard <= 1'b1;
                    if (accept) state <= S_UP;
                end
                S_UP: begin
                    // (at most one of these in a cycle: the receiver's pulses exclude
                    // each other, and a good frame clears quiet)
                    if (rx_ok && !rx_hear) fault_cause <= F_RESTART;
                    if (quiet[SILENCE_LOG2]) fault_cause <= F_SILENCE;
                    if (rx_bad_crc && RETRY == 0) fault_cause <= F_CRC;
                    if (rx_bad_stop && RETRY == 0) fault_cause <= F_FRAMING;
                    if ((rx_ok && !rx_hear) || quiet[SILENCE_LOG2] ||
                        ((rx_bad_crc || rx_bad_stop) && RETRY == 0))
                        state <= S_FAIL;
                end
                default: ;                                 // S_FAIL: until reset
            endcase
        end
    end

    // ------------------------------------------------------------------ the receiver's side
    genvar v;
    generate
        if (RETRY == 0) begin : fail_stop
            // every good frame's flit is delivered, its credit bits are pulses
            assign deliver     = accept && rx_flit;
            assign lout_credit = accept ? rx_tail[VCS-1:0] : {VCS{1'b0}};
            assign expected    = {SEQ_BITS{1'b0}};
            assign nack_req    = 1'b0;
            assign peer_valid  = 1'b0;
            assign peer_ack    = {SEQ_BITS{1'b0}};
            assign peer_nack   = 1'b0;
            assign lost_up     = 1'b0;
            always @(posedge clk) begin
                err_count   <= 16'd0;
                retry_count <= 16'd0;
            end
            wire unused_fields = &{1'b0, rx_head, rx_tail, tx_start, tx_retry, bad_frame, rx_lost};
        end else begin : go_back_n
            // A good frame's flit is delivered when it carries the sequence number expected
            // next; another one is refused (a duplicate of a flit sent again, or one after a
            // lost flit). A damaged frame is refused (bad_frame). Refusals are counted.
            // Resend requests (nack, in the head of the frames we send):
            //  - while the receiver is lost (after a damaged frame, link_rx: it needs a gap
            //    longer than a frame to find the starts again), every frame we send asks:
            //    the partner goes back to our acknowledgement and leaves that gap (and our
            //    frames leave it too meanwhile, link_tx, in case the partner is lost too);
            //  - a good flit ahead of the expected one (the frame before it was lost) asks
            //    once, in the next frame we send, and no such flit asks again until the
            //    expected one arrives (waiting); if that request is lost, the partner's
            //    timeout resends.
            wire [SEQ_BITS-1:0] rx_seq = rx_head[4 + VC_BITS +: SEQ_BITS];
            wire [SEQ_BITS-1:0] behind1;         // rx_seq - expected - 1
            wire [SEQ_BITS-1:0] exp_inc;
            reg  [SEQ_BITS-1:0] exp_q;
            reg                 waiting;
            reg                 nack_q;
            link_add #(.WIDTH(SEQ_BITS)) dist_sub (.a(rx_seq), .b(~exp_q), .sum(behind1));
            link_add #(.WIDTH(SEQ_BITS)) exp_add (.a(exp_q), .b({{(SEQ_BITS - 1){1'b0}}, 1'b1}),
                                                  .sum(exp_inc));
            wire in_seq  = rx_seq == exp_q;
            // ahead: 1 .. 2^(SEQ_BITS-1) - 1 past the expected one (behind1 = that - 1); the
            // others are duplicates, up to 2^(SEQ_BITS-1) (the queue's depth) behind it
            wire ahead   = !in_seq && !behind1[SEQ_BITS-1] && !(&behind1[SEQ_BITS-2:0]);
            wire refuse  = (accept && rx_flit && !in_seq) || bad_frame;
            wire ask     = !waiting && accept && rx_flit && ahead;
            // the counters stop at all ones: the carry out of + 1 (a carry chain's last cell)
            wire [16:0] err_inc   = {1'b0, err_count} + 17'd1;
            wire [16:0] retry_inc = {1'b0, retry_count} + 17'd1;
            assign deliver    = accept && rx_flit && in_seq;
            assign expected   = exp_q;
            assign lost_up    = rx_lost && state == S_UP;
            assign nack_req   = nack_q || lost_up;
            assign peer_valid = accept;
            assign peer_ack   = rx_tail[VCS * CRED_BITS +: SEQ_BITS];
            assign peer_nack  = rx_head[4 + VC_BITS + SEQ_BITS];
            always @(posedge clk) begin
                if (rst) begin
                    exp_q       <= {SEQ_BITS{1'b0}};
                    waiting     <= 1'b0;
                    nack_q      <= 1'b0;
                    err_count   <= 16'd0;
                    retry_count <= 16'd0;
                end else begin
                    if (deliver) exp_q <= exp_inc;
                    if (deliver) waiting <= 1'b0;
                    else if (ask) waiting <= 1'b1;
                    if (ask) nack_q <= 1'b1;
                    else if (tx_start) nack_q <= 1'b0;
                    if (refuse && !err_inc[16]) err_count <= err_inc[15:0];
                    if (tx_retry && !retry_inc[16]) retry_count <= retry_inc[15:0];
                end
            end
            // Credits: the partner's totals per VC; one pulse per VC per cycle to the
            // router while what it was given differs from the total (a lost frame's credits
            // come with the next good one).
            reg [VCS*CRED_BITS-1:0] total;
            reg [VCS*CRED_BITS-1:0] given;
            for (v = 0; v < VCS; v = v + 1) begin : credit
                wire [CRED_BITS-1:0] given_inc;
                link_add #(.WIDTH(CRED_BITS)) given_add (.a(given[v * CRED_BITS +: CRED_BITS]),
                    .b({{(CRED_BITS - 1){1'b0}}, 1'b1}), .sum(given_inc));
                assign lout_credit[v] = given[v * CRED_BITS +: CRED_BITS] != total[v * CRED_BITS +: CRED_BITS];
                always @(posedge clk) begin
                    if (rst) begin
                        total[v * CRED_BITS +: CRED_BITS] <= {CRED_BITS{1'b0}};
                        given[v * CRED_BITS +: CRED_BITS] <= {CRED_BITS{1'b0}};
                    end else begin
                        if (accept)
                            total[v * CRED_BITS +: CRED_BITS] <= rx_tail[v * CRED_BITS +: CRED_BITS];
                        if (lout_credit[v])
                            given[v * CRED_BITS +: CRED_BITS] <= given_inc;
                    end
                end
            end
            if (CRED_SYMS * LANES > TAIL_W) begin : pad
                wire unused_pad = &{1'b0, rx_tail[CRED_SYMS * LANES - 1:TAIL_W]};
            end
        end
        if (HEAD_SYMS * LANES > HEAD_W) begin : head_pad
            wire unused_head_pad = &{1'b0, rx_head[HEAD_SYMS * LANES - 1:HEAD_W]};
        end
    endgenerate
    wire unused_start = rx_head[0];       // the start bit (0 in every frame taken)
endmodule
