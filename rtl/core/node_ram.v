// node_ram: the node's on-chip RAM (code and data), WORDS x 32 bits.
// Port I: instruction read. Port D: data read or byte-masked write. Both synchronous:
// the read word appears on *_data the cycle after the address (read-before-write).
module node_ram #(
    parameter WORDS     = 16384,
    parameter ADDR_BITS = 14          // log2(WORDS)
) (
    input  wire                 clk,
    input  wire [ADDR_BITS-1:0] i_addr,
    output reg  [31:0]          i_data,
    input  wire                 d_enable,
    input  wire [3:0]           d_wstrb,   // 0000: read; otherwise the byte lanes written
    input  wire [ADDR_BITS-1:0] d_addr,
    input  wire [31:0]          d_wdata,
    output reg  [31:0]          d_data
);
    // public so that the simulator can load a program before reset
    reg [31:0] mem [0:WORDS-1] /* verilator public */;

    always @(posedge clk) begin
        i_data <= mem[i_addr];
        if (d_enable) begin
            d_data <= mem[d_addr];
            if (d_wstrb[0]) mem[d_addr][7:0]   <= d_wdata[7:0];
            if (d_wstrb[1]) mem[d_addr][15:8]  <= d_wdata[15:8];
            if (d_wstrb[2]) mem[d_addr][23:16] <= d_wdata[23:16];
            if (d_wstrb[3]) mem[d_addr][31:24] <= d_wdata[31:24];
        end
    end
endmodule
