// node_ram: the node's on-chip RAM (code and data), WORDS x 32 bits, as LINE_WORDS banks
// interleaved by word (bank k holds the words whose index is k modulo LINE_WORDS), so that
// the data port moves a whole line of LINE_WORDS consecutive words per access while each
// bank stays a plain one-read, one-read/write memory (a block RAM on an FPGA).
// Port I: instruction read of one word. Port D: a line read, or a byte-masked write of any
// bytes of one line. Both synchronous: the read appears on *_data the cycle after the
// address (read-before-write).
// LINE_WORDS = 1 is a plain word-wide RAM.
module node_ram #(
    parameter WORDS      = 16384,
    parameter ADDR_BITS  = 14,          // log2(WORDS)
    parameter LINE_WORDS = 1,           // words per data-port access: 1, 2, 4, 8 or 16
    parameter LINE_BITS  = (LINE_WORDS <= 1) ? 0 : $clog2(LINE_WORDS)   // derived: do not set
) (
    input  wire                            clk,
    input  wire [ADDR_BITS-1:0]            i_addr,    // word index
    output wire [31:0]                     i_data,
    input  wire                            d_enable,
    input  wire [4*LINE_WORDS-1:0]         d_wstrb,   // all 0: read; else the bytes written
    input  wire [ADDR_BITS-LINE_BITS-1:0]  d_line,    // line index (word index / LINE_WORDS)
    input  wire [32*LINE_WORDS-1:0]        d_wdata,   // word k of the line in [32k+31:32k]
    output wire [32*LINE_WORDS-1:0]        d_data
);
    localparam BANK_WORDS = WORDS / LINE_WORDS;
    localparam BANK_BITS  = ADDR_BITS - LINE_BITS;

    // the instruction port reads every bank at the line of i_addr; the bank of i_addr
    // (registered with the read) picks the word
    wire [BANK_BITS-1:0] i_line = i_addr[ADDR_BITS-1:LINE_BITS];
    wire [32*LINE_WORDS-1:0] i_words;
    generate
        if (LINE_WORDS == 1) begin : one
            assign i_data = i_words;
        end else begin : sel
            reg [LINE_BITS-1:0] i_bank;
            always @(posedge clk) i_bank <= i_addr[LINE_BITS-1:0];
            assign i_data = i_words[32 * i_bank +: 32];
        end
    endgenerate

    genvar k;
    generate
        for (k = 0; k < LINE_WORDS; k = k + 1) begin : bank
            // public so that the simulators can load a program before reset
            reg [31:0] mem [0:BANK_WORDS-1] /* verilator public */;
            reg [31:0] i_q, d_q;
            always @(posedge clk) begin
                i_q <= mem[i_line];
                if (d_enable) begin
                    d_q <= mem[d_line];
                    if (d_wstrb[4*k])     mem[d_line][7:0]   <= d_wdata[32*k +: 8];
                    if (d_wstrb[4*k + 1]) mem[d_line][15:8]  <= d_wdata[32*k + 8 +: 8];
                    if (d_wstrb[4*k + 2]) mem[d_line][23:16] <= d_wdata[32*k + 16 +: 8];
                    if (d_wstrb[4*k + 3]) mem[d_line][31:24] <= d_wdata[32*k + 24 +: 8];
                end
            end
            assign i_words[32*k +: 32] = i_q;
            assign d_data[32*k +: 32]  = d_q;
        end
    endgenerate
endmodule
