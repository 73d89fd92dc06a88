// SPDX-License-Identifier: ISC
// rv32_regfile: the 32 x 32-bit integer registers of the core.
// Two synchronous read ports (the data of the address presented at a clock edge appears
// after it; x0 reads as zero) and one synchronous write port. A read and a write of the
// same register at the same edge return the old value (the core forwards the new one).
// Synchronous reads let yosys put the registers in block RAM (SB_RAM40_4K on iCE40).
// x0 is never written and starts as zero (the block RAM's initial contents), so it reads 0
// without a zero mux on the read data.
module rv32_regfile #(
    parameter XLEN = 32
) (
    input  wire            clk,
    input  wire [4:0]      rs1_addr,
    output wire [XLEN-1:0] rs1_data,
    input  wire [4:0]      rs2_addr,
    output wire [XLEN-1:0] rs2_data,
    input  wire            rd_write,
    input  wire [4:0]      rd_addr,
    input  wire [XLEN-1:0] rd_data
);
    // no_rw_check: a read of the register written at the same edge may return anything
    // (the core forwards that value itself), so yosys adds no bypass logic around the RAM
    (* no_rw_check *)
    reg [XLEN-1:0] regs [0:31];
    reg [XLEN-1:0] rs1_q, rs2_q;
    initial regs[0] = {XLEN{1'b0}};

    always @(posedge clk) begin
        if (rd_write && rd_addr != 5'd0)
            regs[rd_addr] <= rd_data;
        rs1_q <= regs[rs1_addr];
        rs2_q <= regs[rs2_addr];
    end

    assign rs1_data = rs1_q;
    assign rs2_data = rs2_q;
endmodule
