// SPDX-License-Identifier: ISC
// rv32_core: RV32IM machine-mode core of rvmesh.
//
// Pipeline (see rtl/core/README.md):
//   F  the fetch address goes to the synchronous instruction RAM; the word comes back
//      at the next clock edge (the RAM's output register is the F/D pipeline register).
//   D  the instruction word is at imem_data; its rs1/rs2 fields address the register
//      file, whose synchronous read (block RAM) delivers the operands to X. D decodes
//      ahead for X (registered control bits, the ALU immediate, the CSR select), adds
//      pc + 4 and pc + offset, and predicts: jal and backward branches taken (the next
//      fetch is their target), forward branches not taken.
//   X  operand forwarding, ALU, shifter, multiplier, divider, branch resolution, CSR
//      access, the trap decision and the data-bus request. A mispredicted branch, jalr,
//      trap, mret or fence.i fetches from the right address: one bubble, or two with
//      FAST_REDIRECT = 0 (the new fetch address is registered first).
//   W  write-back; a load's data arrives from the data bus in this stage. With
//      LOAD_BYPASS = 1 it is aligned and forwarded to X in the same cycle (a load followed
//      by its use costs nothing); with 0 the use waits one cycle.
// X and D stall while a data-bus request waits for ready, while the divider runs, while
// the multiplier runs (MUL_KIND 0 and 2) and for a load-use pair (LOAD_BYPASS = 0).
module rv32_core #(
    parameter XLEN = 32,
    parameter [XLEN-1:0] RESET_PC = 32'h8000_0000,
    // multiplier: 1 single-cycle in logic (large without DSP blocks); 2 operands registered
    // into a plain `*` that synthesis maps to DSP blocks (SB_MAC16), 2 cycles;
    // 0 rv32_mul_iter, shift-and-add, 9 cycles
    parameter MUL_KIND = 1,
    // quotient bits per divider step: 4, 2 or 1 (slower division, shorter path, smaller)
    parameter DIV_BITS = 4,
    // 1: load data (and a divider result to be negated) is forwarded to X from W in the
    // same cycle; 0: an instruction using it waits one cycle (the RAM-to-ALU path goes)
    parameter LOAD_BYPASS = 1,
    // 1: a redirect (mispredicted branch, jalr, trap, mret, fence.i) fetches from the new
    // address in the same cycle (one bubble); 0: the address is registered first (two
    // bubbles; the branch decision leaves the fetch path), and so is the divider's
    // placement amount (one more cycle per division)
    parameter FAST_REDIRECT = 1,
    // 1: the 64-bit counters mcycle and minstret in four iCE40 UP5K DSP blocks (SB_MAC16)
    // instead of about 256 logic cells; 0: in logic
    parameter DSP_COUNTERS = 0
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
    localparam FAST = FAST_REDIRECT != 0;
    localparam BYP  = LOAD_BYPASS != 0;

    wire hold;           // X and D keep their instructions this cycle
    wire redirect_x;     // X sends the fetch elsewhere (squashes what follows it)
    wire [XLEN-1:0] redirect_pc_x;

    // ================================================================== D stage
    reg            d_valid;      // imem_data holds the instruction at d_pc
    reg [XLEN-1:0] d_pc;
    reg            d_fetch_err;  // d_pc could not be fetched

    wire [31:0] d_ir     = imem_data;
    wire [6:0]  d_opcode = d_ir[6:0];
    wire [2:0]  d_funct3 = d_ir[14:12];
    wire [6:0]  d_funct7 = d_ir[31:25];
    wire [4:0]  d_rd     = d_ir[11:7];

    wire d_lui    = d_opcode == 7'b0110111;
    wire d_auipc  = d_opcode == 7'b0010111;
    wire d_jal    = d_opcode == 7'b1101111;
    wire d_jalr   = d_opcode == 7'b1100111 && d_funct3 == 3'b000;
    wire d_brop   = d_opcode == 7'b1100011;
    wire d_branch = d_brop && d_funct3[2:1] != 2'b01;
    wire d_load   = d_opcode == 7'b0000011 && (d_funct3 == 3'b000 || d_funct3 == 3'b001 ||
                    d_funct3 == 3'b010 || d_funct3 == 3'b100 || d_funct3 == 3'b101);
    wire d_store  = d_opcode == 7'b0100011 && (d_funct3 == 3'b000 || d_funct3 == 3'b001 ||
                    d_funct3 == 3'b010);
    wire d_opimm  = d_opcode == 7'b0010011 &&
                    (d_funct3 == 3'b001 ? d_funct7 == 7'b0000000 :
                     d_funct3 == 3'b101 ? (d_funct7 == 7'b0000000 || d_funct7 == 7'b0100000) :
                     1'b1);
    wire d_op     = d_opcode == 7'b0110011 && (d_funct7 == 7'b0000000 ||
                    (d_funct7 == 7'b0100000 && (d_funct3 == 3'b000 || d_funct3 == 3'b101)));
    wire d_muldiv = d_opcode == 7'b0110011 && d_funct7 == 7'b0000001;
    wire d_fence  = d_opcode == 7'b0001111 && (d_funct3 == 3'b000 || d_funct3 == 3'b001);
    wire d_system = d_opcode == 7'b1110011;
    wire d_ecall  = d_ir == 32'h0000_0073;
    wire d_ebreak = d_ir == 32'h0010_0073;
    wire d_mret   = d_ir == 32'h3020_0073;
    wire d_wfi    = d_ir == 32'h1050_0073;
    wire d_csr    = d_system && d_funct3 != 3'b000 && d_funct3 != 3'b100;
    // csrrw writes always; csrrs/csrrc only when rs1 (or the immediate) is not zero
    wire d_csr_writes = d_funct3[1:0] == 2'b01 || d_ir[19:15] != 5'd0;
    wire d_csr_exists;
    wire d_known  = d_lui | d_auipc | d_jal | d_jalr | d_branch | d_load | d_store | d_opimm |
                    d_op | d_muldiv | d_fence | d_ecall | d_ebreak | d_mret | d_wfi | d_csr;
    wire d_illegal = !d_known ||
                     (d_csr && (!d_csr_exists || (d_csr_writes && d_ir[31:30] == 2'b11)));
    wire d_writes_rd = (d_lui | d_auipc | d_jal | d_jalr | d_load | d_opimm | d_op |
                        d_muldiv | d_csr) && d_rd != 5'd0;
    // lui reads x0 as its rs1: the ALU adds its immediate to zero
    wire [4:0] d_rs1 = d_lui ? 5'd0 : d_ir[19:15];
    wire [4:0] d_rs2 = d_ir[24:20];
    wire d_uses_rs1 = d_jalr | d_brop | d_load | d_store | d_opimm | d_op | d_muldiv |
                      (d_csr && !d_funct3[2]);
    wire d_uses_rs2 = d_brop | d_store | d_op | d_muldiv;

    // immediates
    wire [XLEN-1:0] d_imm_i = {{(XLEN-11){d_ir[31]}}, d_ir[30:20]};
    wire [XLEN-1:0] d_imm_s = {{(XLEN-11){d_ir[31]}}, d_ir[30:25], d_ir[11:7]};
    wire [XLEN-1:0] d_imm_b = {{(XLEN-12){d_ir[31]}}, d_ir[7], d_ir[30:25], d_ir[11:8], 1'b0};
    wire [XLEN-1:0] d_imm_u = {d_ir[31:12], 12'b0};
    wire [XLEN-1:0] d_imm_j = {{(XLEN-20){d_ir[31]}}, d_ir[19:12], d_ir[20], d_ir[30:21], 1'b0};

    // pc-relative target: jal (opcode bit 3), auipc/jalr/lui (bit 2), branches
    wire [XLEN-1:0] d_imm_pc = d_ir[3] ? d_imm_j : d_ir[2] ? d_imm_u : d_imm_b;
    wire [XLEN-1:0] d_target = d_pc + d_imm_pc;
    wire [XLEN-1:0] d_pc4    = d_pc + 32'd4;

    // prediction (a jump to a misaligned target is not predicted: X raises its trap)
    wire d_predict_raw = (d_ir[6:0] == 7'b1101111 || (d_brop && d_ir[31])) && !d_imm_pc[1];
    wire d_predict     = d_valid && d_predict_raw;
    // X's other address: pc + 4 after a predicted jump (the way back on a misprediction,
    // and the link of jal/jalr), or the target otherwise (a branch's taken way, auipc)
    wire d_alt_pc4 = d_predict_raw | d_jalr | d_fence;

    // the ALU's second operand when it is not rs2 (for a division -1, giving the core's
    // adder dividend - 1)
    reg [XLEN-1:0] d_imm_alu;
    always @(*) begin
        if (d_store)          d_imm_alu = d_imm_s;
        else if (d_lui)       d_imm_alu = d_imm_u;
        else if (d_muldiv)    d_imm_alu = {XLEN{1'b1}};
        else                  d_imm_alu = d_imm_i;
    end

    // static exceptions, in priority order
    wire       d_exc    = d_fetch_err | d_illegal | d_ecall | d_ebreak;
    wire [3:0] d_exc_code = d_fetch_err ? 4'd1 : d_illegal ? 4'd2 : d_ecall ? 4'd11 : 4'd3;

    // ================================================================== X stage state
    reg            x_valid;      // x_ir is an instruction to execute (not a bubble)
    reg [XLEN-1:0] x_pc;
    reg [31:0]     x_ir;
    reg [XLEN-1:0] x_alt;        // pc + 4 or the pc-relative target (see d_alt_pc4)
    reg            x_tgt_mis;    // the pc-relative target has bit 1 set
    reg [XLEN-1:0] x_balt;       // the ALU's second operand when not from the register
                                 // file or W: the immediate, or the value written at the
                                 // last edge (which the register file's read missed)
    reg            x_bsel;       // the ALU's second operand is x_balt
    reg            x_b_imm;      // ... and that is the immediate
    reg            x_req_wait;   // last cycle's data request was not yet accepted
    reg            irq_ext_q, irq_timer_q;   // the interrupt inputs, registered
    reg            x_jal, x_jalr, x_branch, x_load, x_store, x_mul, x_div, x_csr;
    reg            x_mret, x_writes_rd, x_uses_rs1, x_uses_rs2;
    reg            x_redirects;  // mret, jalr, fence.i: always a redirect
    reg            x_br_flip;    // a branch mispredicts when its comparison differs
    reg            x_exc;        // a static exception (fetch fault, illegal, ecall, ebreak)
    reg [3:0]      x_exc_code;
    reg            x_sub;        // the adder subtracts (sub, slt, sltu, branches)
    reg            x_cmp_signed; // the comparison is signed
    reg            x_sel_sum, x_sel_slt, x_sel_alt;
    reg [1:0]      x_logic;      // 01 xor, 10 or, 11 and, 00 none
    reg            x_shift, x_shift_right, x_shift_arith;
    reg            x_fw1, x_fw2; // rs1/rs2 is the rd of the instruction now in W (written)
    reg            x_fwb;        // the ALU's second operand is that rd
    reg            x_fp1, x_fp2; // rs1/rs2 was written at the last edge (register file missed it)
    reg [4:0]      x_rs1;

    wire [4:0] rd     = x_ir[11:7];
    wire [2:0] funct3 = x_ir[14:12];
    wire [4:0] rs2    = x_ir[24:20];

    // ================================================================== W stage state
    reg            w_valid;      // write w_rd at the end of this cycle (unless w_exc)
    reg [4:0]      w_rd;
    reg [XLEN-1:0] w_result;     // non-load result
    reg            w_load;
    reg            w_negate;     // w_result is a divider magnitude to negate
    reg [2:0]      w_funct3;
    reg [1:0]      w_byte;
    reg [XLEN-1:0] p_value;      // the value written at the last edge

    // ================================================================== operands
    wire [XLEN-1:0] rf_rs1, rf_rs2;
    wire [XLEN-1:0] w_value;     // what W writes (load data aligned, result negated)
    wire [4:0] rf_rs1_addr = hold ? x_rs1 : d_rs1;
    wire [4:0] rf_rs2_addr = hold ? rs2 : d_rs2;
    rv32_regfile #(.XLEN(XLEN)) regfile (
        .clk(clk),
        .rs1_addr(rf_rs1_addr), .rs1_data(rf_rs1),
        .rs2_addr(rf_rs2_addr), .rs2_data(rf_rs2),
        .rd_write(w_valid && !w_exc), .rd_addr(w_rd), .rd_data(w_value)
    );
    // the forwarded W value: with LOAD_BYPASS = 0 never a load or a value still to be
    // negated (the user waits a cycle and takes it from p_value)
    wire [XLEN-1:0] w_fwd = BYP ? w_value : w_result;
    // every select is a register: two levels of logic from the register file to the ALU
    wire fw1 = x_fw1;
    wire fw2 = x_fw2;
    wire [XLEN-1:0] src1 = fw1 ? w_fwd : x_fp1 ? p_value : rf_rs1;
    wire [XLEN-1:0] src2 = fw2 ? w_fwd : x_fp2 ? p_value : rf_rs2;
    wire w_late  = !BYP && (w_load || w_negate);
    wire ld_use  = w_late && ((fw1 && x_uses_rs1) || (fw2 && x_uses_rs2));

    // ================================================================== ALU
    wire [XLEN-1:0] alu_b = x_fwb ? w_fwd : x_bsel ? x_balt : rf_rs2;
    wire [XLEN:0]   add_a = {x_cmp_signed & src1[XLEN-1], src1};
    // (inverted for a subtraction in the same logic as the operand select)
    wire [XLEN:0]   add_b = {XLEN+1{x_sub}} ^ {x_cmp_signed & alu_b[XLEN-1], alu_b};
    wire [XLEN:0]   add_r = add_a + add_b + {{XLEN{1'b0}}, x_sub};
    wire [XLEN-1:0] sum   = add_r[XLEN-1:0];
    wire            lt    = add_r[XLEN];
    wire            eq    = src1 == src2;
    reg  [XLEN-1:0] logic_res;
    always @(*) begin
        case (x_logic)
            2'b01:   logic_res = src1 ^ alu_b;
            2'b10:   logic_res = src1 | alu_b;
            2'b11:   logic_res = src1 & alu_b;
            default: logic_res = {XLEN{1'b0}};
        endcase
    end

    // shifter (lent to the divider in its setup cycle)
    // With FAST_REDIRECT = 0 the divider's value and amount come in through the operand
    // registers (p_value and x_balt, loaded the cycle before: see below), so the shifter's
    // inputs need no multiplexer; otherwise they are selected here.
    wire            div_place, div_setup;
    wire [XLEN-1:0] div_place_value;
    wire [4:0]      div_place_amount, div_setup_amount;
    wire            sh_div = FAST && div_place;
    wire [XLEN-1:0] sh_rot, sh_keep;
    wire            sh_fill;
    rv32_shift shifter (
        .value(sh_div ? div_place_value : src1),
        .amount(sh_div ? div_place_amount : alu_b[4:0]),
        .right(x_shift_right), .arith(x_shift_arith),
        .rot(sh_rot), .keep(sh_keep), .fill(sh_fill)
    );

    // ================================================================== multiplier
    // MUL, MULH (s x s), MULHSU (s x u), MULHU (u x u)
    wire mul_a_signed = funct3[1:0] != 2'b11;
    wire mul_b_signed = funct3[1:0] == 2'b01;
    wire [2*XLEN-1:0] product;
    wire              mul_busy, mul_done;
    wire              mul_start;
    generate
        if (MUL_KIND == 1) begin : g_mul_lut
            wire signed [XLEN:0] mul_a = {mul_a_signed && src1[XLEN-1], src1};
            wire signed [XLEN:0] mul_b = {mul_b_signed && src2[XLEN-1], src2};
            wire signed [2*XLEN-1:0] full = mul_a * mul_b;
            assign product  = full;
            assign mul_busy = 1'b0;
            assign mul_done = 1'b1;
            wire unused_mul = mul_start;
        end else if (MUL_KIND == 2) begin : g_mul_dsp
            // an unsigned 32 x 32 product, operands registered at the start (the DSP
            // blocks' input registers), read in the next cycle; the signed forms correct
            // its upper half: hi(a * b) = hi(|a|u * |b|u) - (a < 0 ? b : 0) - (b < 0 ? a : 0),
            // the correction summed at the start too
            reg [XLEN-1:0] mul_a_q, mul_b_q, corr_q;
            reg            pending;
            wire a_neg = mul_a_signed && src1[XLEN-1];
            wire b_neg = mul_b_signed && src2[XLEN-1];
            always @(posedge clk) begin
                if (rst)
                    pending <= 1'b0;
                else
                    pending <= mul_start;
                if (mul_start) begin
                    mul_a_q <= src1;
                    mul_b_q <= src2;
                    corr_q  <= (a_neg ? src2 : {XLEN{1'b0}}) + (b_neg ? src1 : {XLEN{1'b0}});
                end
            end
            wire [2*XLEN-1:0] full = mul_a_q * mul_b_q;
            assign product  = {full[2*XLEN-1:XLEN] - corr_q, full[XLEN-1:0]};
            assign mul_busy = pending;
            assign mul_done = pending;
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

    // ================================================================== divider
    wire            div_busy, div_done, div_negate;
    wire [XLEN-1:0] div_res;
    wire            div_start;
    rv32_div #(.BITS_PER_CYCLE(DIV_BITS), .PLACE_CYCLE(!FAST)) divider (
        .clk(clk), .rst(rst), .start(div_start), .is_signed(!funct3[0]),
        .want_rem(funct3[1]), .dividend(src1), .divisor(src2), .dividend_dec(sum),
        .busy(div_busy), .done(div_done), .result(div_res), .negate(div_negate),
        .place(div_place), .place_value(div_place_value), .place_amount(div_place_amount),
        .setup(div_setup), .setup_amount(div_setup_amount),
        .place_rot(sh_rot), .place_keep(sh_keep)
    );

    // ================================================================== branches, jumps
    wire branch_cond = funct3[2] ? (lt ^ funct3[0]) : (eq ^ funct3[0]);

    // ================================================================== CSRs
    wire [XLEN-1:0] csr_rdata;
    wire [XLEN-1:0] csr_src = funct3[2] ? {{(XLEN-5){1'b0}}, x_ir[19:15]} : src1;
    wire            csr_writes = funct3[1:0] == 2'b01 || x_ir[19:15] != 5'd0;
    reg  [XLEN-1:0] csr_wdata;
    always @(*) begin
        case (funct3[1:0])
            2'b01:   csr_wdata = csr_src;
            2'b10:   csr_wdata = csr_rdata | csr_src;
            default: csr_wdata = csr_rdata & ~csr_src;
        endcase
    end
    wire [XLEN-1:0] mtvec_base, mepc;
    wire            mtvec_vectored;
    wire            irq_pending;
    wire [XLEN-1:0] irq_cause;

    // ================================================================== data access
    wire [XLEN-1:0] mem_addr = sum;
    wire mem_misaligned = (funct3[1:0] == 2'b01 && mem_addr[0]) ||
                          (funct3[1:0] == 2'b10 && mem_addr[1:0] != 2'b00);

    // ================================================================== traps
    // Interrupts and the static exceptions (fetch fault, illegal instruction, ecall,
    // ebreak: mtval from registers) are taken in X. The others -- a misaligned load, store
    // or jump target, and a bus access fault -- are taken one cycle later, from W: the
    // instruction goes on to W with its effects suppressed (no request, no write, no
    // jump) and w_result holding mtval (the address or the target). So no trap decision
    // waits for the adder, the address decode or the bus.
    reg            w_exc;        // W holds an instruction that raised a late exception
    reg [3:0]      w_exc_code;
    reg [XLEN-1:0] w_pc;
    reg            w_at_vec;     // ... at the trap vector (see fatal)
    wire x_at_vec = x_pc == mtvec_base;

    wire active = x_valid && !halted && !w_exc;
    wire instret_busy;           // minstret is still counting the instruction before
    // a branch to a misaligned target (never predicted) spends a cycle deciding, so that
    // the comparison does not reach the trap logic: the condition is taken from br_cond_q
    reg  br_mis_q, br_cond_q;
    // X waits (and D with it): an operand not there yet (a load or divider result with
    // LOAD_BYPASS = 0), its data request not ready, the divider or multiplier busy, minstret
    // not yet counted, that branch deciding. From registers only, and before any
    // interrupt: an interrupt is taken only when the instruction in X does not wait.
    // (stall_regs: all but the bus's ready, which the interrupt decision must not see: the
    // request's valid would then depend on its ready, a loop through any bus that decides
    // ready from valid, as tile's arbitration does)
    wire stall_regs = active && (ld_use || (!x_exc && (
                     (x_div && !div_done) || (x_mul && !mul_done) ||
                     (x_csr && instret_busy) || (x_branch && x_tgt_mis && !br_mis_q))));
    wire bus_wait;               // (below: the request offered and not ready)
    wire stall = stall_regs || bus_wait;
    // interrupts are taken between instructions: not while a divide, multiply or bus
    // request is under way (a request once offered stays until accepted; a load or store
    // not yet offered gives way to the interrupt and runs after its mret)
    wire irq_take = active && irq_pending && !div_busy && !mul_busy && !x_req_wait && !stall_regs;
    // the instruction executes this cycle (its operands are there, no interrupt first)
    wire go   = active && !irq_take && !ld_use;
    wire x_ok = go && !x_exc;
    wire mem_mis  = (x_load || x_store) && mem_misaligned;
    wire jalr_mis = x_jalr && sum[1];
    wire br_mis_wait = x_ok && x_branch && x_tgt_mis && !br_mis_q;
    wire jump_mis = (x_jal && x_tgt_mis) || (x_branch && x_tgt_mis && br_mis_q && br_cond_q) ||
                    jalr_mis;
    wire late_exc = mem_mis || jump_mis;

    // the data request: offered unless this instruction traps before it
    assign dmem_req_valid = x_ok && (x_load || x_store) && !mem_misaligned;
    wire   bus_fault      = dmem_req_valid && dmem_req_ready && dmem_req_error;
    // (a misaligned access, not offered, waits for ready all the same: ready then stays
    // off the adder's path)
    assign bus_wait       = x_ok && (x_load || x_store) && !dmem_req_ready;

    assign div_start = x_ok && x_div && !div_busy;
    assign mul_start = x_ok && x_mul && !mul_busy;
    wire complete = x_ok && !late_exc && !stall;   // (a bus fault is found in W)
    // (an instruction whose access faults goes on as completed; W cancels its register
    // write and its count in minstret, so that the late bus signals reach one register
    // only)
    wire retired  = complete && !bus_fault;

    wire x_trap   = irq_take || (go && x_exc);
    wire any_trap = w_exc || x_trap;
    wire [XLEN-1:0] cause = w_exc    ? {28'd0, w_exc_code} :
                            irq_take ? irq_cause : {28'd0, x_exc_code};
    // mtval: the address (bit 0 cleared for a jump target) or the static exception's value
    wire [XLEN-1:0] tval  = w_exc ? {w_result[XLEN-1:1], w_result[0] & (w_exc_code != 4'd0)} :
                            (irq_take || x_exc_code == 4'd11) ? {XLEN{1'b0}} :
                            (x_exc_code == 4'd2) ? x_ir : x_pc;
    wire [XLEN-1:0] tpc   = w_exc ? w_pc : x_pc;
    // exceptions go to the base; interrupts in vectored mode to base + 4 x cause
    // (a vectored mtvec's base is 64-byte aligned, rv32_csr: base + 4 x cause is an OR)
    wire [XLEN-1:0] trap_vector = mtvec_base |
                                  {{(XLEN-6){1'b0}}, {4{mtvec_vectored && irq_take}} & irq_cause[3:0], 2'b00};
    // an exception raised by the first instruction of the trap handler would loop forever
    wire fatal = (w_exc && w_at_vec) || (go && x_exc && x_at_vec);
    wire trap  = any_trap && !fatal;

    rv32_csr #(.XLEN(XLEN), .DSP_COUNTERS(DSP_COUNTERS)) csrs (
        .clk(clk), .rst(rst), .hart_id(hart_id),
        .dec_addr(d_ir[31:20]), .dec_csr(d_csr), .dec_load(!hold), .dec_exists(d_csr_exists),
        .csr_rdata(csr_rdata),
        .csr_write(x_ok && x_csr && csr_writes && !instret_busy), .csr_wdata(csr_wdata),
        .retire(complete), .retire_cancel(w_exc), .instret_busy(instret_busy),
        .trap_take(trap), .trap_cause(cause), .trap_pc(tpc),
        .trap_tval(tval), .mret_take(x_ok && x_mret),
        .irq_external(irq_ext_q), .irq_timer(irq_timer_q),
        .mtvec_base(mtvec_base), .mtvec_vectored(mtvec_vectored), .mepc(mepc),
        .irq_pending(irq_pending), .irq_cause(irq_cause)
    );

    // ================================================================== redirect, fetch
    assign hold = halted || stall;
    // (the comparison enters last: x_br_flip = funct3[0] ^ predicted, decoded in D)
    wire mispredict = (funct3[2] ? lt : eq) ^ x_br_flip;
    assign redirect_x = trap || (complete && x_redirects) || (complete && x_branch && mispredict);
    assign redirect_pc_x = trap ? trap_vector : x_mret ? mepc :
                           x_jalr ? {sum[XLEN-1:1], 1'b0} : x_alt;
    // the registered redirect (FAST_REDIRECT = 0; also the reset: fetch RESET_PC)
    reg            redirect_q;
    reg [XLEN-1:0] redirect_pc_q;
    wire           fetch_redirect    = redirect_q || (FAST && redirect_x);
    wire [XLEN-1:0] fetch_redirect_pc = (FAST && redirect_x) ? redirect_pc_x : redirect_pc_q;
    reg [XLEN-1:0] fetch_pc;
    always @(*) begin
        if (hold)                fetch_pc = d_pc;   // fetch D's word again
        else if (fetch_redirect) fetch_pc = fetch_redirect_pc;
        else if (d_predict)      fetch_pc = d_target;
        else                     fetch_pc = d_pc4;
    end
    assign imem_addr = fetch_pc;

    // ================================================================== results
    // (loads and stores pass their address on, a misaligned jalr its target: mtval of a
    // trap taken from W)
    // (the two late sources, the adder and the shifter, enter in the last two levels)
    wire [XLEN-1:0] sh_keep_x = {XLEN{x_shift}} & sh_keep;
    wire [XLEN-1:0] x_result = (sh_keep_x & sh_rot) |
                               (~sh_keep_x & ({XLEN{x_shift && sh_fill}} | x_result_rest));
    wire [XLEN-1:0] x_result_rest =
                               ({XLEN{x_sel_sum || jalr_mis}} & sum) |
                               {{(XLEN-1){1'b0}}, x_sel_slt & lt} |
                               logic_res |
                               ({XLEN{x_sel_alt && !jalr_mis}} & x_alt) |
                               ({XLEN{x_mul}} & mul_res) |
                               ({XLEN{x_div}} & div_res) |
                               csr_rdata;

    // W: load alignment, negation of a divider result
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
    assign w_value = w_load ? load_value : w_negate ? {XLEN{1'b0}} - w_result : w_result;

    // store data in its byte lanes
    assign dmem_req_addr  = mem_addr;
    assign dmem_req_write = x_store;
    assign dmem_req_wstrb = !x_store ? 4'b0000 :
                            funct3[1:0] == 2'b00 ? (4'b0001 << mem_addr[1:0]) :
                            funct3[1:0] == 2'b01 ? (4'b0011 << mem_addr[1:0]) : 4'b1111;
    assign dmem_req_data  = funct3[1:0] == 2'b00 ? {4{src2[7:0]}} :
                            funct3[1:0] == 2'b01 ? {2{src2[15:0]}} : src2;

    // ================================================================== registers
    // the register numbers X reads next cycle: D's, or X's own again while it holds
    wire [4:0] n_rs1 = hold ? x_rs1 : d_rs1;
    wire [4:0] n_rs2 = hold ? rs2 : d_rs2;
    wire       n_b_imm = hold ? x_b_imm : !(d_op || d_brop);
    always @(posedge clk) begin
        if (rst) begin
            d_valid       <= 1'b0;
            d_pc          <= RESET_PC;
            d_fetch_err   <= 1'b0;
            x_valid       <= 1'b0;
            x_req_wait    <= 1'b0;
            irq_ext_q     <= 1'b0;
            irq_timer_q   <= 1'b0;
            halted        <= 1'b0;
            w_valid       <= 1'b0;
            w_load        <= 1'b0;
            w_negate      <= 1'b0;
            w_exc         <= 1'b0;
            redirect_q    <= 1'b1;
            redirect_pc_q <= RESET_PC;
        end else begin
            if (!hold) begin
                // after a registered redirect the word fetched meanwhile is not executed
                d_valid     <= FAST || !redirect_x;
                d_pc        <= fetch_pc;
                d_fetch_err <= imem_error;
                x_valid     <= d_valid && !redirect_x;   // a redirect squashes D
            end
            redirect_q    <= !FAST && redirect_x;
            redirect_pc_q <= FAST ? RESET_PC : redirect_pc_x;
            x_req_wait    <= bus_wait;
            irq_ext_q     <= irq_external;
            irq_timer_q   <= irq_timer;
            if (fatal)
                halted <= 1'b1;
            w_valid  <= complete && x_writes_rd;
            w_exc    <= (x_ok && late_exc) || bus_fault;
            w_load   <= x_load;
            w_negate <= x_div && div_negate;
        end
        if (!hold) begin
            x_pc          <= d_pc;
            x_ir          <= d_ir;
            x_alt         <= d_alt_pc4 ? d_pc4 : d_target;
            x_tgt_mis     <= d_imm_pc[1];
            x_jal         <= d_jal;
            x_jalr        <= d_jalr;
            x_branch      <= d_branch;
            x_load        <= d_load;
            x_store       <= d_store;
            x_mul         <= d_muldiv && !d_funct3[2];
            x_div         <= d_muldiv && d_funct3[2];
            x_csr         <= d_csr;
            x_mret        <= d_mret;
            x_redirects   <= d_mret || d_jalr || (d_fence && d_funct3[0]);
            x_br_flip     <= d_funct3[0] ^ d_predict;
            x_writes_rd   <= d_writes_rd;
            x_uses_rs1    <= d_uses_rs1;
            x_uses_rs2    <= d_uses_rs2;
            x_exc         <= d_exc;
            x_exc_code    <= d_exc_code;
            x_sub         <= d_brop || ((d_op || d_opimm) && d_funct3[2:1] == 2'b01) ||
                             (d_op && d_funct3 == 3'b000 && d_funct7[5]);
            x_cmp_signed  <= d_brop ? !d_funct3[1] : !d_funct3[0];
            x_sel_sum     <= d_lui || d_load || d_store || ((d_op || d_opimm) && d_funct3 == 3'b000);
            x_sel_slt     <= (d_op || d_opimm) && d_funct3[2:1] == 2'b01;
            x_sel_alt     <= d_auipc | d_jal | d_jalr | (d_brop & d_imm_pc[1]);
            x_logic       <= !(d_op || d_opimm) ? 2'b00 :
                             d_funct3 == 3'b100 ? 2'b01 : d_funct3 == 3'b110 ? 2'b10 :
                             d_funct3 == 3'b111 ? 2'b11 : 2'b00;
            x_shift       <= (d_op || d_opimm) && d_funct3[1:0] == 2'b01;
            x_shift_right <= (d_op || d_opimm) && d_funct3 == 3'b101;
            x_shift_arith <= d_funct7[5];
            x_rs1         <= d_rs1;
        end
        // the write at this edge is missed by the register file's read at this edge
        // W-forwarding: the instruction completing now writes what X reads next (while X
        // holds, nothing completes)
        x_fw1    <= complete && x_writes_rd && rd == d_rs1;
        x_fw2    <= complete && x_writes_rd && rd == d_rs2;
        x_fwb    <= complete && x_writes_rd && rd == d_rs2 && (d_op || d_brop);
        // (the divider's setup cycle with FAST_REDIRECT = 0: the next cycle's shift operands
        // are its dividend, in p_value, and its placement amount, in x_balt)
        x_fp1    <= w_valid && w_rd == n_rs1 || (!FAST && div_setup);
        x_fp2    <= w_valid && w_rd == n_rs2;
        x_bsel   <= n_b_imm || (w_valid && w_rd == n_rs2) || (!FAST && div_setup);
        x_balt   <= (!FAST && div_setup) ? {{(XLEN-5){1'b0}}, div_setup_amount} :
                    n_b_imm ? (hold ? x_balt : d_imm_alu) : w_value;
        if (!hold)
            x_b_imm <= !(d_op || d_brop);
        p_value  <= (!FAST && div_setup) ? div_place_value : w_value;
        br_mis_q  <= br_mis_wait;
        br_cond_q <= branch_cond;
        w_pc     <= x_pc;
        w_at_vec <= x_at_vec;
        // 0 jump target, 4/6 misaligned load/store, 5/7 load/store access fault
        w_exc_code <= {1'b0, x_load || x_store, x_store, bus_fault};
        w_rd     <= rd;
        w_result <= x_result;
        w_funct3 <= funct3;
        w_byte   <= mem_addr[1:0];
    end

    assign retire_valid = retired;
    assign retire_pc    = x_pc;
    assign trap_valid   = any_trap;
    assign trap_cause   = cause;
    assign trap_pc      = tpc;
    assign trap_tval    = tval;
endmodule
