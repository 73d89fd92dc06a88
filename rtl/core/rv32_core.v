// rv32_core: RV32IM machine-mode core of rvmesh.
//
// Pipeline (see rtl/core/README.md):
//   F  the fetch address goes to the synchronous instruction RAM; the word comes back
//      at the next clock edge (the RAM's output register is the F/D pipeline register).
//   D  the instruction word is at imem_data; its rs1/rs2 fields address the register
//      file, whose synchronous read (block RAM) delivers the operands to X.
//      D also predicts: jal and backward branches taken (the next fetch is their target),
//      forward branches not taken.
//   X  decode, operand forwarding, ALU, branch resolution, CSR access, and the data-bus
//      request. A mispredicted branch, jalr, trap, mret or fence.i refetches from the right
//      address and squashes the instruction in D: one bubble.
//   W  write-back; a load's data arrives from the data bus in this stage and is forwarded
//      to X, so a load followed by its use costs no bubble.
// X and D stall while a data-bus request waits for ready and while the divider (or, with
// FAST_MUL = 0, the multiplier) runs.
module rv32_core #(
    parameter XLEN = 32,
    parameter [XLEN-1:0] RESET_PC = 32'h8000_0000,
    // 1: single-cycle multiplier (large without DSP blocks); 0: rv32_mul_iter, 9 cycles
    parameter FAST_MUL = 1,
    // quotient bits per divider step: 4 (default) or 2 (slower division, shorter path)
    parameter DIV_BITS = 4
) (
    input  wire            clk,
    input  wire            rst,               // synchronous, active high
    input  wire [XLEN-1:0] hart_id,           // value of mhartid
    // instruction port: synchronous read, data valid the cycle after the address
    output wire [XLEN-1:0] imem_addr,         // byte address of the word to fetch
    input  wire            imem_error,        // imem_addr is not fetchable (combinational)
    input  wire [XLEN-1:0] imem_data,         // the word at last cycle's imem_addr
    // data port: request/ready handshake, load data the cycle after acceptance
    output wire            dmem_req_valid,    // a load or store request
    input  wire            dmem_req_ready,    // the request is accepted this cycle
    input  wire            dmem_req_error,    // with ready: no device, access fault
    output wire [XLEN-1:0] dmem_req_addr,     // byte address (device uses word + strobes)
    output wire            dmem_req_write,    // 1 store, 0 load
    output wire [3:0]      dmem_req_wstrb,    // byte lanes written by a store
    output wire [XLEN-1:0] dmem_req_data,     // store data, already in its byte lanes
    input  wire [XLEN-1:0] dmem_resp_data,    // load word, the cycle after acceptance
    // interrupts (level sensitive; enabled by mie and mstatus.MIE)
    input  wire            irq_external,
    input  wire            irq_timer,
    // observation (simulator, debug)
    output wire            retire_valid,      // an instruction completes this cycle
    output wire [XLEN-1:0] retire_pc,
    output wire            trap_valid,        // a trap is raised this cycle (taken, or halted)
    output wire [XLEN-1:0] trap_cause,
    output wire [XLEN-1:0] trap_pc,
    output wire [XLEN-1:0] trap_tval,
    output reg             halted             // a trap at the trap vector itself: stopped
);
    // ------------------------------------------------------------------ D stage state
    reg            d_valid;      // imem_data holds the instruction at d_pc
    reg [XLEN-1:0] d_pc;
    reg            d_fetch_err;  // d_pc could not be fetched

    // ------------------------------------------------------------------ X stage state
    reg            x_valid;      // x_ir is an instruction to execute (not a bubble)
    reg [XLEN-1:0] x_pc;
    reg [31:0]     x_ir;
    reg            x_fetch_err;  // x_pc could not be fetched
    reg            x_predicted;  // D predicted this jal/branch taken (fetched its target)
    reg            x_req_wait;   // last cycle's data request was not yet accepted

    // ------------------------------------------------------------------ W stage state
    reg            w_valid;      // write w_rd at the end of this cycle
    reg [4:0]      w_rd;
    reg [XLEN-1:0] w_result;     // non-load result
    reg            w_load;
    reg [2:0]      w_funct3;
    reg [1:0]      w_byte;

    // the register write done at the last clock edge (the register file's read at that
    // edge did not see it)
    reg            p_valid;
    reg [4:0]      p_rd;
    reg [XLEN-1:0] p_value;

    wire [31:0] ir = x_ir;
    wire [6:0] opcode = ir[6:0];
    wire [4:0] rd     = ir[11:7];
    wire [2:0] funct3 = ir[14:12];
    wire [4:0] rs1    = ir[19:15];
    wire [4:0] rs2    = ir[24:20];
    wire [6:0] funct7 = ir[31:25];

    wire [XLEN-1:0] imm_i = {{(XLEN-11){ir[31]}}, ir[30:20]};
    wire [XLEN-1:0] imm_s = {{(XLEN-11){ir[31]}}, ir[30:25], ir[11:7]};
    wire [XLEN-1:0] imm_b = {{(XLEN-12){ir[31]}}, ir[7], ir[30:25], ir[11:8], 1'b0};
    wire [XLEN-1:0] imm_u = {ir[31:12], 12'b0};
    wire [XLEN-1:0] imm_j = {{(XLEN-20){ir[31]}}, ir[19:12], ir[20], ir[30:21], 1'b0};

    // ------------------------------------------------------------------ decode
    wire is_lui    = opcode == 7'b0110111;
    wire is_auipc  = opcode == 7'b0010111;
    wire is_jal    = opcode == 7'b1101111;
    wire is_jalr   = opcode == 7'b1100111 && funct3 == 3'b000;
    wire is_branch = opcode == 7'b1100011 && funct3[2:1] != 2'b01;
    wire is_load   = opcode == 7'b0000011 && (funct3 == 3'b000 || funct3 == 3'b001 ||
                     funct3 == 3'b010 || funct3 == 3'b100 || funct3 == 3'b101);
    wire is_store  = opcode == 7'b0100011 && (funct3 == 3'b000 || funct3 == 3'b001 ||
                     funct3 == 3'b010);
    wire is_opimm  = opcode == 7'b0010011 &&
                     (funct3 == 3'b001 ? funct7 == 7'b0000000 :
                      funct3 == 3'b101 ? (funct7 == 7'b0000000 || funct7 == 7'b0100000) : 1'b1);
    wire is_op     = opcode == 7'b0110011 && (funct7 == 7'b0000000 ||
                     (funct7 == 7'b0100000 && (funct3 == 3'b000 || funct3 == 3'b101)));
    wire is_muldiv = opcode == 7'b0110011 && funct7 == 7'b0000001;
    wire is_mul    = is_muldiv && !funct3[2];
    wire is_div    = is_muldiv && funct3[2];
    wire is_fence  = opcode == 7'b0001111 && (funct3 == 3'b000 || funct3 == 3'b001);
    wire is_fence_i = is_fence && funct3[0];
    wire is_system = opcode == 7'b1110011;
    wire is_ecall  = is_system && ir == 32'h0000_0073;
    wire is_ebreak = is_system && ir == 32'h0010_0073;
    wire is_mret   = is_system && ir == 32'h3020_0073;
    wire is_wfi    = is_system && ir == 32'h1050_0073;
    wire is_csr    = is_system && funct3 != 3'b000 && funct3 != 3'b100;
    wire known     = is_lui | is_auipc | is_jal | is_jalr | is_branch | is_load | is_store |
                     is_opimm | is_op | is_muldiv | is_fence | is_ecall | is_ebreak |
                     is_mret | is_wfi | is_csr;
    wire writes_rd = is_lui | is_auipc | is_jal | is_jalr | is_load | is_opimm | is_op |
                     is_muldiv | is_csr;

    // ------------------------------------------------------------------ operands
    wire [XLEN-1:0] rf_rs1, rf_rs2;
    wire [XLEN-1:0] w_value;
    wire            hold;        // X and D keep their instructions this cycle
    // read the operands of the instruction that will be in X next cycle: D's, or X's own
    // again while X holds
    wire [4:0] rf_rs1_addr = hold ? rs1 : imem_data[19:15];
    wire [4:0] rf_rs2_addr = hold ? rs2 : imem_data[24:20];
    rv32_regfile #(.XLEN(XLEN)) regfile (
        .clk(clk),
        .rs1_addr(rf_rs1_addr), .rs1_data(rf_rs1),
        .rs2_addr(rf_rs2_addr), .rs2_data(rf_rs2),
        .rd_write(w_valid), .rd_addr(w_rd), .rd_data(w_value)
    );
    wire [XLEN-1:0] src1 = (w_valid && w_rd == rs1) ? w_value :
                           (p_valid && p_rd == rs1) ? p_value : rf_rs1;
    wire [XLEN-1:0] src2 = (w_valid && w_rd == rs2) ? w_value :
                           (p_valid && p_rd == rs2) ? p_value : rf_rs2;

    // ------------------------------------------------------------------ ALU
    wire [XLEN-1:0] alu_b   = is_op ? src2 : imm_i;
    wire            alu_sub = is_op && funct7[5];
    wire [XLEN-1:0] sum     = alu_sub ? src1 - alu_b : src1 + alu_b;
    wire            lt_s    = $signed(src1) < $signed(alu_b);
    wire            lt_u    = src1 < alu_b;
    wire [4:0]      shamt   = alu_b[4:0];
    wire [XLEN-1:0] sra_res = $signed(src1) >>> shamt;
    reg  [XLEN-1:0] alu_res;
    always @(*) begin
        case (funct3)
            3'b000:  alu_res = sum;
            3'b001:  alu_res = src1 << shamt;
            3'b010:  alu_res = {{(XLEN-1){1'b0}}, lt_s};
            3'b011:  alu_res = {{(XLEN-1){1'b0}}, lt_u};
            3'b100:  alu_res = src1 ^ alu_b;
            3'b101:  alu_res = funct7[5] ? sra_res : src1 >> shamt;
            3'b110:  alu_res = src1 | alu_b;
            default: alu_res = src1 & alu_b;
        endcase
    end

    // multiplier: MUL, MULH (s x s), MULHSU (s x u), MULHU (u x u)
    wire mul_a_signed = funct3[1:0] != 2'b11;
    wire mul_b_signed = funct3[1:0] == 2'b01;
    wire [2*XLEN-1:0] product;
    wire              mul_busy, mul_done;
    /* verilator lint_off UNUSEDSIGNAL */  // mul_start is used only when FAST_MUL = 0
    wire              mul_start;
    /* verilator lint_on UNUSEDSIGNAL */
    generate
        if (FAST_MUL != 0) begin : g_mul_fast
            wire signed [XLEN:0] mul_a = {mul_a_signed && src1[XLEN-1], src1};
            wire signed [XLEN:0] mul_b = {mul_b_signed && src2[XLEN-1], src2};
            wire signed [2*XLEN-1:0] full = mul_a * mul_b;
            assign product  = full;
            assign mul_busy = 1'b0;
            assign mul_done = 1'b1;
        end else begin : g_mul_iter
            rv32_mul_iter #(.XLEN(XLEN)) multiplier (
                .clk(clk), .rst(rst), .start(mul_start), .a_signed(mul_a_signed),
                .b_signed(mul_b_signed), .a(src1), .b(src2), .busy(mul_busy),
                .done(mul_done), .product(product)
            );
        end
    endgenerate
    wire [XLEN-1:0] mul_res = (funct3[1:0] == 2'b00) ? product[XLEN-1:0]
                                                      : product[2*XLEN-1:XLEN];

    // iterative divider
    wire            div_busy, div_done;
    wire [XLEN-1:0] div_quotient, div_remainder;
    wire            div_start;
    rv32_div #(.XLEN(XLEN), .BITS_PER_CYCLE(DIV_BITS)) divider (
        .clk(clk), .rst(rst), .start(div_start), .is_signed(!funct3[0]),
        .dividend(src1), .divisor(src2), .busy(div_busy), .done(div_done),
        .quotient(div_quotient), .remainder(div_remainder)
    );
    wire [XLEN-1:0] div_res = funct3[1] ? div_remainder : div_quotient;

    // ------------------------------------------------------------------ branches, jumps
    reg branch_cond;
    always @(*) begin
        case (funct3)
            3'b000:  branch_cond = src1 == src2;
            3'b001:  branch_cond = src1 != src2;
            3'b100:  branch_cond = $signed(src1) < $signed(src2);
            3'b101:  branch_cond = $signed(src1) >= $signed(src2);
            3'b110:  branch_cond = src1 < src2;
            default: branch_cond = src1 >= src2;
        endcase
    end
    wire [XLEN-1:0] pc_plus4  = x_pc + 32'd4;
    wire [XLEN-1:0] pc_target = x_pc + (is_jal ? imm_j : imm_b);
    wire [XLEN-1:0] jalr_target = (src1 + imm_i) & ~{{(XLEN-1){1'b0}}, 1'b1};
    wire            jump_taken  = is_jal | is_jalr | (is_branch & branch_cond);
    wire [XLEN-1:0] jump_target = is_jalr ? jalr_target : pc_target;
    wire            jump_misaligned = jump_taken && jump_target[1];

    // ------------------------------------------------------------------ CSRs
    wire [11:0]     csr_addr = ir[31:20];
    wire [XLEN-1:0] csr_rdata;
    wire            csr_exists;
    wire [XLEN-1:0] csr_src = funct3[2] ? {{(XLEN-5){1'b0}}, rs1} : src1;
    // csrrw writes always; csrrs/csrrc only when rs1 (or the immediate) is not zero
    wire            csr_writes = funct3[1:0] == 2'b01 || rs1 != 5'd0;
    reg  [XLEN-1:0] csr_wdata;
    always @(*) begin
        case (funct3[1:0])
            2'b01:   csr_wdata = csr_src;
            2'b10:   csr_wdata = csr_rdata | csr_src;
            default: csr_wdata = csr_rdata & ~csr_src;
        endcase
    end
    wire csr_illegal = is_csr && (!csr_exists || (csr_writes && csr_addr[11:10] == 2'b11));
    wire [XLEN-1:0] mtvec_base, mepc;
    wire            mtvec_vectored;
    wire            irq_pending;
    wire [XLEN-1:0] irq_cause;

    // ------------------------------------------------------------------ data access
    wire [XLEN-1:0] mem_addr = src1 + (is_store ? imm_s : imm_i);
    wire mem_misaligned = (funct3[1:0] == 2'b01 && mem_addr[0]) ||
                          (funct3[1:0] == 2'b10 && mem_addr[1:0] != 2'b00);

    // ------------------------------------------------------------------ traps
    wire active = x_valid && !halted;
    // interrupts are taken between instructions: not while a divide or bus request is
    // under way (a request once offered stays until accepted)
    wire irq_take = active && irq_pending && !div_busy && !mul_busy && !x_req_wait;
    wire illegal  = !known || csr_illegal;
    reg             exc_raise;   // a synchronous exception other than a bus fault
    reg  [3:0]      exc_code;
    reg  [XLEN-1:0] exc_tval;
    always @(*) begin
        exc_raise = 1'b1;
        exc_code  = 4'd0;
        exc_tval  = {XLEN{1'b0}};
        if (x_fetch_err) begin
            exc_code = 4'd1;  exc_tval = x_pc;
        end else if (illegal) begin
            exc_code = 4'd2;  exc_tval = ir;
        end else if (is_ecall) begin
            exc_code = 4'd11;
        end else if (is_ebreak) begin
            exc_code = 4'd3;  exc_tval = x_pc;
        end else if (jump_misaligned) begin
            exc_code = 4'd0;  exc_tval = jump_target;
        end else if ((is_load || is_store) && mem_misaligned) begin
            exc_code = is_store ? 4'd6 : 4'd4;  exc_tval = mem_addr;
        end else begin
            exc_raise = 1'b0;
        end
    end
    wire exc_take = active && !irq_take && exc_raise;

    // the data request: offered unless this instruction traps before it
    assign dmem_req_valid = active && !irq_take && !exc_raise && (is_load || is_store);
    wire   bus_fault      = dmem_req_valid && dmem_req_ready && dmem_req_error;
    wire   bus_wait       = dmem_req_valid && !dmem_req_ready;

    wire any_trap = irq_take || exc_take || bus_fault;
    wire [XLEN-1:0] cause = irq_take  ? irq_cause :
                            bus_fault ? (is_store ? 32'd7 : 32'd5) : {28'd0, exc_code};
    wire [XLEN-1:0] tval  = irq_take ? {XLEN{1'b0}} : bus_fault ? mem_addr : exc_tval;
    // exceptions go to the base; interrupts in vectored mode to base + 4 x cause
    wire [XLEN-1:0] trap_vector = (mtvec_vectored && irq_take) ?
                                  mtvec_base + {irq_cause[XLEN-3:0], 2'b00} : mtvec_base;
    // an exception raised by the first instruction of the trap handler would loop forever
    wire fatal = any_trap && !irq_take && x_pc == mtvec_base;
    wire trap  = any_trap && !fatal;

    assign div_start = active && is_div && !irq_take && !exc_raise && !div_busy;
    wire div_wait  = active && is_div && !irq_take && !exc_raise && !div_done;
    assign mul_start = active && is_mul && !irq_take && !exc_raise && !mul_busy;
    wire mul_wait  = active && is_mul && !irq_take && !exc_raise && !mul_done;
    wire stall    = bus_wait || div_wait || mul_wait;
    wire complete = active && !any_trap && !stall;

    rv32_csr #(.XLEN(XLEN)) csrs (
        .clk(clk), .rst(rst), .hart_id(hart_id),
        .csr_addr(csr_addr), .csr_rdata(csr_rdata), .csr_exists(csr_exists),
        .csr_write(complete && is_csr && csr_writes), .csr_wdata(csr_wdata),
        .retire(complete), .trap_take(trap), .trap_cause(cause), .trap_pc(x_pc),
        .trap_tval(tval), .mret_take(complete && is_mret),
        .irq_external(irq_external), .irq_timer(irq_timer),
        .mtvec_base(mtvec_base), .mtvec_vectored(mtvec_vectored), .mepc(mepc), .irq_pending(irq_pending), .irq_cause(irq_cause)
    );

    // ------------------------------------------------------------------ prediction (D)
    wire [31:0]     d_ir        = imem_data;
    wire            d_is_jal    = d_ir[6:0] == 7'b1101111;
    wire            d_is_branch = d_ir[6:0] == 7'b1100011;
    wire            d_predict   = d_valid && (d_is_jal || (d_is_branch && d_ir[31]));
    wire [XLEN-1:0] d_imm_b = {{(XLEN-12){d_ir[31]}}, d_ir[7], d_ir[30:25], d_ir[11:8], 1'b0};
    wire [XLEN-1:0] d_imm_j = {{(XLEN-20){d_ir[31]}}, d_ir[19:12], d_ir[20], d_ir[30:21], 1'b0};
    wire [XLEN-1:0] d_target = d_pc + (d_is_jal ? d_imm_j : d_imm_b);

    // ------------------------------------------------------------------ next fetch
    assign hold = halted || fatal || stall;
    wire mispredict = (is_branch || is_jal) && (jump_taken != x_predicted);
    wire redirect   = trap || (complete && (is_mret || is_jalr || is_fence_i || mispredict));
    reg [XLEN-1:0] fetch_pc;
    always @(*) begin
        if (!d_valid)                   fetch_pc = RESET_PC;
        else if (hold)                  fetch_pc = d_pc;   // fetch D's word again
        else if (trap)                  fetch_pc = trap_vector;
        else if (redirect)              fetch_pc = is_mret ? mepc :
                                                   (is_fence_i || !jump_taken) ? pc_plus4 :
                                                   jump_target;
        else if (d_predict)             fetch_pc = d_target;
        else                            fetch_pc = d_pc + 32'd4;
    end
    assign imem_addr  = fetch_pc;

    // ------------------------------------------------------------------ results
    reg [XLEN-1:0] x_result;
    always @(*) begin
        if (is_lui)                 x_result = imm_u;
        else if (is_auipc)          x_result = x_pc + imm_u;
        else if (is_jal || is_jalr) x_result = pc_plus4;
        else if (is_mul)            x_result = mul_res;
        else if (is_div)            x_result = div_res;
        else if (is_csr)            x_result = csr_rdata;
        else                        x_result = alu_res;
    end

    // load alignment in W
    wire [XLEN-1:0] load_shifted = dmem_resp_data >> {w_byte, 3'b000};
    reg  [XLEN-1:0] load_value;
    always @(*) begin
        case (w_funct3)
            3'b000:  load_value = {{(XLEN-8){load_shifted[7]}}, load_shifted[7:0]};
            3'b001:  load_value = {{(XLEN-16){load_shifted[15]}}, load_shifted[15:0]};
            3'b100:  load_value = {{(XLEN-8){1'b0}}, load_shifted[7:0]};
            3'b101:  load_value = {{(XLEN-16){1'b0}}, load_shifted[15:0]};
            default: load_value = load_shifted;
        endcase
    end
    assign w_value = w_load ? load_value : w_result;

    // store data in its byte lanes
    assign dmem_req_addr  = mem_addr;
    assign dmem_req_write = is_store;
    assign dmem_req_wstrb = !is_store ? 4'b0000 :
                            funct3[1:0] == 2'b00 ? (4'b0001 << mem_addr[1:0]) :
                            funct3[1:0] == 2'b01 ? (4'b0011 << mem_addr[1:0]) : 4'b1111;
    assign dmem_req_data  = funct3[1:0] == 2'b00 ? {4{src2[7:0]}} :
                            funct3[1:0] == 2'b01 ? {2{src2[15:0]}} : src2;

    // ------------------------------------------------------------------ registers
    always @(posedge clk) begin
        if (rst) begin
            d_valid     <= 1'b0;
            d_pc        <= RESET_PC;
            d_fetch_err <= 1'b0;
            x_valid     <= 1'b0;
            x_pc        <= RESET_PC;
            x_ir        <= 32'h0000_0013;   // nop
            x_fetch_err <= 1'b0;
            x_predicted <= 1'b0;
            x_req_wait  <= 1'b0;
            halted      <= 1'b0;
            w_valid     <= 1'b0;
            w_load      <= 1'b0;
            p_valid     <= 1'b0;
        end else begin
            if (!hold) begin
                d_valid     <= 1'b1;
                d_pc        <= fetch_pc;
                d_fetch_err <= imem_error;
                x_valid     <= d_valid && !redirect;   // a redirect squashes D
                x_pc        <= d_pc;
                x_ir        <= imem_data;
                x_fetch_err <= d_fetch_err;
                x_predicted <= d_predict;
            end
            x_req_wait  <= bus_wait;
            p_valid     <= w_valid;
            p_rd        <= w_rd;
            p_value     <= w_value;
            if (fatal)
                halted <= 1'b1;
            w_valid  <= complete && writes_rd && rd != 5'd0;
            w_rd     <= rd;
            w_result <= x_result;
            w_load   <= is_load;
            w_funct3 <= funct3;
            w_byte   <= mem_addr[1:0];
        end
    end

    assign retire_valid = complete;
    assign retire_pc    = x_pc;
    assign trap_valid   = any_trap;
    assign trap_cause   = cause;
    assign trap_pc      = x_pc;
    assign trap_tval    = tval;
endmodule
