// SPDX-License-Identifier: ISC
// core_pnr_ram: the block RAM of core_pnr_top (make core-pnr): WORDS x 32 bits, an
// instruction read port and a data port (read, or byte-masked write), both synchronous.
// Reads are not gated (a read nobody uses is harmless), so that only the writes wait
// for the address decode; a read and a write of one word at the same edge may return
// either value (no_rw_check: no bypass logic around the block RAM), as the core never
// depends on it.
module core_pnr_ram #(
    parameter WORDS     = 1024,
    parameter ADDR_BITS = 10
) (
    input  wire                 clk,
    input  wire [ADDR_BITS-1:0] i_addr,
    output reg  [31:0]          i_data,
    input  wire [ADDR_BITS-1:0] d_addr,
    input  wire [3:0]           d_wstrb,   // bytes written (0: none)
    input  wire [31:0]          d_wdata,
    output reg  [31:0]          d_data
);
    (* no_rw_check *)
    reg [31:0] mem [0:WORDS-1];
    always @(posedge clk) begin
        i_data <= mem[i_addr];
        d_data <= mem[d_addr];
        if (d_wstrb[0]) mem[d_addr][7:0]   <= d_wdata[7:0];
        if (d_wstrb[1]) mem[d_addr][15:8]  <= d_wdata[15:8];
        if (d_wstrb[2]) mem[d_addr][23:16] <= d_wdata[23:16];
        if (d_wstrb[3]) mem[d_addr][31:24] <= d_wdata[31:24];
    end
endmodule
