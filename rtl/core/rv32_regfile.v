// rv32_regfile: the 32 x 32-bit integer registers of the core.
// Two asynchronous read ports (x0 reads as zero), one synchronous write port.
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
    reg [XLEN-1:0] regs [1:31];

    assign rs1_data = (rs1_addr == 5'd0) ? {XLEN{1'b0}} : regs[rs1_addr];
    assign rs2_data = (rs2_addr == 5'd0) ? {XLEN{1'b0}} : regs[rs2_addr];

    always @(posedge clk) begin
        if (rd_write && rd_addr != 5'd0)
            regs[rd_addr] <= rd_data;
    end
endmodule
