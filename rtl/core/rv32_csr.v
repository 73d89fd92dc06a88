// rv32_csr: the machine-mode control and status registers of the core.
//
// Implemented (anything else is reported as not existing, so the core traps it as an
// illegal instruction):
//   mstatus (MIE, MPIE; MPP reads 11), mstatush (0), misa (RV32IM, read-only), mie, mip,
//   mtvec (direct or vectored), mscratch, mepc, mcause, mtval,
//   mcycle/mcycleh, minstret/minstreth, mcountinhibit (0),
//   cycle/cycleh, time/timeh (alias of mcycle), instret/instreth (read-only),
//   mvendorid, marchid, mimpid (0), mhartid (hart_id input), mconfigptr (0).
// The read-only test (address bits 11:10 == 11) is done by the core.
module rv32_csr #(
    parameter XLEN = 32
) (
    input  wire            clk,
    input  wire            rst,
    input  wire [XLEN-1:0] hart_id,
    // CSR instruction access: read is combinational, write is committed at the clock edge
    input  wire [11:0]     csr_addr,
    output reg  [XLEN-1:0] csr_rdata,
    output reg             csr_exists,
    input  wire            csr_write,
    input  wire [XLEN-1:0] csr_wdata,
    // events from the pipeline
    input  wire            retire,       // an instruction completes this cycle
    input  wire            trap_take,    // a trap is taken this cycle
    input  wire [XLEN-1:0] trap_cause,
    input  wire [XLEN-1:0] trap_pc,      // 4-byte aligned
    input  wire [XLEN-1:0] trap_tval,
    input  wire            mret_take,    // an mret completes this cycle
    // interrupt sources (level sensitive)
    input  wire            irq_external,
    input  wire            irq_timer,
    // to the pipeline
    output wire [XLEN-1:0] mtvec_base,      // trap vector base (low two bits zero)
    output wire            mtvec_vectored,  // mtvec.MODE = 1: interrupts at base + 4*cause
    output wire [XLEN-1:0] mepc,
    output wire            irq_pending,  // an enabled interrupt is pending and mstatus.MIE = 1
    output wire [XLEN-1:0] irq_cause
);
    localparam [11:0] A_MSTATUS  = 12'h300, A_MISA = 12'h301, A_MIE = 12'h304,
                      A_MTVEC    = 12'h305, A_MSTATUSH = 12'h310, A_MCOUNTINHIBIT = 12'h320,
                      A_MSCRATCH = 12'h340, A_MEPC = 12'h341, A_MCAUSE = 12'h342,
                      A_MTVAL    = 12'h343, A_MIP = 12'h344,
                      A_MCYCLE   = 12'hB00, A_MINSTRET = 12'hB02,
                      A_MCYCLEH  = 12'hB80, A_MINSTRETH = 12'hB82,
                      A_CYCLE    = 12'hC00, A_TIME = 12'hC01, A_INSTRET = 12'hC02,
                      A_CYCLEH   = 12'hC80, A_TIMEH = 12'hC81, A_INSTRETH = 12'hC82,
                      A_MVENDORID = 12'hF11, A_MARCHID = 12'hF12, A_MIMPID = 12'hF13,
                      A_MHARTID  = 12'hF14, A_MCONFIGPTR = 12'hF15;
    // misa: MXL = 1 (32-bit), extensions I (bit 8) and M (bit 12)
    localparam [XLEN-1:0] MISA_VALUE = {2'b01, {(XLEN-2-13){1'b0}}, 13'b1_0001_0000_0000};

    reg            mstatus_mie_q, mstatus_mpie_q;
    reg            mie_meie_q, mie_mtie_q, mie_msie_q;
    reg [XLEN-1:0] mtvec_q, mscratch_q, mepc_q, mcause_q, mtval_q;
    reg [63:0]     mcycle_q, minstret_q;

    wire [XLEN-1:0] mstatus_value = {{(XLEN-13){1'b0}}, 2'b11, 3'b000, mstatus_mpie_q,
                                     3'b000, mstatus_mie_q, 3'b000};
    wire [XLEN-1:0] mie_value = {{(XLEN-12){1'b0}}, mie_meie_q, 3'b000, mie_mtie_q, 3'b000,
                                 mie_msie_q, 3'b000};
    wire [XLEN-1:0] mip_value = {{(XLEN-12){1'b0}}, irq_external, 3'b000, irq_timer, 7'b0};

    always @(*) begin
        csr_exists = 1'b1;
        case (csr_addr)
            A_MSTATUS:       csr_rdata = mstatus_value;
            A_MSTATUSH:      csr_rdata = {XLEN{1'b0}};
            A_MISA:          csr_rdata = MISA_VALUE;
            A_MIE:           csr_rdata = mie_value;
            A_MIP:           csr_rdata = mip_value;
            A_MTVEC:         csr_rdata = mtvec_q;
            A_MCOUNTINHIBIT: csr_rdata = {XLEN{1'b0}};
            A_MSCRATCH:      csr_rdata = mscratch_q;
            A_MEPC:          csr_rdata = mepc_q;
            A_MCAUSE:        csr_rdata = mcause_q;
            A_MTVAL:         csr_rdata = mtval_q;
            A_MCYCLE, A_CYCLE, A_TIME:        csr_rdata = mcycle_q[31:0];
            A_MCYCLEH, A_CYCLEH, A_TIMEH:     csr_rdata = mcycle_q[63:32];
            A_MINSTRET, A_INSTRET:            csr_rdata = minstret_q[31:0];
            A_MINSTRETH, A_INSTRETH:          csr_rdata = minstret_q[63:32];
            A_MVENDORID, A_MARCHID, A_MIMPID, A_MCONFIGPTR: csr_rdata = {XLEN{1'b0}};
            A_MHARTID:       csr_rdata = hart_id;
            default: begin
                csr_rdata  = {XLEN{1'b0}};
                csr_exists = 1'b0;
            end
        endcase
    end

    wire wr_mcycle    = csr_write && csr_addr == A_MCYCLE;
    wire wr_mcycleh   = csr_write && csr_addr == A_MCYCLEH;
    wire wr_minstret  = csr_write && csr_addr == A_MINSTRET;
    wire wr_minstreth = csr_write && csr_addr == A_MINSTRETH;
    wire [63:0] mcycle_next   = mcycle_q + 64'd1;
    wire [63:0] minstret_next = minstret_q + {63'd0, retire};

    always @(posedge clk) begin
        if (rst) begin
            mstatus_mie_q  <= 1'b0;
            mstatus_mpie_q <= 1'b0;
            mie_meie_q     <= 1'b0;
            mie_mtie_q     <= 1'b0;
            mie_msie_q     <= 1'b0;
            mtvec_q        <= {XLEN{1'b0}};
            mscratch_q     <= {XLEN{1'b0}};
            mepc_q         <= {XLEN{1'b0}};
            mcause_q       <= {XLEN{1'b0}};
            mtval_q        <= {XLEN{1'b0}};
            mcycle_q       <= 64'd0;
            minstret_q     <= 64'd0;
        end else begin
            // counters: a CSR write replaces the half it names
            mcycle_q   <= wr_mcycle  ? {mcycle_next[63:32], csr_wdata} :
                          wr_mcycleh ? {csr_wdata, mcycle_next[31:0]} : mcycle_next;
            minstret_q <= wr_minstret  ? {minstret_next[63:32], csr_wdata} :
                          wr_minstreth ? {csr_wdata, minstret_next[31:0]} : minstret_next;
            if (trap_take) begin
                mepc_q         <= trap_pc;
                mcause_q       <= trap_cause;
                mtval_q        <= trap_tval;
                mstatus_mpie_q <= mstatus_mie_q;
                mstatus_mie_q  <= 1'b0;
            end else if (mret_take) begin
                mstatus_mie_q  <= mstatus_mpie_q;
                mstatus_mpie_q <= 1'b1;
            end else if (csr_write) begin
                case (csr_addr)
                    A_MSTATUS: begin
                        mstatus_mie_q  <= csr_wdata[3];
                        mstatus_mpie_q <= csr_wdata[7];
                    end
                    A_MIE: begin
                        mie_meie_q <= csr_wdata[11];
                        mie_mtie_q <= csr_wdata[7];
                        mie_msie_q <= csr_wdata[3];
                    end
                    // mode 0 (direct) and 1 (vectored); the reserved modes read as direct
                    A_MTVEC:    mtvec_q    <= {csr_wdata[XLEN-1:2], 1'b0, csr_wdata[1:0] == 2'b01};
                    A_MSCRATCH: mscratch_q <= csr_wdata;
                    A_MEPC:     mepc_q     <= {csr_wdata[XLEN-1:2], 2'b00};
                    A_MCAUSE:   mcause_q   <= csr_wdata;
                    A_MTVAL:    mtval_q    <= csr_wdata;
                    default: ;
                endcase
            end
        end
    end

    assign mtvec_base     = {mtvec_q[XLEN-1:2], 2'b00};
    assign mtvec_vectored = mtvec_q[0];
    assign mepc  = mepc_q;

    wire meip = irq_external & mie_meie_q;
    wire mtip = irq_timer & mie_mtie_q;
    assign irq_pending = mstatus_mie_q & (meip | mtip);
    // priority: external before timer
    assign irq_cause = {1'b1, {(XLEN-5){1'b0}}, meip ? 4'd11 : 4'd7};
endmodule
