// SPDX-License-Identifier: ISC
// noc_rr_arbiter: round-robin arbiter. grant is one-hot (or zero when no request); the
// search starts just after the last requester that was granted while advance was high,
// so a requester that keeps asking is served within N grants: nobody starves.
module noc_rr_arbiter #(
    parameter N = 4
) (
    input  wire         clk,
    input  wire         rst,
    input  wire [N-1:0] req,
    input  wire         advance,
    output reg  [N-1:0] grant
);
    localparam IW = (N <= 2) ? 1 : (N <= 4) ? 2 : (N <= 8) ? 3 : (N <= 16) ? 4 :
                    (N <= 32) ? 5 : 6;
    localparam integer  LAST_REQUESTER_I = N - 1;
    localparam [IW-1:0] LAST_REQUESTER   = LAST_REQUESTER_I[IW-1:0];
    reg [IW-1:0] last_index;
    reg [IW-1:0] grant_index;
    reg          found;
    integer      j;

    // Requesters after last_index first, then those up to it.
    always @* begin
        grant       = {N{1'b0}};
        grant_index = last_index;
        found       = 1'b0;
        for (j = 0; j < N; j = j + 1)
            if (!found && req[j] && (j > {{(32-IW){1'b0}}, last_index})) begin
                found       = 1'b1;
                grant[j]    = 1'b1;
                grant_index = j[IW-1:0];
            end
        for (j = 0; j < N; j = j + 1)
            if (!found && req[j]) begin
                found       = 1'b1;
                grant[j]    = 1'b1;
                grant_index = j[IW-1:0];
            end
    end

    always @(posedge clk) begin
        if (rst) last_index <= LAST_REQUESTER;
        else if (advance && found) last_index <= grant_index;
    end
endmodule
