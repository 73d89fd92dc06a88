// mesh_top: a whole rvmesh machine: SIZE_X x SIZE_Y (x SIZE_Z) tiles, mesh or torus, each
// tile a core + RAM + NI + router, the routers' links wired as in noc_network.
//
// Node n has coordinates x = n % SIZE_X, y = (n / SIZE_X) % SIZE_Y, z = n / (SIZE_X*SIZE_Y)
// (DIMS = 2: SIZE_Z = 1). Output link k of node n feeds input link k^1 of its neighbour in
// direction k (k = 2*d + s, s = 0 the + side); credits flow back the same way. A dimension
// of size 1 has no links; on a mesh the edge ports have none either (the routers never
// route there: the NI's injection check refuses such worms). Per-node outputs are
// flattened by node index; link_valid[n*2*DIMS + k] is high when output link k of node n
// carries a flit this cycle (the simulator counts flits per link from it).
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
    parameter [31:0] RAM_BASE  = 32'h8000_0000,
    parameter        RAM_BYTES = 65536,
    parameter        FAST_MUL  = 1,
    parameter        DIV_BITS  = 4
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
    output wire [SIZE_X*SIZE_Y*SIZE_Z*2*DIMS-1:0] link_valid
);
    localparam N  = SIZE_X * SIZE_Y * SIZE_Z;
    localparam P  = 2 * DIMS;
    localparam W  = FLIT_BITS;
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

    wire [N*P-1:0] link_last;
    // On a mesh the edge outputs (and the credits of edge inputs) have no receiver.
    /* verilator lint_off UNUSEDSIGNAL */
    wire [N*P*VB-1:0]  link_vc;
    wire [N*P*W-1:0]   link_data;
    wire [N*P*VCS-1:0] link_credit;   // credits returned by the input side of each node/port
    /* verilator lint_on UNUSEDSIGNAL */

    localparam [23:0] SIZES = {SIZE_Z[7:0], SIZE_Y[7:0], SIZE_X[7:0]};
    localparam [15:0] COUNT = N[15:0];

    genvar n;
    genvar k;
    generate
        for (n = 0; n < N; n = n + 1) begin : node
            wire [P-1:0]     in_valid;
            wire [P*VB-1:0]  in_vc;
            wire [P-1:0]     in_last;
            wire [P*W-1:0]   in_data;
            wire [P*VCS-1:0] out_credit;
            for (k = 0; k < P; k = k + 1) begin : port
                localparam integer NB = neighbour(n, k);
                if (NB >= 0) begin : linked
                    assign in_valid[k]              = link_valid[NB * P + (k ^ 1)];
                    assign in_vc[k*VB +: VB]        = link_vc[(NB * P + (k ^ 1)) * VB +: VB];
                    assign in_last[k]               = link_last[NB * P + (k ^ 1)];
                    assign in_data[k*W +: W]        = link_data[(NB * P + (k ^ 1)) * W +: W];
                    assign out_credit[k*VCS +: VCS] = link_credit[(NB * P + (k ^ 1)) * VCS +: VCS];
                end else begin : edge_port
                    assign in_valid[k]              = 1'b0;
                    assign in_vc[k*VB +: VB]        = {VB{1'b0}};
                    assign in_last[k]               = 1'b0;
                    assign in_data[k*W +: W]        = {W{1'b0}};
                    assign out_credit[k*VCS +: VCS] = {VCS{1'b0}};
                end
            end

            localparam integer CX = n % SIZE_X;
            localparam integer CY = (n / SIZE_X) % SIZE_Y;
            localparam integer CZ = n / (SIZE_X * SIZE_Y);
            localparam [23:0] COORD = {CZ[7:0], CY[7:0], CX[7:0]};
            localparam [15:0] INDEX = n;

            tile #(
                .DIMS(DIMS), .FLIT_BITS(FLIT_BITS), .BUF_DEPTH(BUF_DEPTH),
                .INJ_DEPTH(INJ_DEPTH), .VCS(VCS), .RAM_BASE(RAM_BASE),
                .RAM_BYTES(RAM_BYTES), .FAST_MUL(FAST_MUL), .DIV_BITS(DIV_BITS)
            ) tile (
                .clk(clk), .rst(rst),
                .my_coord(COORD), .dim_size(SIZES), .torus(TORUS != 0),
                .node_index(INDEX), .node_count(COUNT), .tohost_addr(tohost_addr),
                .lin_valid(in_valid), .lin_vc(in_vc), .lin_last(in_last), .lin_data(in_data),
                .lin_credit(link_credit[n * P * VCS +: P * VCS]),
                .lout_valid(link_valid[n * P +: P]), .lout_vc(link_vc[n * P * VB +: P * VB]),
                .lout_last(link_last[n * P +: P]), .lout_data(link_data[n * P * W +: P * W]),
                .lout_credit(out_credit),
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
