// SPDX-License-Identifier: ISC
// link_hold: fault injection for simulation (mesh_top, mesh-sim --stall-link): the credits
// coming back on one link, held back while `hold` is high and released afterwards, one per
// VC per cycle, so that none is lost. The sender's flits wait meanwhile (it sends only
// against credits): the link moves nothing once those it had are spent. Plain Verilog.
// Per VC a counter of the credits held: at most BUF_DEPTH (the receiving buffer's slots),
// CB bits are enough for twice that.
module link_hold #(
    parameter VCS       = 2,
    parameter BUF_DEPTH = 4,
    parameter CB        = $clog2(BUF_DEPTH + 1) + 1   // derived: do not set
) (
    input  wire           clk,
    input  wire           rst,
    input  wire           hold,
    input  wire [VCS-1:0] in,     // the credits the receiver returns this cycle
    output wire [VCS-1:0] out,    // the credits the sender gets
    output wire [VCS-1:0] held    // per VC: credits held back now
);
    genvar v;
    generate
        for (v = 0; v < VCS; v = v + 1) begin : vc
            reg  [CB-1:0] count;
            wire          owed = count != {CB{1'b0}};
            // released: an owed credit first (the one coming in this cycle is owed then)
            assign out[v]  = !hold && (owed || in[v]);
            assign held[v] = owed;
            always @(posedge clk) begin
                if (rst)
                    count <= {CB{1'b0}};
                else if (hold)
                    count <= count + {{(CB-1){1'b0}}, in[v]};
                else if (owed && !in[v])
                    count <= count - 1'b1;
            end
        end
    endgenerate
endmodule
