// SPDX-License-Identifier: ISC
// Unit test of tile_ni's DMA engines (run by test_tile_dma.sh: verilator --binary --timing).
// The NI (2-D: 4 ports) is connected to a RAM of 1024 words read and written a line of L words
// at a time (L = 4: as the tile's node_ram, a line per access) and to a model of the
// router's channels: per port a 4-slot injection FIFO drained at random, and a source of
// flits (worms prepared by the test) offered at random. The RAM's data port is granted
// to the DMA at random; in the cycles it is not, a stand-in for the core reads a random
// RAM word (so the NI must take a read word exactly the cycle after its grant). A task
// plays the core's register accesses. Prints PASS name / FAIL name: why per check.
`timescale 1ns / 1ps
module tb_tile_ni_dma;
    localparam P = 4, W = 32, WORDS = 1024, AW = 10, QMAX = 1024;
    localparam [31:0] RAM_BASE = 32'h8000_0000;
    localparam RAM_BYTES = 4 * WORDS;

    reg clk = 1'b0;
    reg rst = 1'b1;
    always #5 clk = !clk;

    // ------------------------------------------------------------------ the NI
    reg         req_valid = 1'b0, req_write = 1'b0;
    reg  [11:0] req_offset = 12'd0;
    reg  [3:0]  req_wstrb = 4'hf;
    reg  [31:0] req_data = 32'd0;
    wire        req_ready, req_error, irq;
    wire [31:0] resp_data;
    localparam L = 4, LB = 2;
    wire        mem_req;
    wire [AW-LB-1:0] mem_line;
    wire [4*L-1:0]   mem_wstrb;
    wire [32*L-1:0]  mem_wdata;
    reg  [32*L-1:0]  ram_q;
    reg         grant_ok = 1'b0;
    wire        mem_grant = mem_req && grant_ok;
    wire [P-1:0] inj_valid, inj_last, ej_ready;
    wire [P*W-1:0] inj_data;
    reg  [P-1:0] inj_ready, ej_valid, ej_last;
    reg  [P*W-1:0] ej_data;
    reg  [P*3-1:0] bufs;   // buf_nonempty: network units (unused by the NI), then injection
    reg  [P*32-1:0] link_status = {32'h0003_0102, 32'h0000_0000, 32'hffff_0007, 32'h0011_2233};
    tile_ni #(.DIMS(2), .RAM_BASE(RAM_BASE), .RAM_BYTES(RAM_BYTES), .LINE_WORDS(L), .COMBINE(1)) dut (
        .clk(clk), .rst(rst),
        .my_coord(24'h000201), .dim_size(24'h010404), .torus(1'b1),
        .node_index(16'd9), .node_count(16'd16),
        .req_valid(req_valid), .req_ready(req_ready), .req_error(req_error),
        .req_offset(req_offset), .req_in_window(1'b1), .req_write(req_write),
        .req_wstrb(req_wstrb), .req_data(req_data), .resp_data(resp_data), .irq(irq),
        .mem_req(mem_req), .mem_line(mem_line), .mem_wstrb(mem_wstrb), .mem_wdata(mem_wdata),
        .mem_grant(mem_grant), .mem_rdata(ram_q),
        .inj_valid(inj_valid), .inj_ready(inj_ready), .inj_data(inj_data),
        .inj_last(inj_last), .inj_error({P{1'b0}}),
        .ej_valid(ej_valid), .ej_ready(ej_ready), .ej_data(ej_data), .ej_last(ej_last),
        .err_count(16'd0), .buf_nonempty(bufs), .link_status(link_status)
    );

    // the RAM: the NI's line access when granted, else now and then a "core" read of a random
    // line (so the NI must take a read line exactly the cycle after its grant)
    reg          core_rd = 1'b0;
    reg [AW-1:0] core_addr = {AW{1'b0}};
    reg [31:0]   ram_mem [0:WORDS-1];
    integer      kk;
    always @(posedge clk) begin
        if (mem_grant) begin
            for (kk = 0; kk < L; kk = kk + 1) begin
                ram_q[32 * kk +: 32] <= ram_mem[mem_line * L + kk];
                if (mem_wstrb[4 * kk]) ram_mem[mem_line * L + kk] <= mem_wdata[32 * kk +: 32];
            end
        end else if (core_rd)
            for (kk = 0; kk < L; kk = kk + 1) ram_q[32 * kk +: 32] <= ram_mem[(core_addr / L) * L + kk];
    end

    // ------------------------------------------------------------------ router model
    integer grant_pct = 60, drain_pct = 50, offer_pct = 60;
    integer errors = 0;
    // TX: what entered each injection FIFO, in order
    reg [31:0] sent      [0:P-1][0:QMAX-1];
    reg        sent_last [0:P-1][0:QMAX-1];
    integer    sent_n [0:P-1];
    integer    fifo_n [0:P-1];
    // RX: the flits each ejection channel offers, in order
    reg [31:0] src      [0:P-1][0:QMAX-1];
    reg        src_last [0:P-1][0:QMAX-1];
    integer    src_n [0:P-1];
    integer    src_rd [0:P-1];
    reg [P-1:0] offer = {P{1'b0}};
    integer p, k;

    initial begin
        for (p = 0; p < P; p = p + 1) begin
            sent_n[p] = 0; fifo_n[p] = 0; src_n[p] = 0; src_rd[p] = 0;
        end
    end

    // the channel signals change only at the negative edge (the model's state is updated
    // at the positive edge, after the NI sampled the channels)
    integer m, r, drained;
    always @(negedge clk) begin
        grant_ok <= $urandom % 100 < grant_pct;
        core_rd <= $urandom % 2 == 0;
        core_addr <= $urandom % WORDS;
        for (r = 0; r < P; r = r + 1) begin
            inj_ready[r] <= fifo_n[r] < 4;
            bufs[2 * P + r] <= fifo_n[r] != 0;
            offer[r] = $urandom % 100 < offer_pct;
            ej_valid[r] <= offer[r] && src_rd[r] < src_n[r];
            ej_data[r * W +: W] <= (offer[r] && src_rd[r] < src_n[r]) ? src[r][src_rd[r]] : 32'hxxxx_xxxx;
            ej_last[r] <= offer[r] && src_rd[r] < src_n[r] && src_last[r][src_rd[r]];
        end
        bufs[2 * P - 1:0] <= {2 * P{1'b0}};
    end

    always @(posedge clk) begin
        for (m = 0; m < P; m = m + 1) begin
            drained = (fifo_n[m] != 0 && $urandom % 100 < drain_pct) ? 1 : 0;
            if (inj_valid[m]) begin
                if (!inj_ready[m]) begin
                    if (errors < 10) $display("FAIL inj-protocol: port %0d pushed into a full queue", m);
                    errors = errors + 1;
                end
                sent[m][sent_n[m]] = inj_data[m * W +: W];
                sent_last[m][sent_n[m]] = inj_last[m];
                sent_n[m] = sent_n[m] + 1;
                fifo_n[m] = fifo_n[m] + 1;
            end
            fifo_n[m] = fifo_n[m] - drained;
            if (ej_ready[m]) begin
                if (!ej_valid[m]) begin
                    if (errors < 10) $display("FAIL ej-protocol: port %0d popped with nothing offered", m);
                    errors = errors + 1;
                end else
                    src_rd[m] = src_rd[m] + 1;
            end
        end
    end

    // ------------------------------------------------------------------ counters' model
    // (the event counters section below): every cycle, each of the 16 counters must equal the
    // model, which takes the core's COUNT and CNT_SUB writes as the bus offers them and the
    // worms the RX engines count (their inc pulses); an overflow is a count passing 0xffff
    reg  [15:0] m_cnt [0:15];
    reg  [15:0] m_tgt [0:15];
    reg         m_on [0:15];
    reg  [15:0] m_inc;
    reg         m_track = 1'b0, m_ovf = 1'b0;
    integer     mk, mq, m_bad = 0, m_counted = 0, m_same_cycle = 0;
    wire        m_wr = req_valid && req_ready && req_write && req_wstrb == 4'hf;
    always @(posedge clk) if (m_track) begin
        for (mk = 0; mk < 16; mk = mk + 1) begin
            if (dut.cnt[mk] !== m_cnt[mk]) begin
                if (m_bad < 5) $display("FAIL counters: counter %0d is 0x%04x, the model 0x%04x at %0t",
                                        mk, dut.cnt[mk], m_cnt[mk], $time);
                m_bad = m_bad + 1;
            end
            m_inc = 16'd0;
            for (mq = 0; mq <= P; mq = mq + 1)
                if (dut.r_inc[mq] && dut.r_inc_id[4 * mq +: 4] == mk[3:0]) m_inc = m_inc + 16'd1;
            m_counted = m_counted + m_inc;
            if ({1'b0, m_cnt[mk]} + {1'b0, m_inc} > 17'h0ffff) m_ovf = 1'b1;
            if (m_inc != 16'd0 && m_wr && (req_offset == 12'h080 + 4 * mk || req_offset == 12'h600 + 4 * mk))
                m_same_cycle = m_same_cycle + 1;
            if (m_wr && req_offset == 12'h080 + 4 * mk)
                m_cnt[mk] = req_data[15:0] + m_inc;
            else if (m_wr && req_offset == 12'h600 + 4 * mk)
                m_cnt[mk] = m_cnt[mk] - req_data[15:0] + m_inc;
            else
                m_cnt[mk] = m_cnt[mk] + m_inc;
            if (m_wr && req_offset == 12'h0c0 + 4 * mk) begin
                m_tgt[mk] = req_data[15:0];
                m_on[mk]  = req_data[31];
            end
        end
    end

    // ------------------------------------------------------------------ the core's accesses
    reg [31:0] q;
    reg        qerr;
    task bus(input wr, input [11:0] off, input [31:0] d, input [3:0] strb);
        begin
            @(negedge clk);
            req_valid = 1'b1; req_write = wr; req_offset = off; req_data = d; req_wstrb = strb;
            #1;
            while (!req_ready) begin
                @(negedge clk);
                #1;
            end
            qerr = req_error;
            @(posedge clk);
            #1;
            req_valid = 1'b0;
            q = resp_data;
        end
    endtask
    task wr(input [11:0] off, input [31:0] d);
        bus(1'b1, off, d, 4'hf);
    endtask
    task rd(input [11:0] off);
        bus(1'b0, off, 32'd0, 4'h0);
    endtask

    // register offsets
    function [11:0] TX_DATA(input integer pp); TX_DATA = 12'h100 + 12'h10 * pp[11:0]; endfunction
    function [11:0] TX_LAST(input integer pp); TX_LAST = 12'h104 + 12'h10 * pp[11:0]; endfunction
    function [11:0] RX_DATA(input integer pp); RX_DATA = 12'h108 + 12'h10 * pp[11:0]; endfunction
    function [11:0] PSTAT(input integer pp);   PSTAT   = 12'h10c + 12'h10 * pp[11:0]; endfunction
    function [11:0] TXA(input integer pp);     TXA     = 12'h800 + 12'h20 * pp[11:0]; endfunction
    function [11:0] TXC(input integer pp);     TXC     = 12'h804 + 12'h20 * pp[11:0]; endfunction
    function [11:0] RXA(input integer pp);     RXA     = 12'h808 + 12'h20 * pp[11:0]; endfunction
    function [11:0] RXC(input integer pp);     RXC     = 12'h80c + 12'h20 * pp[11:0]; endfunction
    localparam [11:0] VERSION = 12'h000, RX_AVAIL = 12'h014, TX_STATUS = 12'h018,
                      IRQ_ENABLE = 12'h024, IRQ_PENDING = 12'h028,
                      DMA_STATUS = 12'h02c, DMA_ERROR = 12'h030;

    function [31:0] pattern(input integer a);
        pattern = (a * 32'h9e3779b1) ^ 32'h5a5a_0000;
    endfunction

    integer fails = 0;
    task check(input ok, input [8*40-1:0] name, input [31:0] got, input [31:0] want);
        begin
            if (!ok) begin
                $display("FAIL %0s: got 0x%08x, want 0x%08x", name, got, want);
                fails = fails + 1;
            end
        end
    endtask

    task wait_idle(input [15:0] mask);
        integer n;
        begin
            n = 0;
            rd(DMA_STATUS);
            while ((q[15:0] & mask) != 16'd0 && n < 100000) begin
                rd(DMA_STATUS);
                n = n + 1;
            end
            check((q[15:0] & mask) == 16'd0, "engines never went idle", q, {16'd0, mask});
        end
    endtask

    // a worm of n payload words on RX source p: head, info, payload (the last flagged)
    task add_worm(input integer pp, input integer n, input [31:0] seed);
        integer i;
        begin
            src[pp][src_n[pp]] = 32'h1000_0000 | seed; src_last[pp][src_n[pp]] = 1'b0;
            src[pp][src_n[pp] + 1] = (n + 2) << 16;  src_last[pp][src_n[pp] + 1] = n == 0;
            for (i = 0; i < n; i = i + 1) begin
                src[pp][src_n[pp] + 2 + i] = pattern(seed * 1000 + i);
                src_last[pp][src_n[pp] + 2 + i] = i == n - 1;
            end
            src_n[pp] = src_n[pp] + 2 + n;
        end
    endtask

    // a signal worm of the plan protocol on RX source p: head, info (3 flits, source s), the
    // signal flit (kind 1) naming counter c
    task add_signal(input integer pp, input integer c, input [15:0] s);
        begin
            src[pp][src_n[pp]]     = 32'h1000_0000;       src_last[pp][src_n[pp]]     = 1'b0;
            src[pp][src_n[pp] + 1] = {16'd3, s};          src_last[pp][src_n[pp] + 1] = 1'b0;
            src[pp][src_n[pp] + 2] = 32'h1000_0000 | (c[3:0] << 18) | (($urandom % 16) << 22);
            src_last[pp][src_n[pp] + 2] = 1'b1;
            src_n[pp] = src_n[pp] + 3;
        end
    endtask
    // a combining put of kind k (2 sum, 3 and, 4 or, 5 xor, 6/7 signed min/max, 8/9 unsigned
    // min/max) of n words on RX source p, into window 1 at word `off`, counted on counter 3;
    // c_exp (the expected RAM words of the window) takes its words at once (every kind is
    // commutative and associative: the order the NI combines them in does not matter)
    reg [31:0] c_exp [0:63];
    task add_cput(input integer pp, input integer kind, input integer off, input integer n, input [31:0] seed);
        integer i;
        reg [31:0] w, a;
        begin
            src[pp][src_n[pp]]     = 32'h1000_0000;              src_last[pp][src_n[pp]]     = 1'b0;
            src[pp][src_n[pp] + 1] = {16'(n + 3), 16'(pp)};      src_last[pp][src_n[pp] + 1] = 1'b0;
            src[pp][src_n[pp] + 2] = {4'(kind), 6'd0, 4'd3, 2'd1, 16'(off)};
            src_last[pp][src_n[pp] + 2] = n == 0;
            for (i = 0; i < n; i = i + 1) begin
                w = pattern(seed * 100 + i) ^ (i[0] ? 32'h8000_0000 : 32'h0);
                a = c_exp[off + i];
                case (kind)
                    2: c_exp[off + i] = a + w;
                    3: c_exp[off + i] = a & w;
                    4: c_exp[off + i] = a | w;
                    5: c_exp[off + i] = a ^ w;
                    6: c_exp[off + i] = ($signed(a) < $signed(w)) ? a : w;
                    7: c_exp[off + i] = ($signed(a) > $signed(w)) ? a : w;
                    8: c_exp[off + i] = (a < w) ? a : w;
                    default: c_exp[off + i] = (a > w) ? a : w;
                endcase
                src[pp][src_n[pp] + 3 + i] = w;
                src_last[pp][src_n[pp] + 3 + i] = i == n - 1;
            end
            src_n[pp] = src_n[pp] + 3 + n;
        end
    endtask
    // all four RX sources drained, and a few cycles for the last counts
    task wait_drained;
        integer n, busy;
        begin
            n = 0;
            busy = 1;
            while (busy != 0 && n < 100000) begin
                @(posedge clk);
                busy = 0;
                for (p = 0; p < P; p = p + 1) if (src_rd[p] != src_n[p]) busy = 1;
                n = n + 1;
            end
            repeat (10) @(posedge clk);
        end
    endtask

    reg [31:0] snap [0:WORDS-1];
    integer i, n, base, t0, f0, ok;
    integer tx_n [0:P-1];
    integer rx_n [0:P-1];

    initial begin
        for (i = 0; i < WORDS; i = i + 1) ram_mem[i] = pattern(i);
        repeat (3) @(posedge clk);
        #1 rst = 1'b0;

        // ---------------------------------------------------------------- version, map
        f0 = fails;
        rd(VERSION);
        check(q == 32'h4e49_0003, "VERSION", q, 32'h4e49_0003);
        rd(DMA_STATUS);
        check(q == 32'd0, "DMA_STATUS after reset", q, 0);
        rd(TXA(3));
        check(q == RAM_BASE, "TX_DMA_ADDR after reset", q, RAM_BASE);
        bus(1'b1, TXC(0), 32'd1, 4'h1);
        check(qerr, "byte store to TX_DMA_COUNT does not fault", 0, 1);
        rd(TXA(P));
        check(!qerr, "local port P's DMA registers answer", 1, 0);
        rd(TXA(P + 1));
        check(qerr, "port > P does not fault", 0, 1);
        rd(12'h810);
        check(qerr, "offset 0x810 does not fault", 0, 1);
        rd(12'h04c);
        check(qerr, "offset 0x04c does not fault", 0, 1);
        rd(DMA_STATUS);
        check(q == 32'd0, "a faulting access had an effect", q, 0);
        if (fails == f0) $display("PASS dma-map");

        // ---------------------------------------------------------------- LINK_STATUS(p)
        // read-only, 0x700 + 4p: what the tile's surroundings count on port p's links
        f0 = fails;
        for (p = 0; p < P; p = p + 1) begin
            rd(12'h700 + 12'h4 * p[11:0]);
            check(!qerr && q == link_status[p * 32 +: 32], "LINK_STATUS(p)", q, link_status[p * 32 +: 32]);
        end
        link_status[32 +: 32] = 32'h0001_0001;    // the NI reads the inputs as they are now
        rd(12'h704);
        check(q == 32'h0001_0001, "LINK_STATUS(1) follows its input", q, 32'h0001_0001);
        rd(12'h700 + 12'h4 * P);
        check(qerr, "LINK_STATUS(P) (the local port) does not fault", 0, 1);
        rd(12'h740);
        check(qerr, "offset 0x740 does not fault", 0, 1);
        wr(12'h700, 32'd0);
        check(qerr, "a store to LINK_STATUS(0) does not fault", 0, 1);
        rd(12'h700);
        check(q == link_status[31:0], "a refused store changed LINK_STATUS(0)", q, link_status[31:0]);
        if (fails == f0) $display("PASS link-status");

        // ---------------------------------------------------------------- TX, 4 ports at once
        // port p: head by the core, tx_n[p] words by the engine; port 0 without the last
        // bit, then a last flit by the core (it must wait for the engine: order kept)
        f0 = fails;
        tx_n[0] = 37; tx_n[1] = 1; tx_n[2] = 200; tx_n[3] = 64;
        t0 = $time;
        for (p = 0; p < P; p = p + 1) begin
            wr(TX_DATA(p), 32'hbeef_0000 + p);
            wr(TXA(p), RAM_BASE + 4 * (100 + 200 * p));
            wr(TXC(p), tx_n[p] | (p == 0 ? 32'd0 : 32'h8000_0000));
        end
        rd(TX_STATUS);
        check((q & 32'h0c0c) == 0, "TX_STATUS shows busy ports ready or idle", q, 0);
        wr(TX_LAST(0), 32'hcafe_f00d);   // waits for engine 0
        rd(DMA_STATUS);
        check(q[0] == 1'b0, "TX_LAST did not wait for the engine", q, 0);
        wait_idle(16'h000f);
        for (p = 0; p < P; p = p + 1) begin
            n = tx_n[p] + 1 + (p == 0);
            check(sent_n[p] == n, "TX flits sent", sent_n[p], n);
            check(sent[p][0] == 32'hbeef_0000 + p && !sent_last[p][0], "TX head", sent[p][0], 32'hbeef_0000 + p);
            for (i = 0; i < tx_n[p]; i = i + 1) begin
                check(sent[p][1 + i] == pattern(100 + 200 * p + i), "TX word", sent[p][1 + i], pattern(100 + 200 * p + i));
                check(sent_last[p][1 + i] == (p != 0 && i == tx_n[p] - 1), "TX last flag", sent_last[p][1 + i], 0);
            end
            rd(TXA(p));
            check(q == RAM_BASE + 4 * (100 + 200 * p + tx_n[p]), "TX_DMA_ADDR advanced", q, RAM_BASE + 4 * (100 + 200 * p + tx_n[p]));
            rd(TXC(p));
            check(q == (p == 0 ? 32'd0 : 32'h8000_0000), "TX_DMA_COUNT at the end", q, 0);
        end
        check(sent[0][tx_n[0] + 1] == 32'hcafe_f00d && sent_last[0][tx_n[0] + 1], "TX_LAST after the DMA", sent[0][tx_n[0] + 1], 32'hcafe_f00d);
        if (fails == f0) $display("PASS dma-tx-4-ports (%0d words in %0d cycles)", 302, ($time - t0) / 10);

        // ---------------------------------------------------------------- RX, 4 ports at once
        // port 0: count = the worm; 1: count > worm (stops at its last flit); 2: count <
        // worm (the rest stays for the core); 3: a worm of 1 word, then another worm that
        // the core reads while the engine may still run (its load waits)
        f0 = fails;
        rx_n[0] = 120; rx_n[1] = 33; rx_n[2] = 50; rx_n[3] = 1;
        for (p = 0; p < P; p = p + 1) begin
            add_worm(p, rx_n[p], p + 1);
            add_worm(p, 2, p + 11);
        end
        for (i = 0; i < WORDS; i = i + 1) snap[i] = ram_mem[i];
        for (p = 0; p < P; p = p + 1) begin
            rd(RX_DATA(p));
            check(q == (32'h1000_0000 | (p + 1)), "RX head by the core", q, 32'h1000_0000 | (p + 1));
            rd(RX_DATA(p));
            check(q == (rx_n[p] + 2) << 16, "RX info by the core", q, (rx_n[p] + 2) << 16);
            wr(RXA(p), RAM_BASE + 4 * (10 + 250 * p));
            wr(RXC(p), p == 1 ? rx_n[p] + 5 : p == 2 ? rx_n[p] - 3 : rx_n[p]);
        end
        rd(RX_DATA(3));      // waits for engine 3, then pops the next worm's head
        check(q == (32'h1000_0000 | 14), "RX_DATA after the DMA: next worm's head", q, 32'h1000_0000 | 14);
        wait_idle(16'h0f00);
        rd(DMA_STATUS);
        check(q[23:16] == 8'b1011, "DMA_STATUS ended-at-last bits", q, 32'h000b_0000);
        for (p = 0; p < P; p = p + 1) begin
            n = p == 2 ? rx_n[p] - 3 : rx_n[p];
            for (i = 0; i < n; i = i + 1)
                check(ram_mem[10 + 250 * p + i] == pattern((p + 1) * 1000 + i), "RX word in RAM", ram_mem[10 + 250 * p + i], pattern((p + 1) * 1000 + i));
            rd(RXC(p));
            check(q == (p == 1 ? 5 : 0), "RX_DMA_COUNT left", q, p == 1 ? 5 : 0);
            rd(RXA(p));
            check(q == RAM_BASE + 4 * (10 + 250 * p + n), "RX_DMA_ADDR advanced", q, RAM_BASE + 4 * (10 + 250 * p + n));
        end
        for (i = 0; i < WORDS; i = i + 1) begin   // nothing else written
            ok = 1;
            for (p = 0; p < P; p = p + 1)
                if (i >= 10 + 250 * p && i < 10 + 250 * p + (p == 2 ? rx_n[p] - 3 : rx_n[p]))
                    ok = 0;
            if (ok) check(ram_mem[i] == snap[i], "RAM outside the RX buffers changed", i, 0);
        end
        offer_pct = 100;                           // status checks see every flit
        repeat (2) @(posedge clk);
        // port 2: the 3 words the engine left, by the core, the last one flagged
        for (i = 0; i < 3; i = i + 1) begin
            rd(PSTAT(2));
            check(q[0] && q[2] == (i == 2), "PORT_STATUS of the rest", q, 0);
            rd(RX_DATA(2));
            check(q == pattern(3000 + rx_n[2] - 3 + i), "RX rest by the core", q, pattern(3000 + rx_n[2] - 3 + i));
        end
        // the second worms: heads at the front (port 3's already read)
        rd(RX_AVAIL);
        check(q[19:16] == 4'b0111 && q[3:0] == 4'b1111, "RX_AVAIL heads", q, 32'h0007_000f);
        offer_pct = 60;
        for (p = 0; p < 3; p = p + 1) begin
            rd(RX_DATA(p));
            check(q == (32'h1000_0000 | (p + 11)), "second worm's head", q, 32'h1000_0000 | (p + 11));
        end
        for (p = 0; p < P; p = p + 1) begin     // the second worms' info + 2 words by DMA
            wr(RXA(p), RAM_BASE + 4 * (900 + 10 * p));
            wr(RXC(p), 3);
        end
        wait_idle(16'h0f00);
        rd(DMA_STATUS);
        check(q[23:16] == 8'b1111, "second worms ended at last", q, 32'h000f_0000);
        for (p = 0; p < P; p = p + 1)
            check(ram_mem[900 + 10 * p + 2] == pattern((p + 11) * 1000 + 1), "second worm's word", ram_mem[900 + 10 * p + 2], 0);
        rd(RX_AVAIL);
        check(q == 0, "RX queues empty", q, 0);
        if (fails == f0) $display("PASS dma-rx-4-ports");

        // ---------------------------------------------------------------- refused starts
        f0 = fails;
        for (i = 0; i < WORDS; i = i + 1) snap[i] = ram_mem[i];
        add_worm(1, 6, 21);
        for (p = 0; p < P; p = p + 1) begin
            k = sent_n[p];
            wr(TXA(p), p == 0 ? RAM_BASE + 2 : p == 1 ? RAM_BASE + RAM_BYTES : p == 2 ? 32'h0000_0000 : RAM_BASE - 4);
            rd(DMA_ERROR);
            check(q == (32'd1 << p), "a bad TX address sets its DMA_ERROR bit", q, 32'd1 << p);
            rd(DMA_STATUS);
            check(q[31], "DMA_STATUS[31]", q, 32'h8000_0000);
            wr(TXC(p), 4);                     // refused too: the address write was
            rd(DMA_STATUS);
            check(q[15:0] == 16'd0, "a start after a bad address ran", q, 0);
            wr(DMA_ERROR, 32'd1 << p);
            rd(DMA_ERROR);
            check(q == 0, "DMA_ERROR write-1-to-clear", q, 0);
            repeat (10) @(posedge clk);
            check(sent_n[p] == k, "a refused TX sent flits", sent_n[p], k);
        end
        // RX: outside the RAM, running past its end, misaligned
        wr(RXA(1), RAM_BASE + RAM_BYTES);
        wr(RXC(1), 8);
        wr(RXA(0), RAM_BASE + RAM_BYTES - 8);
        wr(RXC(0), 3);                         // 2 words fit, 3 do not
        wr(RXA(2), RAM_BASE + 5);
        wr(RXC(2), 1);
        rd(DMA_ERROR);
        check(q == 32'h0000_0700, "bad RX starts: DMA_ERROR", q, 32'h0000_0700);
        rd(DMA_STATUS);
        check(q[15:0] == 16'd0, "a bad RX start runs", q, 0);
        wr(DMA_ERROR, 32'h0000_0300);
        rd(DMA_ERROR);
        check(q == 32'h0000_0400, "DMA_ERROR clears only the bits written", q, 32'h0000_0400);
        wr(DMA_ERROR, 32'hffff_ffff);
        repeat (20) @(posedge clk);
        for (i = 0; i < WORDS; i = i + 1)
            check(ram_mem[i] == snap[i], "a refused RX wrote the RAM", i, 0);
        // the flits are still there: port 1's worm goes, 2 words at the RAM's end
        rd(RX_DATA(1));
        rd(RX_DATA(1));
        offer_pct = 0;                             // the engine waits for its flits
        repeat (2) @(posedge clk);
        wr(RXA(1), RAM_BASE + RAM_BYTES - 8);
        wr(RXC(1), 2);
        rd(DMA_ERROR);
        check(q == 0, "2 words up to the RAM's end refused", q, 0);
        // a start (or an address write) on a busy engine is refused and does not disturb it
        wr(RXC(1), 1);
        wr(RXA(1), RAM_BASE);
        rd(DMA_ERROR);
        check(q == 32'h0000_0200, "starting a busy engine not refused", q, 32'h0000_0200);
        offer_pct = 60;
        wait_idle(16'h0f00);
        check(ram_mem[WORDS - 2] == pattern(21000) && ram_mem[WORDS - 1] == pattern(21001), "the last 2 RAM words", ram_mem[WORDS - 1], pattern(21001));
        for (i = 0; i < WORDS - 2; i = i + 1)
            check(ram_mem[i] == snap[i], "RAM below the end changed", i, 0);
        rd(RXC(1));
        check(q == 0, "RX_DMA_COUNT after the refused restart", q, 0);
        wr(DMA_ERROR, 32'hffff_ffff);
        // drain the rest of the worm (4 words), then stop a waiting engine with count 0
        for (i = 0; i < 4; i = i + 1) rd(RX_DATA(1));
        wr(RXA(1), RAM_BASE + 4 * 500);
        wr(RXC(1), 10);                        // nothing arrives on port 1
        repeat (20) @(posedge clk);
        rd(DMA_STATUS);
        check(q[9], "RX engine waiting for flits is busy", q, 32'h200);
        wr(RXC(1), 0);                         // stop
        rd(DMA_STATUS);
        check(q[15:0] == 0, "count 0 stops the engine", q, 0);
        rd(DMA_ERROR);
        check(q == 0, "stopping is an error", q, 0);
        if (fails == f0) $display("PASS dma-refused");

        // ---------------------------------------------------------------- completion IRQ
        f0 = fails;
        wr(IRQ_ENABLE, 32'h0000_0400);          // TX engine 2 idle
        rd(IRQ_ENABLE);
        check(q == 32'h0000_0400, "IRQ_ENABLE reads back", q, 32'h0000_0400);
        @(negedge clk);
        check(irq, "idle TX engine 2 with its IRQ enabled", irq, 1);
        drain_pct = 2;                           // a slow network: the engine stays busy
        wr(TXA(2), RAM_BASE);
        wr(TXC(2), 30 | 32'h8000_0000);
        @(negedge clk);
        check(!irq, "irq while the engine runs", irq, 0);
        rd(IRQ_PENDING);
        check(q == 0, "IRQ_PENDING while the engine runs", q, 0);
        drain_pct = 50;
        wait_idle(16'h0004);
        @(negedge clk);
        check(irq, "no irq at completion", irq, 0);
        rd(IRQ_PENDING);
        check(q == 32'h0000_0400, "IRQ_PENDING at completion", q, 32'h0000_0400);
        wr(IRQ_ENABLE, 0);
        @(negedge clk);
        check(!irq, "irq after IRQ_ENABLE = 0", irq, 0);
        if (fails == f0) $display("PASS dma-irq");

        // ---------------------------------------------------------------- all 8 engines, long
        // every engine moves 200 words at once, with a starved RAM port (20% grants)
        f0 = fails;
        grant_pct = 20;
        for (p = 0; p < P; p = p + 1) begin
            sent_n[p] = 0;
            add_worm(p, 200, 40 + p);
            rd(RX_DATA(p));
            rd(RX_DATA(p));
        end
        for (i = 0; i < WORDS; i = i + 1) snap[i] = ram_mem[i];
        t0 = $time;
        for (p = 0; p < P; p = p + 1) begin
            wr(TXA(p), RAM_BASE + 4 * (200 * p));
            wr(TXC(p), 200 | 32'h8000_0000);
            wr(RXA(p), RAM_BASE + 4 * (200 * P + 50 * p));   // 50 words each, the rest
            wr(RXC(p), 50);                                 // by the core
        end
        wait_idle(16'h0f0f);
        for (p = 0; p < P; p = p + 1) begin
            check(sent_n[p] == 200 && sent_last[p][199] && !sent_last[p][198], "8 engines: TX", sent_n[p], 200);
            for (i = 0; i < 200; i = i + 1)
                check(sent[p][i] == snap[200 * p + i], "8 engines: TX word", sent[p][i], snap[200 * p + i]);
            for (i = 0; i < 50; i = i + 1)
                check(ram_mem[200 * P + 50 * p + i] == pattern((40 + p) * 1000 + i), "8 engines: RX", ram_mem[200 * P + 50 * p + i], 0);
            for (i = 50; i < 200; i = i + 1) begin
                rd(RX_DATA(p));
                check(q == pattern((40 + p) * 1000 + i), "8 engines: RX rest", q, 0);
            end
        end
        grant_pct = 60;
        if (fails == f0) $display("PASS dma-8-engines (%0d cycles for 4 x 200 TX and 4 x 50 RX words at 20%% grants)", ($time - t0) / 10);

        // ---------------------------------------------------------------- windows and lists
        // a window and a plan list must end inside the RAM (1,024 words here): up to its last
        // word they are taken, one word past it (or a count of 2**11 and more) refused with
        // PLAN_ERROR bit 25 (window) or 26 (list), the window then closed
        f0 = fails;
        wr(12'h040, 32'hffff_ffff);
        wr(12'h900, RAM_BASE + 4 * 1000);
        wr(12'h904, 24);
        rd(12'h904);
        check(q == 24, "window up to the RAM's end", q, 24);
        wr(12'h904, 25);
        rd(12'h904);
        check(q == 0, "window past the RAM's end stays closed", q, 0);
        rd(12'h040);
        check(q[25], "window past the RAM's end: PLAN_ERROR[25]", q, 32'h0200_0000);
        wr(12'h040, 32'hffff_ffff);
        wr(12'h904, 32'h0000_0800);
        rd(12'h040);
        check(q[25], "window of 2**11 words: PLAN_ERROR[25]", q, 32'h0200_0000);
        wr(12'h040, 32'hffff_ffff);
        wr(12'h904, 32'h7fff_fffc);
        rd(12'h040);
        check(q[25], "window of 2**31 - 4 words: PLAN_ERROR[25]", q, 32'h0200_0000);
        wr(12'h904, 32'd0);
        wr(12'h040, 32'hffff_ffff);
        wr(12'ha00, RAM_BASE + 4 * 1000);
        wr(12'ha04, 7);                              // 28 words from 1,000: past the end
        rd(12'h040);
        check(q[26], "plan list past the RAM's end: PLAN_ERROR[26]", q, 32'h0400_0000);
        wr(12'h040, 32'hffff_ffff);
        wr(12'ha04, 32'h0001_0000);                  // 65,536 descriptors
        rd(12'h040);
        check(q[26], "plan list of 65,536: PLAN_ERROR[26]", q, 32'h0400_0000);
        wr(12'h040, 32'hffff_ffff);
        wr(12'ha04, 6);                              // up to the end: taken, then stopped
        rd(12'h040);
        check(!q[26], "plan list up to the RAM's end refused", q, 0);
        wr(12'ha04, 0);
        repeat (20) @(posedge clk);
        wr(12'h040, 32'hffff_ffff);
        if (fails == f0) $display("PASS windows-and-lists");

        // ---------------------------------------------------------------- combining puts
        // G_LINE bit 24 says the NI combines. Window 1 is 64 words at 600 with known words;
        // for each of the 8 kinds, every port sends 3 combining puts into the same 8 words of
        // the window at once (whole lines, and 6 words from the second: part lines), with the
        // RAM port granted at random and the "core" reading between: every word of the
        // window must be its start value combined with every word put into it, and counter 3
        // must have counted every worm
        f0 = fails;
        rd(12'h048);
        check(q[24], "G_LINE[24]: combining puts", q, 32'h0100_0000);
        wr(12'h040, 32'hffff_ffff);
        wr(12'h908, RAM_BASE + 4 * 600);
        wr(12'h90c, 64);
        wr(12'h080 + 4 * 3, 0);
        for (i = 0; i < 64; i = i + 1) begin
            ram_mem[600 + i] = pattern(7000 + i) ^ (i[1] ? 32'h8000_0000 : 32'h0);
            c_exp[i] = ram_mem[600 + i];
        end
        wr(12'h038, 32'h0000_000f);                  // RX_MODE: ports 0-3 run plans
        for (k = 2; k <= 9; k = k + 1)
            for (p = 0; p < P; p = p + 1)
                for (i = 0; i < 3; i = i + 1)
                    if ((p + i) % 2 == 0) add_cput(p, k, 8 * (k - 2), 8, 1000 * k + 10 * p + i);
                    else add_cput(p, k, 8 * (k - 2) + 1, 6, 1000 * k + 10 * p + i);
        wait_drained;
        n = 0;
        rd(12'h03c);
        while (q[15:8] != 8'd0 && n < 1000) begin     // PLAN_STATUS: RX engines inside a worm
            rd(12'h03c);
            n = n + 1;
        end
        ok = 0;
        for (i = 0; i < 64; i = i + 1)
            if (ram_mem[600 + i] != c_exp[i]) begin
                if (ok < 4) check(0, "combined word", ram_mem[600 + i], c_exp[i]);
                ok = ok + 1;
            end
        check(ok == 0, "combined words wrong", ok, 0);
        rd(12'h080 + 4 * 3);
        check(q == 8 * P * 3, "combining puts counted", q, 8 * P * 3);
        rd(12'h040);
        check(q == 32'd0, "combining puts: no plan error", q, 0);
        // kind 10 is no kind: unexpected, drained, nothing combined
        for (i = 0; i < 64; i = i + 1) snap[600 + i] = ram_mem[600 + i];
        add_cput(2, 10, 0, 8, 77);
        wait_drained;
        rd(12'h040);
        check(q == 32'h0000_0400, "a put of kind 10: unexpected on port 2", q, 32'h0000_0400);
        ok = 0;
        for (i = 0; i < 8; i = i + 1) if (ram_mem[600 + i] != snap[600 + i]) ok = ok + 1;
        check(ok == 0, "a put of kind 10 changed the window", ok, 0);
        wr(12'h040, 32'hffff_ffff);
        wr(12'h038, 32'd0);
        wr(12'h90c, 0);
        if (fails == f0) $display("PASS combining-puts (8 kinds, 96 puts from 4 ports at once into the same words)");

        // ---------------------------------------------------------------- event counters
        // every port's RX engine in plan mode counts signal worms on random counters while
        // the core sets counters (near the top in odd rounds), subtracts from them and sets
        // targets, often in the very cycle a worm is counted on the same counter: the NI's 16
        // counters must follow the model above every cycle, PLAN_ERROR bit 24 (a counter
        // overflowed) must be set exactly in the rounds where a count passed 0xffff, and
        // PLAN_STATUS bit 16 must say whether every counter with a target on has reached it
        f0 = fails;
        for (i = 0; i < 16; i = i + 1) begin m_cnt[i] = dut.cnt[i]; m_tgt[i] = 16'd0; m_on[i] = 1'b0; end
        m_track = 1'b1;
        wr(12'h038, 32'h0000_000f);                  // RX_MODE: ports 0-3 run plans
        for (n = 0; n < 8; n = n + 1) begin
            wr(12'h040, 32'hffff_ffff);              // PLAN_ERROR cleared, nothing in flight
            m_ovf = 1'b0;
            for (p = 0; p < P; p = p + 1)
                for (i = 0; i < 40; i = i + 1) add_signal(p, ($urandom % 4) + 4 * ($urandom % 2), p * 100 + i);
            for (i = 0; i < 60; i = i + 1) begin
                k = $urandom % 8;
                case ($urandom % 4)
                    0: wr(12'h080 + 4 * k, n[0] ? 32'hfff0 + $urandom % 16 : $urandom % 32'h7000);
                    1: wr(12'h600 + 4 * k, $urandom % 5);
                    2: wr(12'h0c0 + 4 * k, {$urandom % 2 == 0, 15'd0, 16'($urandom)});
                    default: rd(12'h080 + 4 * k);
                endcase
            end
            wait_drained;
            rd(12'h040);
            check(q[24] == m_ovf, "counters: PLAN_ERROR[24] (overflow)", q, {7'd0, m_ovf, 24'd0});
            check(q[23:0] == 24'd0, "counters: no other plan error", q, 0);
            ok = 1;
            for (i = 0; i < 16; i = i + 1)
                if (m_on[i] && ((m_cnt[i] - m_tgt[i]) & 16'h8000) != 16'd0) ok = 0;
            rd(12'h03c);
            check(q[16] == ok[0], "counters: PLAN_STATUS[16] (targets met)", q, ok);
            for (i = 0; i < 16; i = i + 1) begin
                rd(12'h080 + 4 * i);
                check(q == {16'd0, m_cnt[i]}, "counters: COUNT read", q, {16'd0, m_cnt[i]});
            end
            if (n == 6) begin                    // every target off: met
                for (i = 0; i < 16; i = i + 1) wr(12'h0c0 + 4 * i, 32'd0);
                rd(12'h03c);
                check(q[16], "counters: targets met with none on", q, 32'h1_0000);
            end
        end
        // at the top exactly: 0xfffd and two worms (on two ports) is 0xffff, no overflow; one
        // more wraps to 0 and is one
        wr(12'h040, 32'hffff_ffff);
        wr(12'h080 + 4 * 9, 32'hfffd);
        add_signal(0, 9, 16'd1);
        add_signal(1, 9, 16'd2);
        wait_drained;
        rd(12'h080 + 4 * 9);
        check(q == 32'hffff, "counters: 0xfffd + 2", q, 32'hffff);
        rd(12'h040);
        check(q[24] == 1'b0, "counters: overflow at 0xffff", q, 0);
        add_signal(2, 9, 16'd3);
        wait_drained;
        rd(12'h080 + 4 * 9);
        check(q == 32'h0, "counters: 0xffff + 1", q, 32'h0);
        rd(12'h040);
        check(q[24] == 1'b1, "counters: no overflow past 0xffff", q, 32'h0100_0000);
        wr(12'h040, 32'hffff_ffff);
        wr(12'h038, 32'd0);
        m_track = 1'b0;
        check(m_bad == 0, "counters: counter differs from the model", m_bad, 0);
        check(m_counted == 8 * P * 40 + 3, "counters: worms counted", m_counted, 8 * P * 40 + 3);
        check(m_same_cycle > 0, "counters: no write met a count in its cycle", m_same_cycle, 1);
        if (fails == f0) $display("PASS counters (%0d worms counted, %0d in the cycle of a write to their counter)", m_counted, m_same_cycle);

        if (errors != 0) $display("FAIL dma-channel-protocol: %0d violations", errors);
        else $display("PASS dma-channel-protocol");
        $display("DONE %0d failed checks", fails + errors);
        $finish;
    end

    initial begin
        #50000000;
        $display("FAIL dma-timeout: the testbench did not finish");
        $finish;
    end
endmodule
