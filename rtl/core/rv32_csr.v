// SPDX-License-Identifier: ISC
// rv32_csr: the machine-mode control and status registers of the core.
//
// Implemented (anything else is reported as not existing, so the core traps it as an
// illegal instruction):
//   mstatus (MIE, MPIE; MPP reads 11), mstatush (0), misa (RV32IM, read-only), mie, mip,
//   mtvec (direct or vectored), mscratch, mepc, mcause, mtval,
//   mcycle/mcycleh, minstret/minstreth, mcountinhibit (0),
//   cycle/cycleh, time/timeh (alias of mcycle), instret/instreth (read-only),
//   mvendorid, marchid, mimpid (0), mhartid (hart_id input), mconfigptr (0).
// mcause keeps the interrupt bit and a 4-bit exception code (it is WLRL: every cause the
// core raises fits); other bits read 0.
// The read-only test (address bits 11:10 == 11) is done by the core.
//
// The address is decoded one stage early: the core presents the CSR field of the
// instruction in its decode stage (`dec_*`) and `dec_load` when that instruction moves on
// to execute; the CSR then selected drives csr_rdata (all zero for an instruction that is
// not a CSR access).
module rv32_csr #(
    parameter XLEN = 32,
    parameter DSP_COUNTERS = 0   // mcycle and minstret in DSP blocks (rv32_counter)
) (
    input  wire            clk,
    input  wire            rst,
    input  wire [XLEN-1:0] hart_id,
    // decode stage
    input  wire [11:0]     dec_addr,
    input  wire            dec_csr,      // the instruction is a CSR access
    input  wire            dec_load,     // it moves to execute at this clock edge
    output reg             dec_exists,   // dec_addr names an implemented CSR
    // execute stage: read is combinational, write is committed at the clock edge
    output wire [XLEN-1:0] csr_rdata,
    input  wire            csr_write,
    input  wire [XLEN-1:0] csr_wdata,
    // events from the pipeline
    input  wire            retire,       // an instruction completes this cycle
    input  wire            retire_cancel,// the one that completed last cycle did not retire
    output wire            instret_busy, // minstret has yet to count the last retire: an
                                         // access to minstret(h) must wait a cycle
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

    // one-hot selects of the CSRs that read non-zero
    localparam S_MSTATUS = 0, S_MISA = 1, S_MIE = 2, S_MIP = 3, S_MTVEC = 4, S_MSCRATCH = 5,
               S_MEPC = 6, S_MCAUSE = 7, S_MTVAL = 8, S_MCYCLE = 9, S_MCYCLEH = 10,
               S_MINSTRET = 11, S_MINSTRETH = 12, S_MHARTID = 13, NSEL = 14;

    reg [NSEL-1:0] dec_sel;
    always @(*) begin
        dec_sel    = {NSEL{1'b0}};
        dec_exists = 1'b1;
        case (dec_addr)
            A_MSTATUS:   dec_sel[S_MSTATUS]  = 1'b1;
            A_MISA:      dec_sel[S_MISA]     = 1'b1;
            A_MIE:       dec_sel[S_MIE]      = 1'b1;
            A_MIP:       dec_sel[S_MIP]      = 1'b1;
            A_MTVEC:     dec_sel[S_MTVEC]    = 1'b1;
            A_MSCRATCH:  dec_sel[S_MSCRATCH] = 1'b1;
            A_MEPC:      dec_sel[S_MEPC]     = 1'b1;
            A_MCAUSE:    dec_sel[S_MCAUSE]   = 1'b1;
            A_MTVAL:     dec_sel[S_MTVAL]    = 1'b1;
            A_MCYCLE, A_CYCLE, A_TIME:          dec_sel[S_MCYCLE]    = 1'b1;
            A_MCYCLEH, A_CYCLEH, A_TIMEH:       dec_sel[S_MCYCLEH]   = 1'b1;
            A_MINSTRET, A_INSTRET:              dec_sel[S_MINSTRET]  = 1'b1;
            A_MINSTRETH, A_INSTRETH:            dec_sel[S_MINSTRETH] = 1'b1;
            A_MHARTID:   dec_sel[S_MHARTID]  = 1'b1;
            A_MSTATUSH, A_MCOUNTINHIBIT, A_MVENDORID, A_MARCHID, A_MIMPID, A_MCONFIGPTR: ;
            default:     dec_exists = 1'b0;
        endcase
    end
    reg [NSEL-1:0] sel;
    always @(posedge clk) begin
        if (rst)
            sel <= {NSEL{1'b0}};
        else if (dec_load)
            sel <= dec_csr ? dec_sel : {NSEL{1'b0}};
    end

    reg            mstatus_mie_q, mstatus_mpie_q;
    reg            mie_meie_q, mie_mtie_q, mie_msie_q;
    reg [XLEN-1:0] mtvec_q, mscratch_q, mepc_q, mtval_q;
    reg            mcause_int_q;     // mcause bit XLEN-1
    reg [3:0]      mcause_code_q;    // mcause bits 3:0
    wire [63:0]    mcycle_q, minstret_q;
    reg            retire_q;         // an instruction retired last cycle: minstret + 1

    wire [XLEN-1:0] mstatus_value = {{(XLEN-13){1'b0}}, 2'b11, 3'b000, mstatus_mpie_q,
                                     3'b000, mstatus_mie_q, 3'b000};
    wire [XLEN-1:0] mie_value = {{(XLEN-12){1'b0}}, mie_meie_q, 3'b000, mie_mtie_q, 3'b000,
                                 mie_msie_q, 3'b000};
    wire [XLEN-1:0] mip_value = {{(XLEN-12){1'b0}}, irq_external, 3'b000, irq_timer, 7'b0};
    wire [XLEN-1:0] mcause_value = {mcause_int_q, {(XLEN-5){1'b0}}, mcause_code_q};

    assign csr_rdata = ({XLEN{sel[S_MSTATUS]}}   & mstatus_value) |
                       ({XLEN{sel[S_MISA]}}      & MISA_VALUE) |
                       ({XLEN{sel[S_MIE]}}       & mie_value) |
                       ({XLEN{sel[S_MIP]}}       & mip_value) |
                       ({XLEN{sel[S_MTVEC]}}     & mtvec_q) |
                       ({XLEN{sel[S_MSCRATCH]}}  & mscratch_q) |
                       ({XLEN{sel[S_MEPC]}}      & mepc_q) |
                       ({XLEN{sel[S_MCAUSE]}}    & mcause_value) |
                       ({XLEN{sel[S_MTVAL]}}     & mtval_q) |
                       ({XLEN{sel[S_MCYCLE]}}    & mcycle_q[31:0]) |
                       ({XLEN{sel[S_MCYCLEH]}}   & mcycle_q[63:32]) |
                       ({XLEN{sel[S_MINSTRET]}}  & minstret_q[31:0]) |
                       ({XLEN{sel[S_MINSTRETH]}} & minstret_q[63:32]) |
                       ({XLEN{sel[S_MHARTID]}}   & hart_id);

    wire wr_mcycle    = csr_write && sel[S_MCYCLE];
    wire wr_mcycleh   = csr_write && sel[S_MCYCLEH];
    wire wr_minstret  = csr_write && sel[S_MINSTRET];
    wire wr_minstreth = csr_write && sel[S_MINSTRETH];
    // mcycle counts every cycle; a write replaces the half it names. minstret: +1 the
    // cycle after an instruction retires (retire_q: the retire signal is late in the
    // cycle); a write replaces the half it names and is instead of the writing
    // instruction's own count (the other half keeps its value: no count is pending then,
    // as an access waits while one is, instret_busy).
    rv32_counter #(.DSP(DSP_COUNTERS)) mcycle (
        .clk(clk), .rst(rst), .inc(1'b1), .wr_lo(wr_mcycle), .wr_hi(wr_mcycleh),
        .wdata(csr_wdata), .value(mcycle_q)
    );
    rv32_counter #(.DSP(DSP_COUNTERS)) minstret (
        .clk(clk), .rst(rst), .inc(retire_q && !retire_cancel), .wr_lo(wr_minstret),
        .wr_hi(wr_minstreth), .wdata(csr_wdata), .value(minstret_q)
    );
    assign instret_busy = retire_q && (sel[S_MINSTRET] || sel[S_MINSTRETH]);

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
            mcause_int_q   <= 1'b0;
            mcause_code_q  <= 4'd0;
            mtval_q        <= {XLEN{1'b0}};
            retire_q       <= 1'b0;
        end else begin
            retire_q <= retire && !wr_minstret && !wr_minstreth;
            if (trap_take) begin
                mepc_q         <= trap_pc;
                mcause_int_q   <= trap_cause[XLEN-1];
                mcause_code_q  <= trap_cause[3:0];
                mtval_q        <= trap_tval;
                mstatus_mpie_q <= mstatus_mie_q;
                mstatus_mie_q  <= 1'b0;
            end else if (mret_take) begin
                mstatus_mie_q  <= mstatus_mpie_q;
                mstatus_mpie_q <= 1'b1;
            end else if (csr_write) begin
                if (sel[S_MSTATUS]) begin
                    mstatus_mie_q  <= csr_wdata[3];
                    mstatus_mpie_q <= csr_wdata[7];
                end
                if (sel[S_MIE]) begin
                    mie_meie_q <= csr_wdata[11];
                    mie_mtie_q <= csr_wdata[7];
                    mie_msie_q <= csr_wdata[3];
                end
                // mode 0 (direct) and 1 (vectored, base 64-byte aligned: bits 5:2 read
                // 0); the reserved modes read as direct
                if (sel[S_MTVEC])
                    mtvec_q <= {csr_wdata[XLEN-1:6],
                                csr_wdata[1:0] == 2'b01 ? 4'b0000 : csr_wdata[5:2],
                                1'b0, csr_wdata[1:0] == 2'b01};
                if (sel[S_MSCRATCH])
                    mscratch_q <= csr_wdata;
                if (sel[S_MEPC])
                    mepc_q <= {csr_wdata[XLEN-1:2], 2'b00};
                if (sel[S_MCAUSE]) begin
                    mcause_int_q  <= csr_wdata[XLEN-1];
                    mcause_code_q <= csr_wdata[3:0];
                end
                if (sel[S_MTVAL])
                    mtval_q <= csr_wdata;
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
