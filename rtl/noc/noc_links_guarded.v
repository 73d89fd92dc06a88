// SPDX-License-Identifier: ISC
// noc_links_guarded: the links of a mesh or torus (as noc_links: the same ports, the same
// wiring), each protected by a link_guard_tx at the sending router's output and a
// link_guard_rx at the receiving router's input (CRC and sequence number per flit,
// go-back-N replay, acks and credits in cumulative CRC-checked reverse words; full rate,
// no added latency, transparent to the routers' credits), with a link_fault on each of the
// two wires for fault injection (flip_rate 0 and dead_cycle 0: none). Two noc_links carry
// the guarded words: the forward words from output to input, the reverse words from input
// back to the output that feeds it (the neighbour relation is symmetric).
//
// Status, per port n*2*DIMS + k: by input port (the receiving end) link_errors = words
// refused by link_guard_rx, link_flips = flits damaged by the forward link_fault; by
// output port (the sending end) link_retries = flits sent again, link_rev_errors = reverse
// words refused, link_busy = flits awaiting acknowledgement, link_stalled = busy without
// an acknowledgement for 1024 cycles. Ports without a link (mesh edges) read 0.
// Fault control: fault_seed (each wire mixes in its own number), flip_rate (a flit or
// reverse word is damaged with probability flip_rate / 2^32), dead_port and dead_cycle
// (both wires of the link into input port dead_port read zero from cycle dead_cycle on),
// drop (per input port: while high, the forward word on that wire reads zero, so a flit on
// it vanishes and the receiving end sees a gap in the sequence numbers; mesh-sim
// --drop-flit). arrive (per input port): a flit is on the forward wire into it this cycle.
module noc_links_guarded #(
    parameter DIMS       = 2,
    parameter SIZE_X     = 4,
    parameter SIZE_Y     = 4,
    parameter SIZE_Z     = 1,
    parameter TORUS      = 1,
    parameter FLIT_BITS  = 32,
    parameter VCS        = 2,
    parameter BUF_DEPTH  = 4,
    parameter COUNT_BITS = 16,
    parameter VC_BITS    = (VCS <= 2) ? 1 : (VCS <= 4) ? 2 : 3   // derived: do not set
) (
    input  wire                                             clk,
    input  wire                                             rst,
    input  wire [31:0]                                      fault_seed,
    input  wire [31:0]                                      flip_rate,
    input  wire [31:0]                                      dead_port,
    input  wire [31:0]                                      dead_cycle,
    input  wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS-1:0]           drop,
    output wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS-1:0]           arrive,
    input  wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS-1:0]           lout_valid,
    input  wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS*VC_BITS-1:0]   lout_vc,
    input  wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS-1:0]           lout_last,
    input  wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS*FLIT_BITS-1:0] lout_data,
    input  wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS*VCS-1:0]       lin_credit,
    output wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS-1:0]           lin_valid,
    output wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS*VC_BITS-1:0]   lin_vc,
    output wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS-1:0]           lin_last,
    output wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS*FLIT_BITS-1:0] lin_data,
    output wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS*VCS-1:0]       lout_credit,
    output wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS*COUNT_BITS-1:0] link_errors,
    output wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS*COUNT_BITS-1:0] link_flips,
    output wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS*COUNT_BITS-1:0] link_retries,
    output wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS*COUNT_BITS-1:0] link_rev_errors,
    output wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS-1:0]           link_busy,
    output wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS-1:0]           link_stalled
);
    localparam N   = SIZE_X * SIZE_Y * SIZE_Z;
    localparam P   = 2 * DIMS;
    localparam W   = FLIT_BITS;
    localparam VB  = VC_BITS;
    localparam CNT = COUNT_BITS;
    localparam SB  = $clog2(VCS * BUF_DEPTH) + 1;
    localparam FWD = W + VB + 2 + SB + 8;
    localparam REV = VCS * $clog2(BUF_DEPTH + 1) + SB + 2 + 8;

    wire [N*P*FWD-1:0] fwd_out, fwd_in;     // by output port, by input port
    wire [N*P*REV-1:0] rev_out, rev_in;     // by input port, by output port
    wire [N*P-1:0]     present;             // the port has a link
    /* verilator lint_off UNUSEDSIGNAL */
    wire [N*P-1:0]     fwd_vc_unused, fwd_last_unused, rev_valid_unused, rev_vc_unused, rev_last_unused;
    wire [N*P*2-1:0]   fwd_credit_unused, rev_credit_unused;
    /* verilator lint_on UNUSEDSIGNAL */

    noc_links #(
        .DIMS(DIMS), .SIZE_X(SIZE_X), .SIZE_Y(SIZE_Y), .SIZE_Z(SIZE_Z), .TORUS(TORUS),
        .FLIT_BITS(FWD), .VCS(2)
    ) forward (
        .lout_valid({(N*P){1'b1}}), .lout_vc({(N*P){1'b0}}), .lout_last({(N*P){1'b0}}),
        .lout_data(fwd_out), .lin_credit({(N*P*2){1'b0}}),
        .lin_valid(present), .lin_vc(fwd_vc_unused), .lin_last(fwd_last_unused), .lin_data(fwd_in),
        .lout_credit(fwd_credit_unused)
    );
    noc_links #(
        .DIMS(DIMS), .SIZE_X(SIZE_X), .SIZE_Y(SIZE_Y), .SIZE_Z(SIZE_Z), .TORUS(TORUS),
        .FLIT_BITS(REV), .VCS(2)
    ) reverse (
        .lout_valid({(N*P){1'b1}}), .lout_vc({(N*P){1'b0}}), .lout_last({(N*P){1'b0}}),
        .lout_data(rev_out), .lin_credit({(N*P*2){1'b0}}),
        .lin_valid(rev_valid_unused), .lin_vc(rev_vc_unused), .lin_last(rev_last_unused), .lin_data(rev_in),
        .lout_credit(rev_credit_unused)
    );

    genvar x;
    generate
        for (x = 0; x < N * P; x = x + 1) begin : port
            // the sending end at output port x
            wire [CNT-1:0] retries, rev_errors;
            /* verilator lint_off UNUSEDSIGNAL */
            wire [CNT-1:0] overflow;   // never moves while the routers keep to their credits
            /* verilator lint_on UNUSEDSIGNAL */
            wire           busy, stalled;
            link_guard_tx #(
                .FLIT_BITS(W), .VCS(VCS), .BUF_DEPTH(BUF_DEPTH), .COUNT_BITS(CNT)
            ) tx (
                .clk(clk), .rst(rst),
                .in_valid(lout_valid[x]), .in_vc(lout_vc[x * VB +: VB]), .in_last(lout_last[x]),
                .in_data(lout_data[x * W +: W]), .in_credit(lout_credit[x * VCS +: VCS]),
                .fwd(fwd_out[x * FWD +: FWD]), .rev(rev_in[x * REV +: REV]),
                .retries(retries), .rev_errors(rev_errors), .overflow(overflow),
                .busy(busy), .stalled(stalled)
            );
            // the receiving end at input port x, behind the two wires' faults
            wire [FWD-1:0] word;
            wire [REV-1:0] back;
            wire [CNT-1:0] errors, flips;
            /* verilator lint_off UNUSEDSIGNAL */
            wire [CNT-1:0] back_flips;
            wire           pending;
            /* verilator lint_on UNUSEDSIGNAL */
            wire           dead = (dead_port == x);
            link_fault #(.BITS(FWD), .COUNT_BITS(CNT)) fault_fwd (
                .clk(clk), .rst(rst), .link_id(x), .seed(fault_seed), .rate(flip_rate), .dead(dead),
                .dead_cycle(dead_cycle), .active(fwd_in[x * FWD + W + VB + 1]),
                .in(fwd_in[x * FWD +: FWD]), .out(word), .flips(flips)
            );
            link_guard_rx #(
                .FLIT_BITS(W), .VCS(VCS), .BUF_DEPTH(BUF_DEPTH), .COUNT_BITS(CNT)
            ) rx (
                .clk(clk), .rst(rst), .fwd(drop[x] ? {FWD{1'b0}} : word), .rev(back),
                .out_valid(lin_valid[x]), .out_vc(lin_vc[x * VB +: VB]), .out_last(lin_last[x]),
                .out_data(lin_data[x * W +: W]), .out_credit(lin_credit[x * VCS +: VCS]),
                .errors(errors), .pending(pending)
            );
            link_fault #(.BITS(REV), .COUNT_BITS(CNT)) fault_rev (
                .clk(clk), .rst(rst), .link_id(N * P + x), .seed(fault_seed), .rate(flip_rate), .dead(dead),
                .dead_cycle(dead_cycle), .active(1'b1),
                .in(back), .out(rev_out[x * REV +: REV]), .flips(back_flips)
            );
            assign arrive[x]                       = present[x] && word[W + VB + 1];
            assign link_errors[x * CNT +: CNT]     = present[x] ? errors : {CNT{1'b0}};
            assign link_flips[x * CNT +: CNT]      = present[x] ? flips : {CNT{1'b0}};
            assign link_retries[x * CNT +: CNT]    = present[x] ? retries : {CNT{1'b0}};
            assign link_rev_errors[x * CNT +: CNT] = present[x] ? rev_errors : {CNT{1'b0}};
            assign link_busy[x]                    = present[x] && busy;
            assign link_stalled[x]                 = present[x] && stalled;
        end
    endgenerate
endmodule
