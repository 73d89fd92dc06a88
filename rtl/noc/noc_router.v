// SPDX-License-Identifier: ISC
// noc_router: all-port wormhole router of a DIMS-dimensional mesh or torus.
//
// Ports: 2*DIMS network ports; port k = 2*d + s faces the neighbour in dimension d, on the
// + side (s = 0) or the - side (s = 1), for both its input and its output link. The local
// side is all-port: 2*DIMS injection channels and 2*DIMS ejection channels; ejection
// channel k delivers exactly the worms that arrived on input link k, so the receiver knows
// the arrival link. Injection channel j takes worms to any output link (INJ_ANY_PORT = 1)
// or only to output link j, the convention of the NI (INJ_ANY_PORT = 0: a smaller switch).
//
// Switching: wormhole, one flit per cycle per port, VCS virtual channels per link with
// credit-based flow control (BUF_DEPTH flits per VC). A head flit goes from an input
// buffer through route computation, VC allocation, switch allocation and the crossbar
// into the next router's buffer in one cycle (1 cycle per hop). Round-robin arbiters
// allocate output VCs and the switch, so no requester starves. The network input buffers
// are register arrays (BUF_RAM = 0) or block RAM whose read register is the front
// (BUF_RAM = 1: a flit is at the front 2 cycles after it arrives). With PIPELINE = 1 the
// route of a front flit is registered and the head leaves the cycle after its output VC
// is allocated: a head spends 3 cycles in a router, but the paths are short (for an FPGA
// of a few tens of MHz).
//
// Routing (offset routing, header documented in rtl/README.md "Flit and packet format"):
// the head flit holds a signed hop count per dimension and a start dimension; the worm
// moves along the first dimension, cyclically from the start dimension, whose count is
// non-zero, in the direction of its sign; each hop moves the count one step towards 0
// (the output port rewrites the head). All counts 0 at a network input: the worm is
// ejected on that input's ejection channel.
//
// Virtual channels (dateline per ring, deadlock freedom argued in rtl/README.md): on
// entering a dimension a worm whose remaining path crosses the wrap link takes a class-0
// VC, any other worm takes VC (entry coordinate's low bits); the wrap link is taken in
// class 1; while it continues in the same dimension a worm keeps its VC; but its last hop
// in a ring is taken in class 1, on the wrap link in class 0 (VC_LAST_HOP = 1). With
// VCS = 1 there is no dateline: a torus ring of 3 or more nodes is used as a line (its
// wrap links stay idle; a path over one is bad input), a ring of 2 keeps both links.
//
// Bad input: an injected head whose path would leave a mesh, or exceed a ring, or that has
// no hops at all, or a bad start dimension, or (INJ_ANY_PORT = 0) whose first hop is not
// its channel's port, is refused (the worm is consumed, inj_error pulses for one cycle)
// when inj_check_enable is high. A head that reaches a network input (or an unchecked
// injection channel) and cannot take its next hop is consumed up to its tail and counted
// in err_count. Nothing else is affected.
//
// Coordinates and sizes are inputs (constants in a network, registers on a board) so that
// every router of a network is the same module; synthesis folds constants.
module noc_router #(
    parameter DIMS         = 2,    // 2 or 3
    parameter FLIT_BITS    = 32,   // >= 32: the head flit's fields use bits [31:0]
    parameter BUF_DEPTH    = 4,    // flits per virtual channel on a network input (>= 3 for full rate)
    parameter INJ_DEPTH    = 4,    // flits per injection channel buffer (>= 2 for full rate)
    parameter ERR_BITS     = 16,
    parameter VCS          = 2,    // virtual channels per link: 1, 2, 4 or 8 (2+: two dateline classes)
    parameter BUF_RAM      = 0,    // 1: network input buffers in block RAM (a front register each)
    parameter INJ_ANY_PORT = 1,    // 0: injection channel j feeds output link j only
    parameter PIPELINE     = 0,    // 1: route and allocation registered (3 cycles per hop, short paths)
    parameter SIDE_BITS    = 7,    // 2..7: bits of a coordinate; sides of up to 2**SIDE_BITS nodes
    parameter VC_LAST_HOP  = 0,    // 1: a ring's last hop takes the class the dateline leaves free
    parameter VC_BITS      = (VCS <= 2) ? 1 : (VCS <= 4) ? 2 : 3   // derived: do not set
) (
    input  wire                        clk,
    input  wire                        rst,
    input  wire [23:0]                 my_coord,    // 8 bits per dimension, x in [7:0]
    input  wire [23:0]                 dim_size,    // 8 bits per dimension (1..128)
    input  wire                        torus,
    input  wire                        inj_check_enable,
    // links from the neighbours
    input  wire [2*DIMS-1:0]           lin_valid,
    input  wire [2*DIMS*VC_BITS-1:0]   lin_vc,
    input  wire [2*DIMS-1:0]           lin_last,
    input  wire [2*DIMS*FLIT_BITS-1:0] lin_data,
    output wire [2*DIMS*VCS-1:0]       lin_credit,  // bit VCS*port+vc: one buffer slot freed
    // links to the neighbours
    output wire [2*DIMS-1:0]           lout_valid,
    output wire [2*DIMS*VC_BITS-1:0]   lout_vc,
    output wire [2*DIMS-1:0]           lout_last,
    output wire [2*DIMS*FLIT_BITS-1:0] lout_data,
    input  wire [2*DIMS*VCS-1:0]       lout_credit,
    // injection channels (from the node)
    input  wire [2*DIMS-1:0]           inj_valid,
    output wire [2*DIMS-1:0]           inj_ready,
    input  wire [2*DIMS*FLIT_BITS-1:0] inj_data,
    input  wire [2*DIMS-1:0]           inj_last,
    output wire [2*DIMS-1:0]           inj_error,
    // ejection channels (to the node)
    output wire [2*DIMS-1:0]           ej_valid,
    input  wire [2*DIMS-1:0]           ej_ready,
    output wire [2*DIMS*FLIT_BITS-1:0] ej_data,
    output wire [2*DIMS-1:0]           ej_last,
    // status
    output reg  [ERR_BITS-1:0]         err_count,
    output wire [2*DIMS*(VCS+1)-1:0]   buf_nonempty // per input buffer: VCS*port+vc, then injection
);
    // Verilated once as a hierarchical block and shared by every router of a network
    // (with --hierarchical); a plain module otherwise.
    /*verilator hier_block*/
    localparam P         = 2 * DIMS;
    localparam VB        = VC_BITS;
    localparam integer  VC_CLASS1_I = VCS / 2;
    localparam integer  VC_LANES_I  = (VCS >= 2) ? VCS / 2 - 1 : 0;
    localparam [VB-1:0] VC_CLASS1   = VC_CLASS1_I[VB-1:0];   // the class bit (after the dateline)
    localparam [VB-1:0] VC_LANES    = VC_LANES_I[VB-1:0];    // mask of the lane within a class
    localparam NET_UNITS = P * VCS;
    localparam NIN       = NET_UNITS + P;
    localparam W         = FLIT_BITS;
    localparam CW        = (BUF_DEPTH < 4) ? 2 : (BUF_DEPTH < 8) ? 3 : (BUF_DEPTH < 16) ? 4 :
                           (BUF_DEPTH < 32) ? 5 : (BUF_DEPTH < 64) ? 6 : (BUF_DEPTH < 128) ? 7 :
                           (BUF_DEPTH < 256) ? 8 : 9;
    localparam [CW-1:0] CREDITS_INIT = BUF_DEPTH[CW-1:0];
    // Per output: the units that can feed it (no U-turn: an input port never feeds its own
    // output port; injection channels: all, or only the one of the same index).
    localparam NC = (P - 1) * VCS + ((INJ_ANY_PORT != 0) ? P : 1);
    localparam CB = (NC <= 2) ? 1 : (NC <= 4) ? 2 : (NC <= 8) ? 3 : (NC <= 16) ? 4 :
                    (NC <= 32) ? 5 : 6;

    // Unit index of candidate c of output o.
    function integer cand_unit;
        input integer o;
        input integer c;
        integer k;
        begin
            if (c < (P - 1) * VCS) begin
                k = c / VCS;
                if (k >= o) k = k + 1;
                cand_unit = k * VCS + c % VCS;
            end else if (INJ_ANY_PORT != 0) begin
                cand_unit = NET_UNITS + c - (P - 1) * VCS;
            end else begin
                cand_unit = NET_UNITS + o;
            end
        end
    endfunction

    // ---------------------------------------------------------------- this node's place
    // Shared by every input unit, functions of the coordinate inputs only, registered (the
    // inputs are constants in a network and registers written at boot on a board, so the
    // comparisons stay off the flits' paths). A dimension is a ring when the network is a
    // torus (with VCS = 1: only a ring of 2, whose two links need no dateline; a longer ring
    // is used as a line). Bounds are OB-bit signed numbers (sides of up to 2**SIDE_BITS);
    // (indexed by dimension 0..2 and port 0..5; what a 2-D router lacks stays 0).
    localparam SB = SIDE_BITS;
    localparam OB = SIDE_BITS + 1;
    localparam [OB-1:0] SIGN = {1'b1, {SB{1'b0}}};

    reg [2:0]        ring;
    reg [5:0]        link_ok;     // the output link exists (and may be used)
    reg [5:0]        wrap_port;   // the output link is a ring's wrap link
    // A path's count in dimension d must lie in [lo, hi] (path_*), and in [lo, hi] of the
    // line to stay off the wrap link (line_*). Kept as the operands of noc_in_range:
    // *_lo as ~(lo with its sign bit flipped), *_hi as hi with its sign bit flipped.
    reg [3*OB-1:0]   path_lo;
    reg [3*OB-1:0]   path_hi;
    reg [3*OB-1:0]   line_lo;
    reg [3*OB-1:0]   line_hi;
    reg [2:0]        ring_c;
    reg [5:0]        link_ok_c;
    reg [5:0]        wrap_port_c;
    reg [3*OB-1:0]   path_lo_c;
    reg [3*OB-1:0]   path_hi_c;
    reg [3*OB-1:0]   line_lo_c;
    reg [3*OB-1:0]   line_hi_c;
    integer          pd;
    reg [OB-1:0]     pc;          // coordinate
    reg [OB-1:0]     pn;          // side
    reg [OB-1:0]     pm;          // side - 1
    wire unused_place = ^{my_coord, dim_size};   // (the bits above SIDE_BITS, the z bytes in 2-D)
    always @* begin
        pc = {OB{1'b0}};
        pn = {OB{1'b0}};
        pm = {OB{1'b0}};
        for (pd = 0; pd < 3; pd = pd + 1) begin
            pc = {1'b0, my_coord[8 * pd +: SB]};
            pn = dim_size[8 * pd +: OB];
            pm = pn - 1'b1;
            ring_c[pd]              = pd < DIMS && torus && (VCS > 1 || pn[OB-1:2] == {(OB-2){1'b0}});
            link_ok_c[2 * pd]       = pd < DIMS && pn[OB-1:1] != {(OB-1){1'b0}} && (ring_c[pd] || pc < pm);
            link_ok_c[2 * pd + 1]   = pd < DIMS && pn[OB-1:1] != {(OB-1){1'b0}} && (ring_c[pd] || pc != {OB{1'b0}});
            wrap_port_c[2 * pd]     = ring_c[pd] && (pc == pm);
            wrap_port_c[2 * pd + 1] = ring_c[pd] && (pc == {OB{1'b0}});
            line_lo_c[OB * pd +: OB] = ~(({OB{1'b0}} - pc) ^ SIGN);
            line_hi_c[OB * pd +: OB] = (pm - pc) ^ SIGN;
            path_lo_c[OB * pd +: OB] = ~((ring_c[pd] ? {OB{1'b0}} - pm : {OB{1'b0}} - pc) ^ SIGN);
            path_hi_c[OB * pd +: OB] = (ring_c[pd] ? pm : pm - pc) ^ SIGN;
        end
    end
    always @(posedge clk) begin
        ring      <= ring_c;
        link_ok   <= link_ok_c;
        wrap_port <= wrap_port_c;
        path_lo   <= path_lo_c;
        path_hi   <= path_hi_c;
        line_lo   <= line_lo_c;
        line_hi   <= line_hi_c;
    end

    // ---------------------------------------------------------------- input units
    // Unit u < NET_UNITS: network input port u/VCS, VC u%VCS. Unit NET_UNITS+j: injection j.
    wire [NIN-1:0]   u_empty;
    wire [NIN-1:0]   u_last;
    wire [NIN-1:0]   u_first;      // front is its worm's head (not yet sent)
    wire [NIN*W-1:0] u_out;        // front flit
    wire [NIN-1:0]   u_head_req;   // front is a routable head not yet allocated
    wire [NIN-1:0]   u_eject;      // ... that is to be ejected
    wire [NIN*3-1:0] u_port;       // ... its output port
    wire [NIN*VB-1:0] u_vc;        // ... its output VC
    wire [NIN-1:0]   u_drop_start; // front is a bad head: consume the worm
    wire [NIN-1:0]   u_counted;    // ... and count it in err_count
    wire [NIN-1:0]   u_overflow;   // a flit arrived at a full buffer (protocol error, counted)
    reg  [NIN-1:0]   u_granted;    // an output (or ejection) VC was allocated to the unit
    reg  [NIN-1:0]   u_sent;       // the unit's front flit leaves this cycle

    genvar u;
    generate
        for (u = 0; u < NIN; u = u + 1) begin : unit
            localparam integer IS_NET   = (u < NET_UNITS) ? 1 : 0;
            localparam integer IN_PORT  = (IS_NET != 0) ? u / VCS : u - NET_UNITS;  // own port (or channel)
            localparam integer IN_DIM_I = IN_PORT / 2;
            localparam integer IN_VC_I  = (IS_NET != 0) ? u % VCS : 0;
            localparam [VB-1:0] IN_VC   = IN_VC_I[VB-1:0];
            localparam [1:0]   IN_DIM   = IN_DIM_I[1:0];
            localparam [2:0]   OWN_PORT = IN_PORT[2:0];
            wire         push;
            wire [W:0]   push_flit;
            wire [W:0]   front;
            wire         full;
            reg          mid;      // head gone, rest of the worm follows
            reg          alloc;    // owns an output or ejection channel
            reg          drop;     // consuming a bad worm
            wire         pop;
            wire         is_head = !u_empty[u] && !mid && !alloc && !drop;
            wire [W-1:0] fd = front[W-1:0];

            if (IS_NET != 0) begin : net
                if (VCS == 1) begin : one_vc
                    assign push = lin_valid[u];
                    wire unused_vc = lin_vc[u * VB];
                end else begin : vcs
                    assign push = lin_valid[u / VCS] && (lin_vc[(u / VCS) * VB +: VB] == IN_VC);
                end
                assign push_flit = {lin_last[u / VCS], lin_data[(u / VCS) * W +: W]};
                // Credits leave through a register: no combinational path from one
                // router to the next (one more cycle of credit round trip).
                reg credit_out;
                always @(posedge clk) credit_out <= !rst && pop;
                assign lin_credit[u] = credit_out;
            end else begin : inj
                assign push      = inj_valid[u - NET_UNITS];
                assign push_flit = {inj_last[u - NET_UNITS], inj_data[(u - NET_UNITS) * W +: W]};
                assign inj_ready[u - NET_UNITS] = !full;
                assign inj_error[u - NET_UNITS] = u_drop_start[u] && inj_check_enable;
            end

            noc_fifo #(
                .WIDTH(W + 1),
                .DEPTH((IS_NET != 0) ? BUF_DEPTH : INJ_DEPTH),
                .RAM((IS_NET != 0 && BUF_RAM != 0) ? 1 : 0)
            ) buffer (
                .clk(clk), .rst(rst),
                .push_valid(push), .push_data(push_flit),
                .pop(pop), .front_data(front),
                .empty(u_empty[u]), .full(full)
            );

            // Route computation on the front flit, read as a head.
            integer          d;
            integer          step;
            reg [1:0]        start_dim;
            reg [2:0]        nonzero;   // count of dimension d is not 0
            reg [2:0]        fits;      // ... is an OB-bit number
            reg [2:0]        one_hop;   // ... is +1 or -1
            reg [2:0]        dim_ok;    // ... lies on a path from here (injection)
            reg              extra;     // a count in a dimension the network lacks
            reg              found;
            reg [1:0]        rdim;
            reg signed [OB-1:0] roff;
            reg              rdir;
            reg [2:0]        rport;
            reg              ring_ok;   // the hop keeps |count| below the ring size
            reg              hop_ok;
            reg              wrap_hop;
            reg              crossing;
            reg              continuing;
            reg [VB-1:0]     rvc;
            reg [VB-1:0]     entry_vc;
            reg              bad;

            // Every count of an injected head against this node's bounds (injection units
            // check the whole path; network units the hop only).
            wire [2:0] on_path;
            genvar pd3;
            for (pd3 = 0; pd3 < 3; pd3 = pd3 + 1) begin : path_check
                if (IS_NET == 0 && pd3 < DIMS) begin : dim
                    noc_in_range #(.BITS(OB)) range (
                        .x(fd[8 * pd3 +: OB]), .lo_kept(path_lo[pd3 * OB +: OB]),
                        .hi_kept(path_hi[pd3 * OB +: OB]), .in_range(on_path[pd3])
                    );
                end else begin : none
                    assign on_path[pd3] = 1'b1;
                end
            end

            always @* begin
                start_dim = fd[25:24];
                extra     = 1'b0;
                nonzero   = 3'b000;
                fits      = 3'b111;
                one_hop   = 3'b000;
                dim_ok    = 3'b111;
                for (d = 0; d < 3; d = d + 1) begin
                    nonzero[d] = (fd[8 * d +: 8] != 8'd0);
                    if (SB < 7) fits[d] = (fd[8 * d + SB +: 8 - SB] == {(8 - SB){fd[8 * d + 7]}});
                    one_hop[d] = (fd[8 * d + 1 +: 7] == {7{fd[8 * d + 7]}}) && fd[8 * d];
                    if (d >= DIMS) begin
                        if (nonzero[d]) extra = 1'b1;
                    end else if (IS_NET == 0) begin
                        // (network inputs check the hop only, below)
                        dim_ok[d] = fits[d] && on_path[d];
                    end
                end
                found = 1'b0;
                rdim  = 2'd0;
                for (step = 0; step < DIMS; step = step + 1) begin
                    d = ({30'd0, start_dim} + step) % DIMS;
                    if (!found && nonzero[d]) begin
                        found = 1'b1;
                        rdim  = d[1:0];
                    end
                end
                rdir  = fd[8 * rdim + 7];
                rport = {rdim, rdir};
                roff  = fd[8 * rdim +: OB];
            end

            // The hop's count against this node's bounds in the hop's dimension.
            wire hop_on_path;   // the count lies on a path from here
            wire hop_on_line;   // ... and on the line, off the wrap link
            noc_in_range #(.BITS(OB)) path_range (
                .x(roff), .lo_kept(path_lo[rdim * OB +: OB]), .hi_kept(path_hi[rdim * OB +: OB]),
                .in_range(hop_on_path)
            );
            noc_in_range #(.BITS(OB)) line_range (
                .x(roff), .lo_kept(line_lo[rdim * OB +: OB]), .hi_kept(line_hi[rdim * OB +: OB]),
                .in_range(hop_on_line)
            );

            always @* begin
                if (VCS == 1)   // rings are of 2 nodes: a count of +1 or -1 only
                    ring_ok = one_hop[rdim];
                else
                    ring_ok = fits[rdim] && hop_on_path;
                hop_ok = ({30'd0, start_dim} < DIMS) && !extra &&
                         (!found || (link_ok[rport] && (!ring[rdim] || ring_ok)));
                // VC: a function of the route (worms of one route stay in order).
                wrap_hop   = wrap_port[rport];
                crossing   = ring[rdim] && !hop_on_line;
                continuing = (IS_NET != 0) && (IN_DIM == rdim);
                // entry_vc: a VC fixed by the coordinate where the worm enters the
                // dimension (its low bits), to spread the worms over the VCs.
                entry_vc = my_coord[8 * rdim +: VB];
                if (VCS == 1)        rvc = {VB{1'b0}};
                else if (VC_LAST_HOP != 0 && ring[rdim] && one_hop[rdim])
                    // the last hop in this ring (the worm leaves the ring after it): class 1,
                    // or class 0 on the wrap link, whose class 1 the crossing worms crowd
                    rvc = (wrap_hop ? {VB{1'b0}} : VC_CLASS1) | ((continuing ? IN_VC : entry_vc) & VC_LANES);
                else if (wrap_hop)   rvc = VC_CLASS1 | ((continuing ? IN_VC : entry_vc) & VC_LANES);
                else if (continuing) rvc = IN_VC;
                else if (crossing)   rvc = entry_vc & VC_LANES;
                else                 rvc = entry_vc;
                if (IS_NET != 0)
                    bad = !hop_ok || (found && rport == OWN_PORT);   // (a U-turn: corrupt)
                else if (inj_check_enable)   // (a path that stays inside has a first hop)
                    bad = ({30'd0, start_dim} >= DIMS) || extra || !(&dim_ok) || !found;
                else
                    bad = !hop_ok || !found;
                if (IS_NET == 0 && INJ_ANY_PORT == 0 && found && rport != OWN_PORT)
                    bad = 1'b1;
            end

            // The route as allocation sees it: computed now (PIPELINE = 0), or registered
            // (PIPELINE = 1: valid the cycle after the flit reaches the front).
            wire          q_ok;
            wire          q_bad;
            wire          q_found;
            wire [2:0]    q_port;
            wire [VB-1:0] q_vc;
            if (PIPELINE == 0) begin : now
                assign q_ok    = 1'b1;
                assign q_bad   = bad;
                assign q_found = found;
                assign q_port  = rport;
                assign q_vc    = rvc;
            end else begin : registered
                reg          r_ok;
                reg          r_bad;
                reg          r_found;
                reg [2:0]    r_port;
                reg [VB-1:0] r_vc;
                always @(posedge clk) begin
                    r_ok    <= !rst && !u_empty[u] && !pop;   // the same flit stays in front
                    r_bad   <= bad;
                    r_found <= found;
                    r_port  <= rport;
                    r_vc    <= rvc;
                end
                assign q_ok    = r_ok;
                assign q_bad   = r_bad;
                assign q_found = r_found;
                assign q_port  = r_port;
                assign q_vc    = r_vc;
            end

            assign u_last[u]         = front[W];
            assign u_first[u]        = !mid;
            assign u_out[u * W +: W] = fd;
            assign u_head_req[u]     = is_head && q_ok && !q_bad;
            // (an injected head is never ejected: no hop at all is bad; with INJ_ANY_PORT
            // = 0 its port is its channel's, or it is bad)
            assign u_eject[u]        = (IS_NET != 0) && !q_found;
            assign u_port[u * 3 +: 3] = (IS_NET == 0 && INJ_ANY_PORT == 0) ? OWN_PORT : q_port;
            assign u_vc[u * VB +: VB] = q_vc;
            assign u_drop_start[u]   = is_head && q_ok && q_bad;
            assign u_counted[u]      = !((IS_NET == 0) && inj_check_enable);
            assign u_overflow[u]     = (IS_NET != 0) && push && full;
            assign pop = u_sent[u] || u_drop_start[u] || (drop && !u_empty[u]);

            always @(posedge clk) begin
                if (rst) begin
                    mid   <= 1'b0;
                    alloc <= 1'b0;
                    drop  <= 1'b0;
                end else begin
                    if (u_granted[u]) alloc <= 1'b1;
                    if (u_sent[u]) begin
                        mid <= !u_last[u];
                        if (u_last[u]) alloc <= 1'b0;
                    end
                    if (u_drop_start[u] && !u_last[u]) drop <= 1'b1;
                    if (drop && !u_empty[u] && u_last[u]) drop <= 1'b0;
                end
            end
        end
    endgenerate

    assign buf_nonempty = ~u_empty;

    // ---------------------------------------------------------------- output ports
    wire [P*NIN-1:0] out_granted;  // per output: unit allocated an output VC this cycle
    wire [P*NIN-1:0] out_sent;     // per output: unit whose flit crosses the switch
    wire [P*NIN-1:0] ej_granted;
    wire [P*NIN-1:0] ej_sent;

    genvar o;
    generate
        for (o = 0; o < P; o = o + 1) begin : out
            localparam integer OUT_DIM = o / 2;
            localparam integer OUT_NEG = o % 2;   // 1: the - side, counts go up towards 0
            // the candidates' signals, gathered (see the cand block below)
            wire [NC-1:0]      c_req;
            wire [NC-1:0]      c_empty;
            wire [NC-1:0]      c_last;
            wire [NC-1:0]      c_first;
            wire [NC*VB-1:0]   c_vc;
            wire [NC*W-1:0]    c_out;
            wire [NC*NIN-1:0]  c_granted;    // candidate i's grant, at its unit's bit
            wire [NC*NIN-1:0]  c_sent;       // candidate i's flit crosses, at its unit's bit
            wire [NC-1:0]      head_grant;
            reg  [CB-1:0]      head_idx;
            reg  [VB-1:0]      head_vc;
            wire               head_valid = |head_grant;
            reg  [VCS-1:0]     owned;        // the output VC carries a worm
            reg  [VCS*CB-1:0]  owner;        // candidate index owning each output VC
            reg  [VCS*CW-1:0]  credits;
            reg  [VCS-1:0]     has_credit;   // credits != 0
            reg  [VCS*CW-1:0]  credits_next;
            reg  [VCS-1:0]     sw_req;
            wire [VCS-1:0]     sw_grant;
            reg  [VB-1:0]      send_vc;
            reg  [CB-1:0]      send_idx;
            wire               send_valid = |sw_grant;
            wire               send_last  = c_last[send_idx];
            wire               send_first = c_first[send_idx];
            reg  [W-1:0]       send_data;
            integer            i;
            integer            v;

            reg  [NIN-1:0]     granted_units;
            reg  [NIN-1:0]     sent_units;

            // Candidate c is unit CU, fixed at elaboration: wires, no function called at run
            // time (Verilator numbers an inlined function's temporaries per instance, and the
            // routers of a mesh could no longer share one body of code).
            genvar c;
            for (c = 0; c < NC; c = c + 1) begin : cand
                localparam integer   CU   = cand_unit(o, c);
                localparam integer   CI_I = c;
                localparam [CB-1:0]  CI   = CI_I[CB-1:0];
                localparam [NIN-1:0] CU_BIT = {{(NIN-1){1'b0}}, 1'b1} << CU;
                wire [VB-1:0] vc = u_vc[CU * VB +: VB];
                reg           vc_taken;   // the output VC the head asks for carries a worm
                reg           sent;
                integer       cv;
                always @* begin
                    vc_taken = 1'b0;
                    for (cv = 0; cv < VCS; cv = cv + 1)
                        if ({{(32-VB){1'b0}}, vc} == cv) vc_taken = owned[cv];
                    if (PIPELINE != 0) begin   // (only owners send: decode the owners)
                        sent = 1'b0;
                        for (cv = 0; cv < VCS; cv = cv + 1)
                            if (sw_grant[cv] && owner[cv * CB +: CB] == CI) sent = 1'b1;
                    end else
                        sent = send_valid && (send_idx == CI);
                end
                assign c_empty[c]         = u_empty[CU];
                assign c_last[c]          = u_last[CU];
                assign c_first[c]         = u_first[CU];
                assign c_vc[c * VB +: VB] = vc;
                assign c_out[c * W +: W]  = u_out[CU * W +: W];
                assign c_req[c]           = u_head_req[CU] && !u_eject[CU] &&
                                            (u_port[CU * 3 +: 3] == o) && !vc_taken;
                assign c_granted[c * NIN +: NIN] = head_grant[c] ? CU_BIT : {NIN{1'b0}};
                assign c_sent[c * NIN +: NIN]    = sent ? CU_BIT : {NIN{1'b0}};
            end

            noc_rr_arbiter #(.N(NC)) head_arbiter (
                .clk(clk), .rst(rst), .req(c_req), .advance(1'b1), .grant(head_grant)
            );

            always @* begin
                head_idx = {CB{1'b0}};
                for (i = 0; i < NC; i = i + 1)
                    if (head_grant[i]) head_idx = i[CB-1:0];
                head_vc = c_vc[head_idx * VB +: VB];
                for (v = 0; v < VCS; v = v + 1) begin
                    if (owned[v])
                        sw_req[v] = !c_empty[owner[v * CB +: CB]];
                    else   // (PIPELINE: the head leaves the cycle after its allocation)
                        sw_req[v] = (PIPELINE == 0) && head_valid && ({{(32-VB){1'b0}}, head_vc} == v);
                    if (!has_credit[v]) sw_req[v] = 1'b0;
                end
            end

            if (VCS == 1) begin : one_vc
                assign sw_grant = sw_req;
            end else begin : vcs
                noc_rr_arbiter #(.N(VCS)) switch_arbiter (
                    .clk(clk), .rst(rst), .req(sw_req), .advance(1'b1), .grant(sw_grant)
                );
            end

            always @* begin
                send_vc  = {VB{1'b0}};
                send_idx = (PIPELINE != 0) ? owner[0 +: CB] : head_idx;
                for (v = 0; v < VCS; v = v + 1)
                    if (sw_grant[v]) begin
                        send_vc  = v[VB-1:0];
                        send_idx = (owned[v] || PIPELINE != 0) ? owner[v * CB +: CB] : head_idx;
                    end
            end

            always @* begin
                // The head leaves with its count in this dimension one step nearer 0.
                send_data = c_out[send_idx * W +: W];
                if (send_first)
                    send_data[8 * OUT_DIM +: 8] = send_data[8 * OUT_DIM +: 8] +
                                                  ((OUT_NEG != 0) ? 8'd1 : 8'hff);
            end

            always @* begin
                granted_units = {NIN{1'b0}};
                sent_units    = {NIN{1'b0}};
                for (i = 0; i < NC; i = i + 1) begin
                    granted_units = granted_units | c_granted[i * NIN +: NIN];
                    sent_units    = sent_units | c_sent[i * NIN +: NIN];
                end
            end
            assign out_granted[o * NIN +: NIN] = granted_units;
            assign out_sent[o * NIN +: NIN]    = sent_units;

            assign lout_valid[o]         = send_valid;
            assign lout_vc[o * VB +: VB] = send_vc;
            assign lout_last[o]          = send_last;
            assign lout_data[o * W +: W] = send_data;

            always @* begin
                for (v = 0; v < VCS; v = v + 1)
                    credits_next[v * CW +: CW] = credits[v * CW +: CW]
                                                 + {{(CW-1){1'b0}}, lout_credit[o * VCS + v]}
                                                 - {{(CW-1){1'b0}}, sw_grant[v]};
            end

            always @(posedge clk) begin
                if (rst) begin
                    owned      <= {VCS{1'b0}};
                    credits    <= {VCS{CREDITS_INIT}};
                    has_credit <= {VCS{1'b1}};
                end else begin
                    for (v = 0; v < VCS; v = v + 1) begin
                        if (head_valid && ({{(32-VB){1'b0}}, head_vc} == v)) begin
                            owned[v]              <= 1'b1;
                            owner[v * CB +: CB]   <= head_idx;
                        end
                        if (sw_grant[v] && send_last)
                            owned[v] <= 1'b0;
                        credits[v * CW +: CW] <= credits_next[v * CW +: CW];
                        has_credit[v]         <= credits_next[v * CW +: CW] != {CW{1'b0}};
                    end
                end
            end
        end
    endgenerate

    // ---------------------------------------------------------------- ejection channels
    genvar k;
    generate
        for (k = 0; k < P; k = k + 1) begin : ej
            reg  [VCS-1:0] owner;
            wire [VCS-1:0] head_req = u_head_req[k * VCS +: VCS] & u_eject[k * VCS +: VCS]
                                      & {VCS{~|owner}};
            wire [VCS-1:0] head_grant;
            wire [VCS-1:0] current = (|owner) ? owner : head_grant;
            wire [VCS-1:0] avail = current & ~u_empty[k * VCS +: VCS];
            wire           fire = (|avail) && ej_ready[k];
            wire           last = |(avail & u_last[k * VCS +: VCS]);

            if (VCS == 1) begin : one_vc
                assign head_grant = head_req;
            end else begin : vcs
                noc_rr_arbiter #(.N(VCS)) arbiter (
                    .clk(clk), .rst(rst), .req(head_req), .advance(1'b1), .grant(head_grant)
                );
            end

            assign ej_valid[k]        = |avail;
            assign ej_last[k]         = last;
            // (the data of the current VC, meaningful while ej_valid)
            reg [W-1:0] data;
            integer     ev;
            always @* begin
                data = u_out[k * VCS * W +: W];
                for (ev = 1; ev < VCS; ev = ev + 1)
                    if (current[ev]) data = u_out[(k * VCS + ev) * W +: W];
            end
            assign ej_data[k * W +: W] = data;

            assign ej_granted[k * NIN +: NIN] = {{(NIN - VCS){1'b0}}, head_grant} << (k * VCS);
            assign ej_sent[k * NIN +: NIN]    = {{(NIN - VCS){1'b0}}, avail & {VCS{fire}}} << (k * VCS);

            always @(posedge clk) begin
                if (rst) owner <= {VCS{1'b0}};
                else begin
                    if (|head_grant) owner <= head_grant;
                    if (fire && last) owner <= {VCS{1'b0}};
                end
            end
        end
    endgenerate

    // ---------------------------------------------------------------- unit bookkeeping
    integer po;
    always @* begin
        u_granted  = {NIN{1'b0}};
        u_sent     = {NIN{1'b0}};
        for (po = 0; po < P; po = po + 1) begin
            u_granted = u_granted | out_granted[po * NIN +: NIN] | ej_granted[po * NIN +: NIN];
            u_sent    = u_sent | out_sent[po * NIN +: NIN] | ej_sent[po * NIN +: NIN];
        end
    end

    // err_count: the error events of a cycle counted in the same cycle (PIPELINE = 0), or
    // registered first and counted one cycle later (PIPELINE = 1: the adder off the paths
    // of the flits).
    localparam EW = (NIN + P < 8) ? 3 : (NIN + P < 16) ? 4 : (NIN + P < 32) ? 5 : 6;
    wire [NIN-1:0] err_drop_now = u_drop_start & u_counted;
    reg  [P-1:0]   err_overflow_now;
    integer        ui;
    always @* begin
        for (ui = 0; ui < P; ui = ui + 1)   // (one flit per link and cycle)
            err_overflow_now[ui] = |u_overflow[ui * VCS +: VCS];
    end
    wire [NIN-1:0] err_drop;
    wire [P-1:0]   err_overflow;
    generate
        if (PIPELINE == 0) begin : err_now
            assign err_drop     = err_drop_now;
            assign err_overflow = err_overflow_now;
        end else begin : err_registered
            reg [NIN-1:0] drop_r;
            reg [P-1:0]   overflow_r;
            always @(posedge clk) begin
                if (rst) begin
                    drop_r     <= {NIN{1'b0}};
                    overflow_r <= {P{1'b0}};
                end else begin
                    drop_r     <= err_drop_now;
                    overflow_r <= err_overflow_now;
                end
            end
            assign err_drop     = drop_r;
            assign err_overflow = overflow_r;
        end
    endgenerate
    reg [EW-1:0] errors_now;
    always @* begin
        errors_now = {EW{1'b0}};
        for (ui = 0; ui < NIN; ui = ui + 1) errors_now = errors_now + {{(EW-1){1'b0}}, err_drop[ui]};
        for (ui = 0; ui < P; ui = ui + 1) errors_now = errors_now + {{(EW-1){1'b0}}, err_overflow[ui]};
    end

    always @(posedge clk) begin
        if (rst) err_count <= {ERR_BITS{1'b0}};
        else     err_count <= err_count + {{(ERR_BITS-EW){1'b0}}, errors_now};
    end
endmodule
