// SPDX-License-Identifier: ISC
// link_guard_tx: the sending end of a protected on-chip link, between a router's output
// link (lout_*, lout_credit) and the wire to the neighbour's link_guard_rx. Full rate (a
// flit per cycle), no added latency, transparent to the router's credit protocol.
//
// Forward word, sent every cycle (FWD_BITS): {crc[7:0], seq, valid, vc, last, data}, the
// CRC-8 (link_guard_crc) over everything below it. A flit gets the next sequence number
// (modulo 2^SEQ_BITS) and stays in the replay buffer until the receiver acknowledges it;
// an idle word carries the sequence number the next flit will have, so that a lost flit
// shows as a gap. On a resend request the sender rewinds to the first unacknowledged flit
// and sends everything again from there (go-back-N); flits the router sends meanwhile wait
// in the buffer behind them. The router sends only against credits, and the receiver
// acknowledges a flit before its credit can come back, so VCS*BUF_DEPTH entries suffice
// (REPLAY rounds that up to a power of two); `overflow` counts what would break that rule.
//
// Reverse word, from the receiver every cycle (REV_BITS): {crc[7:0], nak, ack, credit
// totals}: ack = the sequence number the receiver expects next (all before it are taken),
// nak = a count of resend requests, and per VC the number of credits its router has
// returned, all modulo their widths. Being cumulative, a damaged reverse word (bad CRC) is
// simply ignored: the next good one carries everything. Credits go to the router as one
// pulse per VC per cycle while the totals differ from what was passed on (the same cycle
// as the receiver's router produced them when nothing is damaged).
//
// Counters (saturating): retries = flits sent again; rev_errors = reverse words refused.
// busy = unacknowledged flits held; stalled = busy with no acknowledgement for
// 2^STALL_BITS cycles (a dead link or a dead neighbour).
module link_guard_tx #(
    parameter FLIT_BITS  = 32,
    parameter VCS        = 2,    // virtual channels per link: 2, 4 or 8
    parameter BUF_DEPTH  = 4,    // flits per VC buffer at the receiving router
    parameter COUNT_BITS = 16,
    parameter NAK_BITS   = 2,
    parameter STALL_BITS = 10,
    // derived: do not set
    parameter VC_BITS    = (VCS <= 2) ? 1 : (VCS <= 4) ? 2 : 3,
    parameter SEQ_BITS   = $clog2(VCS * BUF_DEPTH) + 1,
    parameter CRED_BITS  = $clog2(BUF_DEPTH + 1),
    parameter FWD_BITS   = FLIT_BITS + VC_BITS + 2 + SEQ_BITS + 8,
    parameter REV_BITS   = VCS * CRED_BITS + SEQ_BITS + NAK_BITS + 8
) (
    input  wire                  clk,
    input  wire                  rst,
    // from the router's output link
    input  wire                  in_valid,
    input  wire [VC_BITS-1:0]    in_vc,
    input  wire                  in_last,
    input  wire [FLIT_BITS-1:0]  in_data,
    output wire [VCS-1:0]        in_credit,     // to the router's lout_credit
    // the wire
    output wire [FWD_BITS-1:0]   fwd,
    input  wire [REV_BITS-1:0]   rev,
    // status
    output reg  [COUNT_BITS-1:0] retries,
    output reg  [COUNT_BITS-1:0] rev_errors,
    output reg  [COUNT_BITS-1:0] overflow,
    output wire                  busy,
    output wire                  stalled
);
    localparam W      = FLIT_BITS;
    localparam VB     = VC_BITS;
    localparam SB     = SEQ_BITS;
    localparam CB     = CRED_BITS;
    localparam IB     = SEQ_BITS - 1;            // replay buffer index bits
    localparam REPLAY = 1 << IB;                 // >= VCS * BUF_DEPTH
    localparam EW     = W + VB + 1;              // a buffered flit: {vc, last, data}
    localparam FP     = FWD_BITS - 8;            // forward payload (below the CRC)
    localparam RP     = REV_BITS - 8;

    reg  [EW-1:0]       replay [0:REPLAY-1];
    reg  [SB-1:0]       tail;       // sequence number of the router's next flit
    reg  [SB-1:0]       base;       // oldest unacknowledged
    reg  [SB-1:0]       ptr;        // next to send
    reg  [SB-1:0]       sent_end;   // one past the highest ever sent
    reg  [NAK_BITS-1:0] nak_seen;
    reg  [VCS*CB-1:0]   cred_seen;
    reg  [VCS*CB-1:0]   cred_target;
    reg  [STALL_BITS:0] quiet;      // cycles busy without an acknowledgement

    // ---- the reverse word
    wire [7:0]          rev_crc;
    link_guard_crc #(.BITS(RP)) rev_check (.bits(rev[RP-1:0]), .crc(rev_crc));
    wire                rev_ok   = (rev_crc == rev[REV_BITS-1 -: 8]);
    wire [VCS*CB-1:0]   rev_cred = rev[VCS*CB-1:0];
    wire [SB-1:0]       rev_ack  = rev[VCS*CB +: SB];
    wire [NAK_BITS-1:0] rev_nak  = rev[VCS*CB + SB +: NAK_BITS];
    wire                rewind   = rev_ok && (rev_nak != nak_seen);
    wire [VCS*CB-1:0]   target   = rev_ok ? rev_cred : cred_target;

    genvar v;
    generate
        for (v = 0; v < VCS; v = v + 1) begin : credit
            assign in_credit[v] = (target[v * CB +: CB] != cred_seen[v * CB +: CB]);
        end
    endgenerate

    // ---- the forward word. A rewind to a stale point (an older resend request) may leave
    // ptr behind what has since been acknowledged: sending resumes at base then.
    wire [SB-1:0]       behind_by = base - ptr;
    wire [SB-1:0]       cur       = (behind_by != {SB{1'b0}} && !behind_by[IB]) ? base : ptr;
    wire                replaying = (cur != tail);
    wire [EW-1:0]       held      = replay[cur[IB-1:0]];
    wire                send      = replaying || in_valid;
    wire [EW-1:0]       send_flit = replaying ? held : in_valid ? {in_vc, in_last, in_data} : {EW{1'b0}};
    wire [FP-1:0]       payload   = {cur, send, send_flit};   // cur == tail when not replaying
    wire [7:0]          fwd_crc;
    link_guard_crc #(.BITS(FP)) fwd_code (.bits(payload), .crc(fwd_crc));
    assign fwd = {fwd_crc, payload};

    wire [SB-1:0]       held_count = tail - base;
    assign busy    = (tail != base);
    assign stalled = quiet[STALL_BITS];

    integer i;
    always @(posedge clk) begin
        if (in_valid) replay[tail[IB-1:0]] <= {in_vc, in_last, in_data};
        if (rst) begin
            tail        <= {SB{1'b0}};
            base        <= {SB{1'b0}};
            ptr         <= {SB{1'b0}};
            sent_end    <= {SB{1'b0}};
            nak_seen    <= {NAK_BITS{1'b0}};
            cred_seen   <= {(VCS*CB){1'b0}};
            cred_target <= {(VCS*CB){1'b0}};
            quiet       <= {(STALL_BITS+1){1'b0}};
            retries     <= {COUNT_BITS{1'b0}};
            rev_errors  <= {COUNT_BITS{1'b0}};
            overflow    <= {COUNT_BITS{1'b0}};
        end else begin
            if (in_valid) tail <= tail + 1'b1;
            if (send && cur == sent_end) sent_end <= sent_end + 1'b1;
            if (send && cur != sent_end && retries != {COUNT_BITS{1'b1}}) retries <= retries + 1'b1;
            if (in_valid && held_count[IB] && overflow != {COUNT_BITS{1'b1}}) overflow <= overflow + 1'b1;
            if (rev_ok) begin
                base <= rev_ack;
                cred_target <= rev_cred;
            end else if (rev_errors != {COUNT_BITS{1'b1}}) begin
                rev_errors <= rev_errors + 1'b1;
            end
            if (rewind) begin
                ptr      <= rev_ack;
                nak_seen <= rev_nak;
            end else begin
                ptr <= send ? cur + 1'b1 : cur;
            end
            for (i = 0; i < VCS; i = i + 1)
                if (in_credit[i]) cred_seen[i * CB +: CB] <= cred_seen[i * CB +: CB] + 1'b1;
            if (!busy || (rev_ok && rev_ack != base)) quiet <= {(STALL_BITS+1){1'b0}};
            else if (!quiet[STALL_BITS]) quiet <= quiet + 1'b1;
        end
    end
endmodule
