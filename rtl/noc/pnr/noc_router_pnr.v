// SPDX-License-Identifier: ISC
// noc_router_pnr: the measurement top of `make router-pnr` (yosys synth_ice40 +
// nextpnr-ice40), one noc_router with as little around it as possible, since a UP5K has
// 39 I/O pins and the router has hundreds of ports:
//   - every output link loops back into the input link of the same port through a
//     register, as a board's link PHY takes the flits into its own register (each bit is
//     XORed with a configuration bit on the way, so that the register's logic cell is the
//     harness's own and cannot absorb router logic), and the credits go back the same way;
//   - every ejection channel feeds the injection channel of the same index;
//   - the coordinates, sizes and torus flag come from a shift register loaded over one pin
//     (in a board they are registers written at boot, so they are inputs, not constants);
//   - the status outputs and ejection channel 0's data are XOR-folded into one output pin
//     (every flit can reach ejection channel 0 through the loops), so that nothing is
//     optimized away.
// Harness cost: 16*DIMS+1 flip-flops, one logic cell per link bit and the XOR tree;
// router-pnr measures it separately.
module noc_router_pnr #(
    parameter DIMS         = 2,
    parameter FLIT_BITS    = 32,
    parameter BUF_DEPTH    = 4,
    parameter INJ_DEPTH    = 4,
    parameter ERR_BITS     = 16,
    parameter VCS          = 2,
    parameter BUF_RAM      = 0,
    parameter INJ_ANY_PORT = 1,
    parameter PIPELINE     = 0,
    parameter SIDE_BITS    = 7,
    parameter VC_BITS      = (VCS <= 2) ? 1 : (VCS <= 4) ? 2 : 3   // derived: do not set
) (
    input  wire clk,
    input  wire rst,
    input  wire cfg_shift,   // shift cfg_in into the coordinate register
    input  wire cfg_in,
    output reg  obs
);
    localparam P  = 2 * DIMS;
    localparam W  = FLIT_BITS;
    localparam CF = 16 * DIMS + 1;

    reg [CF-1:0] cfg;
    always @(posedge clk) if (cfg_shift) cfg <= {cfg[CF-2:0], cfg_in};

    wire [23:0] my_coord;
    wire [23:0] dim_size;
    generate
        if (DIMS == 3) begin : d3
            assign my_coord = cfg[23:0];
            assign dim_size = cfg[47:24];
        end else begin : d2
            assign my_coord = {8'd0, cfg[15:0]};
            assign dim_size = {8'd1, cfg[31:16]};
        end
    endgenerate

    wire [P-1:0]         o_valid;
    wire [P*VC_BITS-1:0] o_vc;
    wire [P-1:0]         o_last;
    wire [P*W-1:0]       o_data;
    reg  [P-1:0]         l_valid;
    reg  [P*VC_BITS-1:0] l_vc;
    reg  [P-1:0]         l_last;
    reg  [P*W-1:0]       l_data;
    wire [P*VCS-1:0]     l_credit;
    wire                 key = cfg[0];
    always @(posedge clk) begin
        l_valid <= o_valid ^ {P{key}};
        l_vc    <= o_vc ^ {(P*VC_BITS){key}};
        l_last  <= o_last ^ {P{key}};
        l_data  <= o_data ^ {(P*W){key}};
    end
    wire [P-1:0]         e_valid;
    wire [P-1:0]         i_ready;
    wire [P*W-1:0]       e_data;
    wire [P-1:0]         e_last;
    wire [P-1:0]         i_error;
    wire [ERR_BITS-1:0]  err_count;
    wire [P*(VCS+1)-1:0] buf_nonempty;

    noc_router #(
        .DIMS(DIMS), .FLIT_BITS(FLIT_BITS), .BUF_DEPTH(BUF_DEPTH), .INJ_DEPTH(INJ_DEPTH),
        .ERR_BITS(ERR_BITS), .VCS(VCS), .BUF_RAM(BUF_RAM), .INJ_ANY_PORT(INJ_ANY_PORT),
        .PIPELINE(PIPELINE), .SIDE_BITS(SIDE_BITS)
    ) router (
        .clk(clk), .rst(rst),
        .my_coord(my_coord), .dim_size(dim_size), .torus(cfg[CF-1]),
        .inj_check_enable(1'b1),
        .lin_valid(l_valid), .lin_vc(l_vc), .lin_last(l_last), .lin_data(l_data),
        .lin_credit(l_credit),
        .lout_valid(o_valid), .lout_vc(o_vc), .lout_last(o_last), .lout_data(o_data),
        .lout_credit(l_credit),
        .inj_valid(e_valid), .inj_ready(i_ready), .inj_data(e_data), .inj_last(e_last),
        .inj_error(i_error),
        .ej_valid(e_valid), .ej_ready(i_ready), .ej_data(e_data), .ej_last(e_last),
        .err_count(err_count), .buf_nonempty(buf_nonempty)
    );

    always @(posedge clk) obs <= ^{e_data[W-1:0], e_last, i_error, err_count, buf_nonempty};
endmodule
