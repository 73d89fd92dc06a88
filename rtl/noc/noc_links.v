// SPDX-License-Identifier: ISC
// noc_links: the links of a DIMS-dimensional mesh or torus of nodes, as wiring: which node's
// output link feeds which node's input link, and where each input's credits go back. Used
// by noc_network (a node is a router) and mesh_top (a node is a tile with its router).
//
// Node n has coordinates x = n % SIZE_X, y = (n / SIZE_X) % SIZE_Y, z = n / (SIZE_X*SIZE_Y).
// Ports are flattened per node, index n*2*DIMS + k (k = 2*d + s, s = 0 for the + side), and
// spelled as the router's: the nodes drive lout_* and lin_credit, and get lin_* and
// lout_credit. Output link k of node n feeds input link k^1 of its neighbour in direction k;
// that input's credits flow back to output k of node n. A dimension of size 1 has no links;
// on a mesh the edge ports have none either (their inputs read 0, their outputs go nowhere).
// On a torus of side 2 the + and - neighbours are the same node, joined by two links.
module noc_links #(
    parameter DIMS      = 2,
    parameter SIZE_X    = 4,
    parameter SIZE_Y    = 4,
    parameter SIZE_Z    = 1,
    parameter TORUS     = 1,
    parameter FLIT_BITS = 32,
    parameter VCS       = 2,   // virtual channels per link: 1, 2, 4 or 8
    parameter VC_BITS   = (VCS <= 2) ? 1 : (VCS <= 4) ? 2 : 3   // derived: do not set
) (
    // what the nodes drive (on a mesh the edge outputs and edge credits have no receiver)
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS-1:0]           lout_valid,
    input  wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS*VC_BITS-1:0]   lout_vc,
    input  wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS-1:0]           lout_last,
    input  wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS*FLIT_BITS-1:0] lout_data,
    input  wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS*VCS-1:0]       lin_credit,
    /* verilator lint_on UNUSEDSIGNAL */
    // what the nodes get
    output wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS-1:0]           lin_valid,
    output wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS*VC_BITS-1:0]   lin_vc,
    output wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS-1:0]           lin_last,
    output wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS*FLIT_BITS-1:0] lin_data,
    output wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS*VCS-1:0]       lout_credit
);
    localparam N  = SIZE_X * SIZE_Y * SIZE_Z;
    localparam P  = 2 * DIMS;
    localparam W  = FLIT_BITS;
    localparam VB = VC_BITS;

    // Index of the neighbour of node `of_node` through port `of_port`, or -1 when there is no link.
    function integer neighbour;
        input integer of_node;
        input integer of_port;
        integer coord;
        integer size;
        integer stride;
        integer c;
        begin
            if (of_port < 2) begin
                size = SIZE_X; stride = 1; coord = of_node % SIZE_X;
            end else if (of_port < 4) begin
                size = SIZE_Y; stride = SIZE_X; coord = (of_node / SIZE_X) % SIZE_Y;
            end else begin
                size = SIZE_Z; stride = SIZE_X * SIZE_Y; coord = of_node / (SIZE_X * SIZE_Y);
            end
            c = coord + ((of_port % 2) == 0 ? 1 : -1);
            if (TORUS != 0) c = (c + size) % size;
            if (size < 2 || c < 0 || c >= size)
                neighbour = -1;
            else
                neighbour = of_node + (c - coord) * stride;
        end
    endfunction

    genvar n;
    genvar k;
    generate
        for (n = 0; n < N; n = n + 1) begin : node
            for (k = 0; k < P; k = k + 1) begin : port
                localparam integer NB = neighbour(n, k);
                localparam integer I  = n * P + k;            // this input (and output) port
                localparam integer O  = NB * P + (k ^ 1);     // the neighbour's output facing it
                if (NB >= 0) begin : linked
                    assign lin_valid[I]                = lout_valid[O];
                    assign lin_vc[I * VB +: VB]        = lout_vc[O * VB +: VB];
                    assign lin_last[I]                 = lout_last[O];
                    assign lin_data[I * W +: W]        = lout_data[O * W +: W];
                    assign lout_credit[I * VCS +: VCS] = lin_credit[O * VCS +: VCS];
                end else begin : edge_port
                    assign lin_valid[I]                = 1'b0;
                    assign lin_vc[I * VB +: VB]        = {VB{1'b0}};
                    assign lin_last[I]                 = 1'b0;
                    assign lin_data[I * W +: W]        = {W{1'b0}};
                    assign lout_credit[I * VCS +: VCS] = {VCS{1'b0}};
                end
            end
        end
    endgenerate
endmodule
