// SPDX-License-Identifier: ISC
// noc_network: a whole DIMS-dimensional mesh or torus of noc_router, built from parameters.
//
// Node n has coordinates x = n % SIZE_X, y = (n / SIZE_X) % SIZE_Y, z = n / (SIZE_X*SIZE_Y).
// Local ports are flattened per node and port: index n*2*DIMS + k (k = 2*d + s, s = 0 for
// the + side). The links between the routers are noc_links': output link k of node n feeds
// input link k^1 of its neighbour in direction k, credits flow back the same way.
// GUARD = 1 protects every link (noc_links_guarded: CRC, sequence numbers, go-back-N
// replay; fault injection by fault_seed/flip_rate/dead_port/dead_cycle) and reports per
// port link_errors, link_flips (by input port), link_retries, link_busy (by output port);
// GUARD = 0 (the default) is plain wiring, and those outputs read 0.
// drop (by input port, GUARD = 1 only): while high, the forward word on the guarded wire
// into that port reads zero, so a flit on it vanishes between the guard's two ends and is
// sent again (noc-sim --drop-flit); arrive (by input port): a flit is on that wire this
// cycle (GUARD = 0: the link's valid), what a drop is timed by. drop does not feed arrive.
module noc_network #(
    parameter DIMS      = 2,
    parameter SIZE_X    = 4,
    parameter SIZE_Y    = 4,
    parameter SIZE_Z    = 1,
    parameter TORUS     = 1,
    parameter FLIT_BITS = 32,
    parameter BUF_DEPTH = 4,
    parameter INJ_DEPTH = 4,
    parameter ERR_BITS  = 16,
    parameter VCS       = 2,    // virtual channels per link: 1, 2, 4 or 8
    parameter GUARD     = 0,    // 1: every link protected (noc_links_guarded)
    // the router's lean options (noc_router; rtl/README.md "Options for small FPGAs"):
    // buffers in block RAM, injection channel j to link j only, registered route and
    // allocation, bits of a coordinate, the last-hop VC rule; the defaults are the
    // simulated machine's router
    parameter BUF_RAM      = 0,
    parameter INJ_ANY_PORT = 1,
    parameter PIPELINE     = 0,
    parameter SIDE_BITS    = 7,
    parameter VC_LAST_HOP  = 0
) (
    input  wire                                            clk,
    input  wire                                            rst,
    input  wire                                            inj_check_enable,
    input  wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS-1:0]           inj_valid,
    output wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS-1:0]           inj_ready,
    input  wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS*FLIT_BITS-1:0] inj_data,
    input  wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS-1:0]           inj_last,
    output wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS-1:0]           inj_error,
    output wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS-1:0]           ej_valid,
    input  wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS-1:0]           ej_ready,
    output wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS*FLIT_BITS-1:0] ej_data,
    output wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS-1:0]           ej_last,
    output wire [SIZE_X*SIZE_Y*SIZE_Z*ERR_BITS-1:0]         err_count,
    output wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS*(VCS+1)-1:0]   buf_nonempty,
    // GUARD = 1 only: fault injection and the links' counters (16 bits each)
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [31:0]                                     fault_seed,
    input  wire [31:0]                                     flip_rate,
    input  wire [31:0]                                     dead_port,
    input  wire [31:0]                                     dead_cycle,
    input  wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS-1:0]           drop,
    /* verilator lint_on UNUSEDSIGNAL */
    output wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS-1:0]           arrive,
    output wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS*16-1:0]        link_errors,
    output wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS*16-1:0]        link_flips,
    output wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS*16-1:0]        link_retries,
    output wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS-1:0]           link_busy
);
    localparam N = SIZE_X * SIZE_Y * SIZE_Z;
    localparam P = 2 * DIMS;
    localparam W = FLIT_BITS;
    localparam VB = (VCS <= 2) ? 1 : (VCS <= 4) ? 2 : 3;

    // every router's links, wired into the mesh or torus by noc_links
    wire [N*P-1:0]     lout_valid, lin_valid;
    wire [N*P*VB-1:0]  lout_vc, lin_vc;
    wire [N*P-1:0]     lout_last, lin_last;
    wire [N*P*W-1:0]   lout_data, lin_data;
    wire [N*P*VCS-1:0] lin_credit, lout_credit;
    generate
        if (GUARD != 0) begin : guarded
            /* verilator lint_off UNUSEDSIGNAL */
            wire [N*P*16-1:0] rev_errors;
            wire [N*P-1:0]    stalled;
            /* verilator lint_on UNUSEDSIGNAL */
            noc_links_guarded #(
                .DIMS(DIMS), .SIZE_X(SIZE_X), .SIZE_Y(SIZE_Y), .SIZE_Z(SIZE_Z), .TORUS(TORUS),
                .FLIT_BITS(FLIT_BITS), .VCS(VCS), .BUF_DEPTH(BUF_DEPTH), .COUNT_BITS(16)
            ) links (
                .clk(clk), .rst(rst), .fault_seed(fault_seed), .flip_rate(flip_rate),
                .dead_port(dead_port), .dead_cycle(dead_cycle), .drop(drop), .arrive(arrive),
                .lout_valid(lout_valid), .lout_vc(lout_vc), .lout_last(lout_last), .lout_data(lout_data),
                .lin_credit(lin_credit),
                .lin_valid(lin_valid), .lin_vc(lin_vc), .lin_last(lin_last), .lin_data(lin_data),
                .lout_credit(lout_credit),
                .link_errors(link_errors), .link_flips(link_flips), .link_retries(link_retries),
                .link_rev_errors(rev_errors), .link_busy(link_busy), .link_stalled(stalled)
            );
        end else begin : plain
            noc_links #(
                .DIMS(DIMS), .SIZE_X(SIZE_X), .SIZE_Y(SIZE_Y), .SIZE_Z(SIZE_Z), .TORUS(TORUS),
                .FLIT_BITS(FLIT_BITS), .VCS(VCS)
            ) links (
                .lout_valid(lout_valid), .lout_vc(lout_vc), .lout_last(lout_last), .lout_data(lout_data),
                .lin_credit(lin_credit),
                .lin_valid(lin_valid), .lin_vc(lin_vc), .lin_last(lin_last), .lin_data(lin_data),
                .lout_credit(lout_credit)
            );
            assign link_errors  = {(N*P*16){1'b0}};
            assign link_flips   = {(N*P*16){1'b0}};
            assign link_retries = {(N*P*16){1'b0}};
            assign link_busy    = {(N*P){1'b0}};
            assign arrive       = lin_valid;
        end
    endgenerate

    genvar n;
    generate
        for (n = 0; n < N; n = n + 1) begin : node
            localparam integer CX = n % SIZE_X;
            localparam integer CY = (n / SIZE_X) % SIZE_Y;
            localparam integer CZ = n / (SIZE_X * SIZE_Y);
            localparam [23:0] COORD = {CZ[7:0], CY[7:0], CX[7:0]};
            localparam [23:0] SIZES = {SIZE_Z[7:0], SIZE_Y[7:0], SIZE_X[7:0]};

            noc_router #(
                .DIMS(DIMS), .FLIT_BITS(FLIT_BITS), .BUF_DEPTH(BUF_DEPTH),
                .INJ_DEPTH(INJ_DEPTH), .ERR_BITS(ERR_BITS), .VCS(VCS), .BUF_RAM(BUF_RAM),
                .INJ_ANY_PORT(INJ_ANY_PORT), .PIPELINE(PIPELINE), .SIDE_BITS(SIDE_BITS),
                .VC_LAST_HOP(VC_LAST_HOP)
            ) router (
                .clk(clk), .rst(rst),
                .my_coord(COORD), .dim_size(SIZES), .torus(TORUS != 0),
                .inj_check_enable(inj_check_enable),
                .lin_valid(lin_valid[n * P +: P]), .lin_vc(lin_vc[n * P * VB +: P * VB]),
                .lin_last(lin_last[n * P +: P]), .lin_data(lin_data[n * P * W +: P * W]),
                .lin_credit(lin_credit[n * P * VCS +: P * VCS]),
                .lout_valid(lout_valid[n * P +: P]), .lout_vc(lout_vc[n * P * VB +: P * VB]),
                .lout_last(lout_last[n * P +: P]), .lout_data(lout_data[n * P * W +: P * W]),
                .lout_credit(lout_credit[n * P * VCS +: P * VCS]),
                .inj_valid(inj_valid[n * P +: P]), .inj_ready(inj_ready[n * P +: P]),
                .inj_data(inj_data[n * P * W +: P * W]), .inj_last(inj_last[n * P +: P]),
                .inj_error(inj_error[n * P +: P]),
                .ej_valid(ej_valid[n * P +: P]), .ej_ready(ej_ready[n * P +: P]),
                .ej_data(ej_data[n * P * W +: P * W]), .ej_last(ej_last[n * P +: P]),
                .err_count(err_count[n * ERR_BITS +: ERR_BITS]),
                .buf_nonempty(buf_nonempty[n * (VCS + 1) * P +: (VCS + 1) * P])
            );
        end
    endgenerate
endmodule
