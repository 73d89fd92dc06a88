// SPDX-License-Identifier: ISC
// noc_fifo: the synchronous FIFO of every router input buffer. The front entry is visible
// combinationally (front_data) whenever empty is low; pop removes it at the next clock
// edge. Pushing into a full FIFO is ignored (the router's credit protocol never does it).
//
// RAM = 0: a register array read through a multiplexer; a flit pushed into an empty
//   FIFO is at the front in the next cycle.
// RAM = 1: a synchronous-read RAM of DEPTH entries, written so that yosys maps it to block
//   RAM (SB_RAM40_4K on iCE40), whose read register is the front: the FIFO costs no logic
//   cells for its entries, only its pointers. The read port always reads the entry that
//   will be at the front next cycle, so the FIFO streams a flit per cycle; but a flit is
//   at the front two cycles after its push (the RAM returns what it wrote one edge later).
module noc_fifo #(
    parameter WIDTH = 33,
    parameter DEPTH = 4,
    parameter RAM   = 0
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
                    (DEPTH <= 16) ? 4 : (DEPTH <= 32) ? 5 : (DEPTH <= 64) ? 6 :
                    (DEPTH <= 128) ? 7 : (DEPTH <= 256) ? 8 : 9;
    localparam [AW:0] FULL_COUNT = DEPTH[AW:0];

    generate
        if (RAM == 0) begin : regs
            localparam integer  LAST_INDEX_I = DEPTH - 1;
            localparam [AW-1:0] LAST_INDEX   = LAST_INDEX_I[AW-1:0];

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
        end else begin : ram
            localparam RW = (DEPTH <= 2) ? 1 : (DEPTH <= 4) ? 2 : (DEPTH <= 8) ? 3 :
                            (DEPTH <= 16) ? 4 : (DEPTH <= 32) ? 5 : (DEPTH <= 64) ? 6 :
                            (DEPTH <= 128) ? 7 : (DEPTH <= 256) ? 8 : 9;
            localparam RD = 1 << RW;   // (the pointers wrap at RD; the count keeps DEPTH)

            (* ram_style = "block", no_rw_check *)
            reg [WIDTH-1:0] mem [0:RD-1];
            reg [WIDTH-1:0] rdata;       // mem[rd_ptr], read in the previous cycle
            reg [RW-1:0]    rd_ptr;
            reg [RW-1:0]    wr_ptr;
            reg [AW:0]      count;
            reg             rdata_ok;    // rdata holds the entry at rd_ptr

            wire count0  = (count == {(AW+1){1'b0}});
            wire count1  = (count == {{AW{1'b0}}, 1'b1});
            wire do_push = push_valid && !full;
            wire do_pop  = pop && rdata_ok;
            wire [RW-1:0] rd_next = do_pop ? rd_ptr + 1'b1 : rd_ptr;

            assign front_data = rdata;
            assign empty      = !rdata_ok;
            assign full       = (count == FULL_COUNT);

            always @(posedge clk) begin
                if (do_push) mem[wr_ptr] <= push_data;
                rdata <= mem[rd_next];
            end

            always @(posedge clk) begin
                if (rst) begin
                    rd_ptr   <= {RW{1'b0}};
                    wr_ptr   <= {RW{1'b0}};
                    count    <= {(AW+1){1'b0}};
                    rdata_ok <= 1'b0;
                end else begin
                    rd_ptr <= rd_next;
                    if (do_push) wr_ptr <= wr_ptr + 1'b1;
                    if (do_push && !do_pop) count <= count + 1'b1;
                    else if (do_pop && !do_push) count <= count - 1'b1;
                    // The entry at rd_next is readable next cycle unless it is written in
                    // this cycle: the FIFO held none, or one that leaves now.
                    rdata_ok <= !count0 && !(count1 && do_pop);
                end
            end
        end
    endgenerate
endmodule
