// SPDX-License-Identifier: ISC
// node_rom: a read-only memory of WORDS x 32 bits with one synchronous read port, its
// contents read at elaboration from INIT (a $readmemh file, one 32-bit word per line, a
// word for every address):
// the boot ROM of a board (yosys maps it to block RAM with those initial contents).
// The word at addr appears on data the cycle after (one read per cycle: the tile
// shares it between instruction fetch and data loads).
module node_rom #(
    parameter WORDS     = 512,
    parameter ADDR_BITS = 9,            // log2(WORDS)
    parameter INIT      = ""            // no file: all words read 0 (a ROM without contents)
) (
    input  wire                 clk,
    input  wire [ADDR_BITS-1:0] addr,   // word index
    output reg  [31:0]          data
);
    reg [31:0] mem [0:WORDS-1];
    integer i;
    // The file alone in its own generate branch: yosys (0.23) synthesised the ROM all zeros
    // when the $readmemh followed a loop of zeros or sat under a procedural `if`, and reads an
    // unguarded one even when INIT is "" (read_verilog elaborates the default first). The
    // netlist simulation (tests/boards/test_board_netlist.sh) found it. Words past the file's
    // end are undefined: the board's boot.hex is padded to the ROM's size (boards/boards.mk).
    generate
        if (INIT != "") begin : g_file
            initial $readmemh(INIT, mem);
        end else begin : g_empty
            initial for (i = 0; i < WORDS; i = i + 1) mem[i] = 32'd0;
        end
    endgenerate
    always @(posedge clk) data <= mem[addr];
endmodule
