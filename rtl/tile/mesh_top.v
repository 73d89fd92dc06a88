// SPDX-License-Identifier: ISC
// mesh_top: a whole rvmesh machine: SIZE_X x SIZE_Y (x SIZE_Z) tiles, mesh or torus, each
// tile a core + RAM + NI + router, the routers' links wired by noc_links (as in noc_network).
//
// Node n has coordinates x = n % SIZE_X, y = (n / SIZE_X) % SIZE_Y, z = n / (SIZE_X*SIZE_Y)
// (DIMS = 2: SIZE_Z = 1). Output link k of node n feeds input link k^1 of its neighbour in
// direction k (k = 2*d + s, s = 0 the + side); credits flow back the same way. A dimension
// of size 1 has no links; on a mesh the edge ports have none either (the routers never
// route there: the NI's injection check refuses such worms). Per-node outputs are
// flattened by node index; link_valid[n*2*DIMS + k] is high when output link k of node n
// carries a flit this cycle (the simulator counts flits per link from it).
//
// Fault injection (mesh-sim --cut-link): while link_dead[n*2*DIMS + k] is high, port k of
// node n hears nothing from its cable: no flit arrives on input link k, no credit on output
// link k (the wires read 0, as a pulled cable's would). A dead cable is both of its ends.
// link_credit is the credits each output link gets back this cycle (bit (n*2*DIMS+k)*VCS+v),
// what the simulator's credit timeout watches.
// More faults for mesh-sim, all 0 in normal use: link_drop[n*2*DIMS + k] (by input port, as
// link_dead) makes the flit on the wire into port k of node n this cycle vanish (on the
// plain wires the router never sees it; with GUARD = 1 the guard's receiving end gets a
// zero word, between the two ends, and has it sent again); link_arrive says a flit is on
// that wire this cycle (what the simulator times a drop by). link_hold[n*2*DIMS + k] (by
// output link) holds back the credits coming back to output link k of node n (link_hold.v:
// released afterwards, none lost; the sender waits). node_stop[n] stops node n's core at
// its next load or store (node_core's hold: a hung program); its NI and router go on.
// link_vc is the VC of each output link's flit (the credit watch names the VCs stuck).
//
// Every input but clk is sampled at the clock edge (rst_q, tohost_q, the fault registers
// below) before the tiles and links see it: no logic depends on an input combinationally, so
// a Verilated model has no "input combinational" logic to evaluate again at every eval()
// (8x8 torus: 1.15x the cycles per CPU second). mesh-sim sets them one cycle ahead: a fault for
// cycle C is set when cycle C - 1 is looked at, and rst falls before the last reset edge
// (rst_q starts high, so the tiles see two reset edges as before). A drop is armed:
// link_drop[l] arms wire l (from the next cycle on) and the next flit on it vanishes, the
// arm clears then; link_dropped[l] says the armed wire's flit vanishes this cycle.
//
// GUARD = 1 protects every link (noc_links_guarded: CRC-8 and a sequence number per flit,
// go-back-N replay; rtl/noc/README.md) with a link_fault on each wire: flip_rate / 2^32 is
// the chance that a flit (or a reverse word) is damaged, fault_seed makes it repeatable.
// Per port, 16-bit saturating counters: link_errors (words the receiving end refused),
// link_flips (flits damaged on the forward wire), link_retries (flits the sending end sent
// again). GUARD = 0 (the default): plain wires; the fault inputs are unused, counters 0.
module mesh_top #(
    parameter        DIMS      = 2,
    parameter        SIZE_X    = 4,
    parameter        SIZE_Y    = 4,
    parameter        SIZE_Z    = 1,
    parameter        TORUS     = 1,
    parameter        FLIT_BITS = 32,
    parameter        BUF_DEPTH = 4,
    parameter        INJ_DEPTH = 4,
    parameter        VCS       = 2,
    parameter        BUF_RAM   = 0,     // the router's shape (tile.v; a board's: config.mk ROUTER_BOARD_*)
    parameter        INJ_ANY_PORT = 1,
    parameter        PIPELINE  = 0,
    parameter        SIDE_BITS = 7,
    parameter [31:0] RAM_BASE  = 32'h8000_0000,
    parameter        RAM_BYTES = 131072,
    parameter        LINE_WORDS = 16,
    parameter        COMBINE   = 0,     // the NI combines puts (tile_ni; config.mk NI_COMBINE)
    parameter        MUL_KIND  = 1,     // rv32_core's configuration (rtl/core/README.md)
    parameter        DIV_BITS  = 4,
    parameter        LOAD_BYPASS = 1,
    parameter        FAST_REDIRECT = 1,
    parameter        DSP_COUNTERS = 0,
    parameter        GUARD     = 0      // 1: every link protected (noc_links_guarded)
) (
    input  wire                            clk,
    input  wire                            rst,
    input  wire [31:0]                     tohost_addr,
    output wire [SIZE_X*SIZE_Y*SIZE_Z-1:0]    console_valid,
    output wire [SIZE_X*SIZE_Y*SIZE_Z*8-1:0]  console_data,
    output wire [SIZE_X*SIZE_Y*SIZE_Z-1:0]    tohost_valid,
    output wire [SIZE_X*SIZE_Y*SIZE_Z*32-1:0] tohost_data,
    output wire [SIZE_X*SIZE_Y*SIZE_Z-1:0]    retire_valid,
    output wire [SIZE_X*SIZE_Y*SIZE_Z*32-1:0] retire_pc,
    output wire [SIZE_X*SIZE_Y*SIZE_Z-1:0]    trap_valid,
    output wire [SIZE_X*SIZE_Y*SIZE_Z*32-1:0] trap_cause,
    output wire [SIZE_X*SIZE_Y*SIZE_Z*32-1:0] trap_pc,
    output wire [SIZE_X*SIZE_Y*SIZE_Z*32-1:0] trap_tval,
    output wire [SIZE_X*SIZE_Y*SIZE_Z-1:0]    halted,
    output wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS-1:0] link_valid,
    input  wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS-1:0] link_dead,
    output wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS*VCS-1:0] link_credit,
    input  wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS-1:0] link_drop,
    output wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS-1:0] link_arrive,
    output wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS-1:0] link_dropped,
    input  wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS-1:0] link_hold,
    output wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS*((VCS <= 2) ? 1 : (VCS <= 4) ? 2 : 3)-1:0] link_vc,
    input  wire [SIZE_X*SIZE_Y*SIZE_Z-1:0]        node_stop,
    // GUARD = 1 only: fault injection and the links' counters
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [31:0]                            fault_seed,
    input  wire [31:0]                            flip_rate,
    /* verilator lint_on UNUSEDSIGNAL */
    output wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS*16-1:0] link_errors,
    output wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS*16-1:0] link_flips,
    output wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS*16-1:0] link_retries
);
    localparam N  = SIZE_X * SIZE_Y * SIZE_Z;
    localparam P  = 2 * DIMS;
    localparam W  = FLIT_BITS;
    localparam VB = (VCS <= 2) ? 1 : (VCS <= 4) ? 2 : 3;

    // the inputs, sampled at the edge (above); rst_q starts high: the tiles are held in
    // reset from the first edge on (this module is the simulator's top: never synthesised)
    reg            rst_q = 1'b1;
    reg [31:0]     tohost_q;
    /* verilator lint_off UNUSEDSIGNAL */
    reg [31:0]     seed_q, flip_q;   // GUARD = 1 only
    /* verilator lint_on UNUSEDSIGNAL */
    reg [N*P-1:0]  dead_q, hold_q, drop_armed;
    reg [N-1:0]    stop_q;
    wire [N*P-1:0] arrive;   // a flit on the wire into each input port this cycle
    always @(posedge clk) begin
        rst_q      <= rst;
        tohost_q   <= tohost_addr;
        seed_q     <= fault_seed;
        flip_q     <= flip_rate;
        dead_q     <= link_dead;
        hold_q     <= link_hold;
        stop_q     <= node_stop;
        drop_armed <= (rst_q ? {(N*P){1'b0}} : drop_armed & ~arrive) | link_drop;   // (armed in reset: @0)
    end
    assign link_arrive  = arrive;
    assign link_dropped = drop_armed & arrive;

    // every tile's links, wired into the mesh or torus by noc_links (link_valid is the
    // tiles' lout_valid: the flits each output link carries)
    wire [N*P-1:0]     lin_valid;
    wire [N*P*VB-1:0]  lout_vc, lin_vc;
    wire [N*P-1:0]     lout_last, lin_last;
    wire [N*P*W-1:0]   lout_data, lin_data;
    wire [N*P*VCS-1:0] lin_credit, lout_credit;
    generate
        if (GUARD != 0) begin : guarded
            /* verilator lint_off UNUSEDSIGNAL */
            wire [N*P*16-1:0] rev_errors;
            wire [N*P-1:0]    busy;
            wire [N*P-1:0]    stalled;
            /* verilator lint_on UNUSEDSIGNAL */
            noc_links_guarded #(
                .DIMS(DIMS), .SIZE_X(SIZE_X), .SIZE_Y(SIZE_Y), .SIZE_Z(SIZE_Z), .TORUS(TORUS),
                .FLIT_BITS(FLIT_BITS), .VCS(VCS), .BUF_DEPTH(BUF_DEPTH), .COUNT_BITS(16)
            ) links (
                .clk(clk), .rst(rst_q), .fault_seed(seed_q), .flip_rate(flip_q),
                .dead_port(32'd0), .dead_cycle(32'd0),   // (a dead cable: dead_q below)
                .drop(link_dropped), .arrive(arrive),
                .lout_valid(link_valid), .lout_vc(lout_vc), .lout_last(lout_last), .lout_data(lout_data),
                .lin_credit(lin_credit),
                .lin_valid(lin_valid), .lin_vc(lin_vc), .lin_last(lin_last), .lin_data(lin_data),
                .lout_credit(lout_credit),
                .link_errors(link_errors), .link_flips(link_flips), .link_retries(link_retries),
                .link_rev_errors(rev_errors), .link_busy(busy), .link_stalled(stalled)
            );
        end else begin : plain
            noc_links #(
                .DIMS(DIMS), .SIZE_X(SIZE_X), .SIZE_Y(SIZE_Y), .SIZE_Z(SIZE_Z), .TORUS(TORUS),
                .FLIT_BITS(FLIT_BITS), .VCS(VCS)
            ) links (
                .lout_valid(link_valid), .lout_vc(lout_vc), .lout_last(lout_last), .lout_data(lout_data),
                .lin_credit(lin_credit),
                .lin_valid(lin_valid), .lin_vc(lin_vc), .lin_last(lin_last), .lin_data(lin_data),
                .lout_credit(lout_credit)
            );
            assign link_errors  = {(N*P*16){1'b0}};
            assign link_flips   = {(N*P*16){1'b0}};
            assign link_retries = {(N*P*16){1'b0}};
            assign arrive       = lin_valid;
        end
    endgenerate

    // a dead port hears nothing; a dropped flit is not heard (GUARD = 1: dropped inside)
    wire [N*P-1:0]     heard_valid = lin_valid & ~dead_q & ~(GUARD != 0 ? {(N*P){1'b0}} : link_dropped);
    wire [N*P*VCS-1:0] dead_vcs, sent_credit;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [N*P*VCS-1:0] held_credit;
    /* verilator lint_on UNUSEDSIGNAL */
    genvar l;
    generate
        for (l = 0; l < N * P; l = l + 1) begin : cut
            assign dead_vcs[l * VCS +: VCS] = {VCS{dead_q[l]}};
            link_hold #(.VCS(VCS), .BUF_DEPTH(BUF_DEPTH)) credits (
                .clk(clk), .rst(rst_q), .hold(hold_q[l]), .in(sent_credit[l * VCS +: VCS]),
                .out(link_credit[l * VCS +: VCS]), .held(held_credit[l * VCS +: VCS])
            );
        end
    endgenerate
    assign sent_credit = lout_credit & ~dead_vcs;
    assign link_vc     = lout_vc;

    // what each NI reads as LINK_STATUS(p): errors detected on its input link p, flits
    // resent on its output link p (both 0 on plain links)
    wire [N*P*32-1:0] link_status;
    generate
        for (l = 0; l < N * P; l = l + 1) begin : status
            assign link_status[l * 32 +: 32] = {link_retries[l * 16 +: 16], link_errors[l * 16 +: 16]};
        end
    endgenerate

    localparam [23:0] SIZES = {SIZE_Z[7:0], SIZE_Y[7:0], SIZE_X[7:0]};
    localparam [15:0] COUNT = N[15:0];

    genvar n;
    generate
        for (n = 0; n < N; n = n + 1) begin : node
            localparam integer CX = n % SIZE_X;
            localparam integer CY = (n / SIZE_X) % SIZE_Y;
            localparam integer CZ = n / (SIZE_X * SIZE_Y);
            localparam [23:0] COORD = {CZ[7:0], CY[7:0], CX[7:0]};
            localparam [15:0] INDEX = n;
            // the tile's board-device port (IO_BYTES = 0 here: never used)
            wire        unused_io_valid, unused_io_write;
            wire [31:0] unused_io_addr, unused_io_data;
            wire [3:0]  unused_io_wstrb;

            tile #(
                .DIMS(DIMS), .FLIT_BITS(FLIT_BITS), .BUF_DEPTH(BUF_DEPTH),
                .INJ_DEPTH(INJ_DEPTH), .VCS(VCS), .BUF_RAM(BUF_RAM), .INJ_ANY_PORT(INJ_ANY_PORT),
                .PIPELINE(PIPELINE), .SIDE_BITS(SIDE_BITS), .RAM_BASE(RAM_BASE),
                .RAM_BYTES(RAM_BYTES), .LINE_WORDS(LINE_WORDS), .COMBINE(COMBINE),
                .MUL_KIND(MUL_KIND), .DIV_BITS(DIV_BITS),
                .LOAD_BYPASS(LOAD_BYPASS), .FAST_REDIRECT(FAST_REDIRECT),
                .DSP_COUNTERS(DSP_COUNTERS)
            ) tile (
                .clk(clk), .rst(rst_q),
                .my_coord(COORD), .dim_size(SIZES), .torus(TORUS != 0),
                .node_index(INDEX), .node_count(COUNT), .tohost_addr(tohost_q),
                .console_ready(1'b1),   // no board devices in simulation
                .stop(stop_q[n]),
                .io_req_valid(unused_io_valid), .io_req_ready(1'b0), .io_req_error(1'b1),
                .io_req_addr(unused_io_addr), .io_req_write(unused_io_write),
                .io_req_wstrb(unused_io_wstrb), .io_req_data(unused_io_data), .io_resp_data(32'd0),
                .lin_valid(heard_valid[n * P +: P]), .lin_vc(lin_vc[n * P * VB +: P * VB]),
                .lin_last(lin_last[n * P +: P]), .lin_data(lin_data[n * P * W +: P * W]),
                .lin_credit(lin_credit[n * P * VCS +: P * VCS]),
                .lout_valid(link_valid[n * P +: P]), .lout_vc(lout_vc[n * P * VB +: P * VB]),
                .lout_last(lout_last[n * P +: P]), .lout_data(lout_data[n * P * W +: P * W]),
                .lout_credit(link_credit[n * P * VCS +: P * VCS]),
                .link_status(link_status[n * P * 32 +: P * 32]),
                .console_valid(console_valid[n]), .console_data(console_data[n * 8 +: 8]),
                .tohost_valid(tohost_valid[n]), .tohost_data(tohost_data[n * 32 +: 32]),
                .retire_valid(retire_valid[n]), .retire_pc(retire_pc[n * 32 +: 32]),
                .trap_valid(trap_valid[n]), .trap_cause(trap_cause[n * 32 +: 32]),
                .trap_pc(trap_pc[n * 32 +: 32]), .trap_tval(trap_tval[n * 32 +: 32]),
                .halted(halted[n])
            );
        end
    endgenerate
endmodule
