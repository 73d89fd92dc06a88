// noc_network: a whole DIMS-dimensional mesh or torus of noc_router, built from parameters.
//
// Node n has coordinates x = n % SIZE_X, y = (n / SIZE_X) % SIZE_Y, z = n / (SIZE_X*SIZE_Y).
// Local ports are flattened per node and port: index n*2*DIMS + k (k = 2*d + s, s = 0 for
// the + side). Output link k of node n feeds input link k^1 of its neighbour in direction
// k; credits flow back the same way. A dimension of size 1 has no links. On a torus of
// side 2 the + and - neighbours are the same node, joined by two separate links.
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
    parameter VCS       = 2     // virtual channels per link: 2, 4 or 8
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
    output wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS*(VCS+1)-1:0]   buf_nonempty
);
    localparam N = SIZE_X * SIZE_Y * SIZE_Z;
    localparam P = 2 * DIMS;
    localparam W = FLIT_BITS;
    localparam VB = (VCS <= 2) ? 1 : (VCS <= 4) ? 2 : 3;

    // Index of the neighbour of node n through port k, or -1 when there is no link.
    function integer neighbour;
        input integer n;
        input integer k;
        integer coord;
        integer size;
        integer stride;
        integer c;
        begin
            if (k < 2) begin
                size = SIZE_X; stride = 1; coord = n % SIZE_X;
            end else if (k < 4) begin
                size = SIZE_Y; stride = SIZE_X; coord = (n / SIZE_X) % SIZE_Y;
            end else begin
                size = SIZE_Z; stride = SIZE_X * SIZE_Y; coord = n / (SIZE_X * SIZE_Y);
            end
            c = coord + ((k % 2) == 0 ? 1 : -1);
            if (TORUS != 0) c = (c + size) % size;
            if (size < 2 || c < 0 || c >= size)
                neighbour = -1;
            else
                neighbour = n + (c - coord) * stride;
        end
    endfunction

    wire [N*P-1:0]   link_valid;
    wire [N*P-1:0]   link_last;
    // On a mesh the routers' edge outputs (and the credits of their edge inputs) have no
    // receiver; routing never uses them.
    /* verilator lint_off UNUSEDSIGNAL */
    wire [N*P*VB-1:0] link_vc;
    wire [N*P*W-1:0] link_data;
    wire [N*P*VCS-1:0] link_credit; // credits returned by the input side of each node/port
    /* verilator lint_on UNUSEDSIGNAL */

    genvar n;
    genvar k;
    generate
        for (n = 0; n < N; n = n + 1) begin : node
            wire [P-1:0]   in_valid;
            wire [P*VB-1:0] in_vc;
            wire [P-1:0]   in_last;
            wire [P*W-1:0] in_data;
            wire [P*VCS-1:0] out_credit;
            for (k = 0; k < P; k = k + 1) begin : port
                localparam integer NB = neighbour(n, k);
                if (NB >= 0) begin : linked
                    assign in_valid[k]          = link_valid[NB * P + (k ^ 1)];
                    assign in_vc[k*VB +: VB]    = link_vc[(NB * P + (k ^ 1)) * VB +: VB];
                    assign in_last[k]           = link_last[NB * P + (k ^ 1)];
                    assign in_data[k * W +: W]  = link_data[(NB * P + (k ^ 1)) * W +: W];
                    assign out_credit[k*VCS +: VCS] = link_credit[(NB * P + (k ^ 1)) * VCS +: VCS];
                end else begin : edge_port
                    assign in_valid[k]          = 1'b0;
                    assign in_vc[k*VB +: VB]    = {VB{1'b0}};
                    assign in_last[k]           = 1'b0;
                    assign in_data[k * W +: W]  = {W{1'b0}};
                    assign out_credit[k*VCS +: VCS] = {VCS{1'b0}};
                end
            end

            localparam integer CX = n % SIZE_X;
            localparam integer CY = (n / SIZE_X) % SIZE_Y;
            localparam integer CZ = n / (SIZE_X * SIZE_Y);
            localparam [23:0] COORD = {CZ[7:0], CY[7:0], CX[7:0]};
            localparam [23:0] SIZES = {SIZE_Z[7:0], SIZE_Y[7:0], SIZE_X[7:0]};

            noc_router #(
                .DIMS(DIMS), .FLIT_BITS(FLIT_BITS), .BUF_DEPTH(BUF_DEPTH),
                .INJ_DEPTH(INJ_DEPTH), .ERR_BITS(ERR_BITS), .VCS(VCS)
            ) router (
                .clk(clk), .rst(rst),
                .my_coord(COORD), .dim_size(SIZES), .torus(TORUS != 0),
                .inj_check_enable(inj_check_enable),
                .lin_valid(in_valid), .lin_vc(in_vc), .lin_last(in_last), .lin_data(in_data),
                .lin_credit(link_credit[n * P * VCS +: P * VCS]),
                .lout_valid(link_valid[n * P +: P]), .lout_vc(link_vc[n * P * VB +: P * VB]),
                .lout_last(link_last[n * P +: P]), .lout_data(link_data[n * P * W +: P * W]),
                .lout_credit(out_credit),
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
