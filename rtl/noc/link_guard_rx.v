// SPDX-License-Identifier: ISC
// link_guard_rx: the receiving end of a protected on-chip link (see link_guard_tx for the
// two words on the wire), between the wire and a router's input link (lin_*, lin_credit).
//
// A flit is delivered to the router only when its word passes the CRC and carries the
// sequence number expected next, in the same cycle it arrives (no added latency). A word
// that fails the CRC, or a good word whose sequence number is ahead of the expected one
// (a flit went missing), is an error: it is counted, and the receiver asks once for a
// resend (nak + 1) and waits, dropping whatever the sender still had on its way, until
// the expected flit arrives. It asks again for an error seen RENAK cycles or more after
// its last request (the resent flit itself was damaged), and every TIMEOUT cycles while
// it waits (the request or the resent flits were lost on the way). Good flits behind the
// expected one (sent again after a stale request) are dropped silently: nothing is ever
// delivered twice.
//
// Every cycle it sends the reverse word {crc, nak, ack = expected, credit totals}: per VC
// the count, modulo 2^CRED_BITS, of the credits its router returned, this cycle's pulse
// included. A flit is acknowledged (ack) in the cycle after its delivery, before the
// router can return its credit.
module link_guard_rx #(
    parameter FLIT_BITS  = 32,
    parameter VCS        = 2,
    parameter BUF_DEPTH  = 4,
    parameter COUNT_BITS = 16,
    parameter NAK_BITS   = 2,
    parameter RENAK      = 2,    // cycles after a request before an error asks again
    parameter TIMEOUT    = 31,   // cycles of waiting before asking again (< 256)
    // derived: do not set
    parameter VC_BITS    = (VCS <= 2) ? 1 : (VCS <= 4) ? 2 : 3,
    parameter SEQ_BITS   = $clog2(VCS * BUF_DEPTH) + 1,
    parameter CRED_BITS  = $clog2(BUF_DEPTH + 1),
    parameter FWD_BITS   = FLIT_BITS + VC_BITS + 2 + SEQ_BITS + 8,
    parameter REV_BITS   = VCS * CRED_BITS + SEQ_BITS + NAK_BITS + 8
) (
    input  wire                  clk,
    input  wire                  rst,
    // the wire
    input  wire [FWD_BITS-1:0]   fwd,
    output wire [REV_BITS-1:0]   rev,
    // to the router's input link
    output wire                  out_valid,
    output wire [VC_BITS-1:0]    out_vc,
    output wire                  out_last,
    output wire [FLIT_BITS-1:0]  out_data,
    input  wire [VCS-1:0]        out_credit,   // the router's lin_credit
    // status
    output reg  [COUNT_BITS-1:0] errors,
    output reg                   pending       // waiting for a resent flit
);
    localparam W  = FLIT_BITS;
    localparam VB = VC_BITS;
    localparam SB = SEQ_BITS;
    localparam CB = CRED_BITS;
    localparam FP = FWD_BITS - 8;
    localparam RP = REV_BITS - 8;

    reg  [SB-1:0]       expected;
    reg  [NAK_BITS-1:0] nak;
    reg  [7:0]          since_nak;   // saturating
    reg  [VCS*CB-1:0]   cred;

    // ---- the forward word
    wire [7:0]          fwd_crc;
    link_guard_crc #(.BITS(FP)) fwd_check (.bits(fwd[FP-1:0]), .crc(fwd_crc));
    wire                ok       = (fwd_crc == fwd[FWD_BITS-1 -: 8]);
    wire [SB-1:0]       seq      = fwd[W + VB + 2 +: SB];
    wire                f_valid  = fwd[W + VB + 1];
    wire [SB-1:0]       diff     = seq - expected;
    wire                ahead    = (diff != {SB{1'b0}}) && !diff[SB-1];
    wire                deliver  = ok && f_valid && (diff == {SB{1'b0}});
    wire                error    = !ok || (ahead && !pending);
    wire                renak_ok = (since_nak >= RENAK[7:0]);
    wire                ask      = !deliver && ((error && (!pending || renak_ok)) ||
                                                (pending && since_nak >= TIMEOUT[7:0]));

    assign out_valid = deliver;
    assign out_vc    = fwd[W + 1 +: VB];
    assign out_last  = fwd[W];
    assign out_data  = fwd[W-1:0];

    // ---- the reverse word
    wire [VCS*CB-1:0]   cred_now;
    genvar v;
    generate
        for (v = 0; v < VCS; v = v + 1) begin : credit
            assign cred_now[v * CB +: CB] = cred[v * CB +: CB] + {{(CB-1){1'b0}}, out_credit[v]};
        end
    endgenerate
    wire [RP-1:0]       rev_payload = {nak, expected, cred_now};
    wire [7:0]          rev_crc;
    link_guard_crc #(.BITS(RP)) rev_code (.bits(rev_payload), .crc(rev_crc));
    assign rev = {rev_crc, rev_payload};

    always @(posedge clk) begin
        if (rst) begin
            expected  <= {SB{1'b0}};
            nak       <= {NAK_BITS{1'b0}};
            since_nak <= 8'd0;
            cred      <= {(VCS*CB){1'b0}};
            errors    <= {COUNT_BITS{1'b0}};
            pending   <= 1'b0;
        end else begin
            cred <= cred_now;
            if (deliver) begin
                expected <= expected + 1'b1;
                pending  <= 1'b0;
            end
            if (error && errors != {COUNT_BITS{1'b1}}) errors <= errors + 1'b1;
            if (ask) begin
                nak       <= nak + 1'b1;
                pending   <= 1'b1;
                since_nak <= 8'd0;
            end else if (since_nak != 8'hff) begin
                since_nak <= since_nak + 1'b1;
            end
        end
    end
endmodule
