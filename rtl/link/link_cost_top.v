// SPDX-License-Identifier: ISC
// link_cost_top: what `make bench-link` places and routes on the iCEBreaker's iCE40UP5K to
// measure link_phy: 2*DIMS PHYs on the PMOD pins of boards/link-pinout.md, each with its
// router side looped back (the flits that come in go out again, their credits return at
// once, as a router that forwards every flit the next cycle would), so that none of a PHY's
// logic can be optimised away and nothing but the PHYs takes logic cells. link_up and
// link_fault of every port drive LEDs, and so do the returned credits (so that the credit
// logic counts too); the top bit of every port's err_count and retry_count (RETRY = 1)
// drives one more, which keeps both whole counters (a counter's top bit depends on all of
// it), as the NI's status registers would. Not a board design: the
// board top (boards/) instantiates link_phy between its router and the same pins.
module link_cost_top #(
    parameter DIMS       = 2,
    parameter FLIT_BITS  = 32,
    parameter VCS        = 2,
    parameter BUF_DEPTH  = 4,
    parameter LANES      = 2,
    parameter OVERSAMPLE = 3,
    parameter TAG_RAM    = 1,
    parameter RETRY      = 1,
    parameter VC_BITS    = (VCS <= 2) ? 1 : (VCS <= 4) ? 2 : 3   // derived: do not set
) (
    input  wire                    clk,
    input  wire                    btn_n,     // the iCEBreaker's button: reset
    output wire [2*DIMS*LANES-1:0] tx_pin,
    input  wire [2*DIMS*LANES-1:0] rx_pin,
    output wire [2*DIMS-1:0]       led_up,
    output wire                    led_fault,
    output wire                    led_credit,
    output wire                    led_count
);
    localparam P = 2 * DIMS;
    reg [1:0] rst_sync = 2'b11;
    always @(posedge clk) rst_sync <= {rst_sync[0], !btn_n};
    wire rst = rst_sync[1];
    wire [P-1:0]     fault;
    wire [P*VCS-1:0] credits_back;
    wire [2*P-1:0]   count_top;
    assign led_fault  = |fault;
    assign led_credit = |credits_back;
    assign led_count  = |count_top;

    genvar k;
    generate
        for (k = 0; k < P; k = k + 1) begin : port
            wire                 valid;
            wire                 last;
            wire [VC_BITS-1:0]   vc;
            wire [FLIT_BITS-1:0] data;
            reg  [VCS-1:0]       credit;
            wire [1:0]           cause;
            wire [15:0]          errs, retries;
            always @(posedge clk) credit <= valid ? ({{(VCS-1){1'b0}}, 1'b1} << vc) : {VCS{1'b0}};
            link_phy #(
                .FLIT_BITS(FLIT_BITS), .VCS(VCS), .BUF_DEPTH(BUF_DEPTH), .LANES(LANES),
                .OVERSAMPLE(OVERSAMPLE), .TAG_RAM(TAG_RAM), .RETRY(RETRY)
            ) phy (
                .clk(clk), .rst(rst),
                .lout_valid(valid), .lout_vc(vc), .lout_last(last), .lout_data(data),
                .lout_credit(credits_back[k * VCS +: VCS]),
                .lin_valid(valid), .lin_vc(vc), .lin_last(last), .lin_data(data),
                .lin_credit(credit),
                .tx_pin(tx_pin[k * LANES +: LANES]), .rx_pin(rx_pin[k * LANES +: LANES]),
                .link_up(led_up[k]), .link_fault(fault[k]), .fault_cause(cause),
                .err_count(errs), .retry_count(retries)
            );
            assign count_top[2 * k +: 2] = {errs[15], retries[15]};
            wire unused_cause = &{1'b0, cause, errs[14:0], retries[14:0]};   // a status register would read them
        end
    endgenerate
endmodule
