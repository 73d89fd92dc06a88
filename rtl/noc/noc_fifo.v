// noc_fifo: a small synchronous FIFO (register array) used for every router input buffer.
// The front entry is visible combinationally (front_data) whenever empty is low; pop
// removes it at the next clock edge. Pushing into a full FIFO is ignored (the router's
// credit protocol never does it).
module noc_fifo #(
    parameter WIDTH = 33,
    parameter DEPTH = 4
) (
    input  wire             clk,
    input  wire             rst,
    input  wire             push_valid,
    input  wire [WIDTH-1:0] push_data,
    input  wire             pop,
    output wire [WIDTH-1:0] front_data,
    output wire             empty,
    output wire             full
);
    localparam AW = (DEPTH <= 2) ? 1 : (DEPTH <= 4) ? 2 : (DEPTH <= 8) ? 3 :
                    (DEPTH <= 16) ? 4 : (DEPTH <= 32) ? 5 : (DEPTH <= 64) ? 6 : 7;
    localparam integer  LAST_INDEX_I = DEPTH - 1;
    localparam [AW-1:0] LAST_INDEX   = LAST_INDEX_I[AW-1:0];
    localparam [AW:0]   FULL_COUNT   = DEPTH[AW:0];

    reg [WIDTH-1:0] mem [0:DEPTH-1];
    reg [AW-1:0]    rd_index;
    reg [AW-1:0]    wr_index;
    reg [AW:0]      count;

    wire do_push = push_valid && !full;
    wire do_pop  = pop && !empty;

    assign front_data = mem[rd_index];
    assign empty      = (count == {(AW+1){1'b0}});
    assign full       = (count == FULL_COUNT);

    always @(posedge clk) begin
        if (do_push) mem[wr_index] <= push_data;
    end

    always @(posedge clk) begin
        if (rst) begin
            rd_index <= {AW{1'b0}};
            wr_index <= {AW{1'b0}};
            count    <= {(AW+1){1'b0}};
        end else begin
            if (do_push) wr_index <= (wr_index == LAST_INDEX) ? {AW{1'b0}} : wr_index + 1'b1;
            if (do_pop)  rd_index <= (rd_index == LAST_INDEX) ? {AW{1'b0}} : rd_index + 1'b1;
            if (do_push && !do_pop) count <= count + 1'b1;
            else if (do_pop && !do_push) count <= count - 1'b1;
        end
    end
endmodule
