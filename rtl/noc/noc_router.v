// noc_router: all-port wormhole router of a DIMS-dimensional mesh or torus.
//
// Ports: 2*DIMS network ports; port k = 2*d + s faces the neighbour in dimension d, on the
// + side (s = 0) or the - side (s = 1), for both its input and its output link. The local
// side is all-port: 2*DIMS injection channels (each may go to any output link) and 2*DIMS
// ejection channels; ejection channel k delivers exactly the worms that arrived on input
// link k, so the receiver knows the arrival link.
//
// Switching: wormhole, one flit per cycle per port, two virtual channels per link with
// credit-based flow control (BUF_DEPTH flits per VC). A head flit goes from an input
// buffer through route computation, VC allocation, switch allocation and the crossbar
// into the next router's buffer in one cycle (1 cycle per hop). Round-robin arbiters
// allocate output VCs and the switch, so no requester starves.
//
// Routing (offset routing, header documented in rtl/README.md "Flit and packet format"):
// the head flit holds a signed hop count per dimension and a start dimension; the worm
// moves along the first dimension, cyclically from the start dimension, whose count is
// non-zero, in the direction of its sign; each hop moves the count one step towards 0.
// All counts 0 at a network input: the worm is ejected on that input's ejection channel.
//
// Virtual channels (dateline per ring, deadlock freedom argued in rtl/README.md): on
// entering a dimension a worm whose remaining path crosses the wrap link takes VC 0, any
// other worm takes VC (coordinate parity); the wrap link itself is always taken on VC 1;
// while it continues in the same dimension a worm keeps its VC.
//
// Bad input: an injected head whose path would leave a mesh, or exceed a ring, or that has
// no hops at all, or a bad start dimension, is refused (the worm is consumed, inj_error
// pulses for one cycle) when inj_check_enable is high. A head that reaches a network input
// (or an unchecked injection channel) and cannot take its next hop is consumed up to its
// tail and counted in err_count. Nothing else is affected.
//
// Coordinates and sizes are inputs (constants in a network) so that every router of a
// network is the same module; synthesis folds them.
module noc_router #(
    parameter DIMS      = 2,    // 2 or 3
    parameter FLIT_BITS = 32,   // >= 32: the head flit's fields use bits [31:0]
    parameter BUF_DEPTH = 4,    // flits per virtual channel on a network input (>= 3 for full rate)
    parameter INJ_DEPTH = 4,    // flits per injection channel buffer
    parameter ERR_BITS  = 16,
    parameter VCS       = 2,    // virtual channels per link: 2, 4 or 8 (two dateline classes)
    parameter VC_BITS   = (VCS <= 2) ? 1 : (VCS <= 4) ? 2 : 3   // derived: do not set
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
    localparam integer  VC_LANES_I  = VCS / 2 - 1;
    localparam [VB-1:0] VC_CLASS1   = VC_CLASS1_I[VB-1:0];   // the class bit (after the dateline)
    localparam [VB-1:0] VC_LANES    = VC_LANES_I[VB-1:0];    // mask of the lane within a class
    localparam NET_UNITS = P * VCS;
    localparam NIN       = NET_UNITS + P;
    localparam W         = FLIT_BITS;
    localparam CW        = (BUF_DEPTH < 4) ? 2 : (BUF_DEPTH < 8) ? 3 : (BUF_DEPTH < 16) ? 4 :
                           (BUF_DEPTH < 32) ? 5 : (BUF_DEPTH < 64) ? 6 : 7;
    localparam [CW-1:0] CREDITS_INIT = BUF_DEPTH[CW-1:0];

    // ---------------------------------------------------------------- input units
    // Unit u < NET_UNITS: network input port u/2, VC u%2. Unit NET_UNITS+j: injection j.
    wire [NIN-1:0]   u_empty;
    wire [NIN-1:0]   u_last;
    wire [NIN*W-1:0] u_out;        // front flit as it leaves (head: count rewritten)
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
            localparam integer IN_DIM_I = u / (2 * VCS);
            localparam integer IN_VC_I  = u % VCS;
            localparam [VB-1:0] IN_VC   = IN_VC_I[VB-1:0];
            localparam [1:0]   IN_DIM   = IN_DIM_I[1:0];

            if (u < NET_UNITS) begin : net
                assign push      = lin_valid[u / VCS] && (lin_vc[(u / VCS) * VB +: VB] == IN_VC);
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
                .DEPTH((u < NET_UNITS) ? BUF_DEPTH : INJ_DEPTH)
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
            reg signed [9:0] off_d;
            reg signed [9:0] coord_d;
            reg signed [9:0] size_d;
            reg              hop_ok;
            reg              path_ok;
            reg              found;
            reg [1:0]        rdim;
            reg signed [9:0] roff;
            reg signed [9:0] rcoord;
            reg signed [9:0] rsize;
            reg              rdir;
            reg              wrap_hop;
            reg              crossing;
            reg              continuing;
            reg [VB-1:0]     rvc;
            reg [VB-1:0]     entry_vc;
            reg              bad;
            reg [W-1:0]      rewritten;

            always @* begin
                start_dim = fd[25:24];
                hop_ok    = ({30'd0, start_dim} < DIMS);
                path_ok   = 1'b1;
                for (d = 0; d < 3; d = d + 1) begin
                    off_d   = {{2{fd[8 * d + 7]}}, fd[8 * d +: 8]};
                    coord_d = {2'b00, my_coord[8 * d +: 8]};
                    size_d  = {2'b00, dim_size[8 * d +: 8]};
                    if (d >= DIMS) begin
                        if (off_d != 10'sd0) begin
                            hop_ok  = 1'b0;
                            path_ok = 1'b0;
                        end
                    end else if (torus) begin
                        if (off_d >= size_d || -off_d >= size_d) path_ok = 1'b0;
                    end else begin
                        if (coord_d + off_d < 10'sd0 || coord_d + off_d >= size_d) path_ok = 1'b0;
                    end
                end
                found = 1'b0;
                rdim  = 2'd0;
                for (step = 0; step < DIMS; step = step + 1) begin
                    d = ({30'd0, start_dim} + step) % DIMS;
                    if (!found && fd[8 * d +: 8] != 8'd0) begin
                        found = 1'b1;
                        rdim  = d[1:0];
                    end
                end
                roff   = {{2{fd[8 * rdim + 7]}}, fd[8 * rdim +: 8]};
                rcoord = {2'b00, my_coord[8 * rdim +: 8]};
                rsize  = {2'b00, dim_size[8 * rdim +: 8]};
                rdir   = roff[9];
                if (found) begin
                    if (rsize < 10'sd2)
                        hop_ok = 1'b0;
                    else if (!torus && (rdir ? (rcoord == 10'sd0) : (rcoord == rsize - 10'sd1)))
                        hop_ok = 1'b0;
                    else if (torus && (roff >= rsize || -roff >= rsize))
                        hop_ok = 1'b0;
                end
                wrap_hop   = torus && (rdir ? (rcoord == 10'sd0) : (rcoord == rsize - 10'sd1));
                crossing   = torus && (rdir ? (rcoord + roff < 10'sd0) : (rcoord + roff >= rsize));
                continuing = (u < NET_UNITS) && (IN_DIM == rdim);
                // entry_vc: a VC fixed by the coordinate where the worm enters the
                // dimension (its low bits), to spread the worms over the VCs.
                entry_vc = rcoord[VB-1:0];
                if (wrap_hop)        rvc = VC_CLASS1 | ((continuing ? IN_VC : entry_vc) & VC_LANES);
                else if (continuing) rvc = IN_VC;
                else if (crossing)   rvc = entry_vc & VC_LANES;
                else                 rvc = entry_vc;
                if (u < NET_UNITS)
                    bad = !hop_ok;
                else if (inj_check_enable)
                    bad = !hop_ok || !path_ok || !found;
                else
                    bad = !hop_ok || !found;
                rewritten = fd;
                if (found && !mid)
                    rewritten[8 * rdim +: 8] = fd[8 * rdim +: 8] + (rdir ? 8'd1 : 8'hff);
            end

            assign u_last[u]         = front[W];
            assign u_out[u * W +: W] = rewritten;
            assign u_head_req[u]     = is_head && !bad;
            assign u_eject[u]        = !found;
            assign u_port[u * 3 +: 3] = {rdim, rdir};
            assign u_vc[u * VB +: VB] = rvc;
            assign u_drop_start[u]   = is_head && bad;
            assign u_counted[u]      = !((u >= NET_UNITS) && inj_check_enable);
            assign u_overflow[u]     = (u < NET_UNITS) && push && full;
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
    wire [P*NIN-1:0] out_granted;   // per output: unit allocated an output VC this cycle
    wire [P*NIN-1:0] out_sent;      // per output: unit whose flit crosses the switch
    wire [P*NIN-1:0] ej_granted;
    wire [P*NIN-1:0] ej_sent;

    genvar o;
    generate
        for (o = 0; o < P; o = o + 1) begin : out
            reg  [VCS*NIN-1:0] owner;         // one-hot owning unit per output VC
            reg  [VCS*CW-1:0]  credits;
            reg  [NIN-1:0]     head_req;
            wire [NIN-1:0]     head_grant;
            reg  [VCS-1:0]     owned;
            wire               head_valid = |head_grant;
            reg  [VB-1:0]      head_vc;
            reg  [VB-1:0]      send_vc;
            reg  [VCS-1:0]     sw_req;
            wire [VCS-1:0]     sw_grant;
            reg  [NIN-1:0]     send;
            reg  [W-1:0]       send_data;
            reg                send_last;
            integer            i;
            integer            v;

            always @* begin
                for (v = 0; v < VCS; v = v + 1) owned[v] = |owner[v * NIN +: NIN];
                for (i = 0; i < NIN; i = i + 1)
                    head_req[i] = u_head_req[i] && !u_eject[i] && (u_port[i * 3 +: 3] == o)
                                  && !owned[u_vc[i * VB +: VB]];
            end

            noc_rr_arbiter #(.N(NIN)) head_arbiter (
                .clk(clk), .rst(rst), .req(head_req), .advance(1'b1), .grant(head_grant)
            );

            always @* begin
                head_vc = {VB{1'b0}};
                for (i = 0; i < NIN; i = i + 1)
                    if (head_grant[i]) head_vc = u_vc[i * VB +: VB];
                for (v = 0; v < VCS; v = v + 1) begin
                    if (owned[v])
                        sw_req[v] = |(owner[v * NIN +: NIN] & ~u_empty);
                    else
                        sw_req[v] = head_valid && ({{(32-VB){1'b0}}, head_vc} == v);
                    if (credits[v * CW +: CW] == {CW{1'b0}}) sw_req[v] = 1'b0;
                end
            end

            noc_rr_arbiter #(.N(VCS)) switch_arbiter (
                .clk(clk), .rst(rst), .req(sw_req), .advance(1'b1), .grant(sw_grant)
            );

            always @* begin
                send    = {NIN{1'b0}};
                send_vc = {VB{1'b0}};
                for (v = 0; v < VCS; v = v + 1)
                    if (sw_grant[v]) begin
                        send    = send | (owned[v] ? owner[v * NIN +: NIN] : head_grant);
                        send_vc = v[VB-1:0];
                    end
                send_data = {W{1'b0}};
                send_last = 1'b0;
                for (i = 0; i < NIN; i = i + 1)
                    if (send[i]) begin
                        send_data = send_data | u_out[i * W +: W];
                        send_last = send_last | u_last[i];
                    end
            end

            assign out_granted[o * NIN +: NIN] = head_grant;
            assign out_sent[o * NIN +: NIN]    = send;
            assign lout_valid[o]               = |sw_grant;
            assign lout_vc[o * VB +: VB]       = send_vc;
            assign lout_last[o]                = send_last;
            assign lout_data[o * W +: W]       = send_data;

            always @(posedge clk) begin
                if (rst) begin
                    owner   <= {(VCS*NIN){1'b0}};
                    credits <= {VCS{CREDITS_INIT}};
                end else begin
                    for (v = 0; v < VCS; v = v + 1) begin
                        if (head_valid && ({{(32-VB){1'b0}}, head_vc} == v))
                            owner[v * NIN +: NIN] <= head_grant;
                        if (sw_grant[v] && send_last)
                            owner[v * NIN +: NIN] <= {NIN{1'b0}};
                        credits[v * CW +: CW] <= credits[v * CW +: CW]
                                                 + {{(CW-1){1'b0}}, lout_credit[o * VCS + v]}
                                                 - {{(CW-1){1'b0}}, sw_grant[v]};
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

            noc_rr_arbiter #(.N(VCS)) arbiter (
                .clk(clk), .rst(rst), .req(head_req), .advance(1'b1), .grant(head_grant)
            );

            assign ej_valid[k]        = |avail;
            assign ej_last[k]         = last;
            reg [W-1:0] data;
            integer     ev;
            always @* begin
                data = {W{1'b0}};
                for (ev = 0; ev < VCS; ev = ev + 1)
                    if (avail[ev]) data = u_out[(k * VCS + ev) * W +: W];
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
    integer ui;
    integer po;
    reg [ERR_BITS-1:0] errors_now;
    always @* begin
        u_granted  = {NIN{1'b0}};
        u_sent     = {NIN{1'b0}};
        for (po = 0; po < P; po = po + 1) begin
            u_granted = u_granted | out_granted[po * NIN +: NIN] | ej_granted[po * NIN +: NIN];
            u_sent    = u_sent | out_sent[po * NIN +: NIN] | ej_sent[po * NIN +: NIN];
        end
        errors_now = {ERR_BITS{1'b0}};
        for (ui = 0; ui < NIN; ui = ui + 1)
            begin
            if (u_drop_start[ui] && u_counted[ui]) errors_now = errors_now + 1'b1;
            if (u_overflow[ui]) errors_now = errors_now + 1'b1;
        end
    end

    always @(posedge clk) begin
        if (rst) err_count <= {ERR_BITS{1'b0}};
        else     err_count <= err_count + errors_now;
    end
endmodule
