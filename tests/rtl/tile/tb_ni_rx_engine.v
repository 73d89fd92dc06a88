// SPDX-License-Identifier: ISC
// Unit test of ni_rx_engine's plan mode (run by test_ni_rx_engine.sh: verilator --binary
// --timing). A bench (ni_rx_bench) holds one engine, an ejection channel fed from a queue of
// flits the test pushes (ej_valid withheld at random in some checks; ej_data/ej_last are
// garbage while ej_valid is low), a RAM model that applies a granted line write's word mask
// in the cycle of the grant (the grant withheld at random in some checks), and records of
// every line write, every inc_valid pulse and every err_valid pulse with their cycles.
// After each check the whole RAM is compared with the expected image (a background pattern
// plus the payloads that must land), and per worm:
//   - every line write belongs to one worm's payload range and its mask sets no word
//     outside it; a put writes each line it touches exactly once;
//   - a put without the lines bit (put flit bit 26): exactly one inc on its counter, in the
//     cycle after the grant of its last line; a put with it: one inc per line written, each
//     in the cycle after the grant of its line; a put with no payload (either) and a signal:
//     exactly one inc, after every earlier worm's writes;
//   - refused worms: the err_valid pulses in order with their kind and source, nothing of
//     them written, nothing counted, every flit drained (and the next worm still taken);
//   - malformed puts: their words inside the window, the rest drained; at most lines-1 incs:
//     by lines exactly lines-1 (the lines written before the error was seen stay counted;
//     the line that holds the last word taken is not), plain none;
//   - no ej_pop while ej_valid is low; every flit popped at the end.
// Checks: plain-* / lines-* (aligned and 2 words into a line, 2L+5 words; a window whose base
// is not on a line; one word), *-empty, mixed-back-to-back, signal, refused (signal with the
// lines bit, bit 27, another epoch, outside the window, a closed window, an empty put for a
// closed window, kind 2 without COMBINE or 10 with it, one-, two- and three-flit worms),
// combining-kind-2 .. 9 (COMBINE: written and counted as a put, every line with its kind in
// m_op; the 4- and 16-word benches), malformed-* (short, long),
// next-epoch (waits unpopped until EPOCH moves on; also across 15 -> 0); all of them again as
// stalls-* (random grants and ej_valid gaps); random (12 rounds of 6 mixed worms under random
// grants and gaps). empty-put-closed-window expects what rtl/tile/README.md says ("a window
// closed" is unexpected); on 2026-11-26 the engine takes a put without payload for a closed
// window (0 words fit in 0) and counts it, so that check fails.
// +verbose prints every failed comparison, +trace the ports cycle by cycle.
// Three benches, AW 10: 4-word, 1-word (COMBINE = 0, the board's) and 16-word lines. Each check prints
// "PASS <bench> <name>" or "FAIL <bench> <name>: <why>"; the end "DONE <n> failed checks".
`timescale 1ns / 1ps

module ni_rx_bench #(
    parameter AW = 10,
    parameter L  = 4,
    parameter COMBINE = 1,          // the engine takes combining puts (kinds 2-9)
    parameter string TAG = "L4"
) (
    input  wire        clk,
    input  wire        go,
    output reg         finished,
    output reg [31:0]  nfail
);
    localparam LB = (L <= 1) ? 0 : $clog2(L);
    localparam integer WORDS = 1 << AW;
    localparam integer QN = 16384;          // the channel's queue (circular)
    localparam integer RMAX = 4096;         // records per check

    // ------------------------------------------------------------------ the engine
    reg                 rst = 1'b1;
    reg                 plan_mode = 1'b0;
    reg  [4*AW-1:0]     win_base = {(4*AW){1'b0}};
    reg  [4*(AW+1)-1:0] win_words = {(4*(AW+1)){1'b0}};
    reg  [3:0]          epoch = 4'd5;
    wire                raw_busy, raw_end_last;
    wire [AW:0]         raw_left;
    wire [AW-1:0]       raw_next;
    wire                plan_busy, inc_valid, err_valid;
    wire [3:0]          inc_id;
    wire [1:0]          err_kind;
    wire [15:0]         err_src;
    wire                ej_pop, m_req;
    wire [AW-LB-1:0]    m_line;
    wire [L-1:0]        m_wmask;
    wire [32*L-1:0]     m_wdata;
    reg                 grant_ok = 1'b1, gap_ok = 1'b1;
    reg                 rand_grant = 1'b0, rand_gap = 1'b0;
    reg                 flush = 1'b0;
    wire                m_grant = m_req && grant_ok;
    // the channel: flits q_rd .. q_n-1 of the queue
    reg  [31:0]         q_data [0:QN-1];
    reg                 q_last [0:QN-1];
    integer             q_n = 0, q_rd = 0;
    // the front flit is kept in registers of its own (Verilator 5.006 does not re-evaluate
    // an assign reading q_data[q_rd] when the test writes that element)
    reg  [31:0]         q_front = 32'd0;
    reg                 q_front_last = 1'b0;
    wire                ej_valid = (q_rd < q_n) && gap_ok;
    wire [31:0]         ej_data = ej_valid ? q_front : 32'hdead_beef;
    wire                ej_last = ej_valid ? q_front_last : 1'b1;

    wire [3:0]          m_op;
    reg  [3:0]          op_want = 4'd0;      // every line written must carry this m_op
    integer             op_bad = 0;
    always @(posedge clk) if (m_grant && m_op != op_want) op_bad = op_bad + 1;
    ni_rx_engine #(.AW(AW), .LINE_WORDS(L), .COMBINE(COMBINE)) dut (
        .clk(clk), .rst(rst),
        .raw_start(1'b0), .raw_addr({AW{1'b0}}), .raw_count({(AW+1){1'b0}}), .raw_stop(1'b0),
        .raw_busy(raw_busy), .raw_left(raw_left), .raw_next(raw_next), .raw_end_last(raw_end_last),
        .plan_mode(plan_mode), .win_base(win_base), .win_words(win_words), .epoch(epoch),
        .plan_busy(plan_busy), .inc_valid(inc_valid), .inc_id(inc_id),
        .err_valid(err_valid), .err_kind(err_kind), .err_src(err_src),
        .ej_valid(ej_valid), .ej_data(ej_data), .ej_last(ej_last), .ej_pop(ej_pop),
        .m_req(m_req), .m_line(m_line), .m_wmask(m_wmask), .m_wdata(m_wdata), .m_op(m_op),
        .m_grant(m_grant)
    );

    // ------------------------------------------------------------------ RAM and records
    reg  [31:0] ram     [0:WORDS-1];
    reg  [31:0] exp_ram [0:WORDS-1];
    integer     cyc = 0;
    integer     wr_line [0:RMAX-1];
    reg [L-1:0] wr_mask [0:RMAX-1];
    integer     wr_cyc  [0:RMAX-1];
    integer     wr_n = 0;
    integer     in_id   [0:RMAX-1];
    integer     in_cyc  [0:RMAX-1];
    integer     inc_n = 0;
    integer     er_kind [0:RMAX-1];
    integer     er_src  [0:RMAX-1];
    integer     er_cyc  [0:RMAX-1];
    integer     er_n = 0;
    integer     bad_pop = 0;
    integer     k;

    always @(posedge clk) begin
        if (!rst) begin
            if (m_grant) begin
                for (k = 0; k < L; k = k + 1)
                    if (m_wmask[k]) ram[(m_line * L + k) % WORDS] = m_wdata[32 * k +: 32];
                if (wr_n < RMAX) begin
                    wr_line[wr_n] = m_line; wr_mask[wr_n] = m_wmask; wr_cyc[wr_n] = cyc;
                end
                wr_n = wr_n + 1;
            end
            if (inc_valid) begin
                if (inc_n < RMAX) begin in_id[inc_n] = inc_id; in_cyc[inc_n] = cyc; end
                inc_n = inc_n + 1;
            end
            if (err_valid) begin
                if (er_n < RMAX) begin
                    er_kind[er_n] = {30'd0, err_kind}; er_src[er_n] = {16'd0, err_src}; er_cyc[er_n] = cyc;
                end
                er_n = er_n + 1;
            end
            if (ej_pop && !ej_valid) bad_pop = bad_pop + 1;
        end
        if (flush) q_rd <= q_n;
        else if (ej_pop && ej_valid) begin
            q_rd         <= q_rd + 1;
            q_front      <= q_data[(q_rd + 1) % QN];
            q_front_last <= q_last[(q_rd + 1) % QN];
        end
        cyc = cyc + 1;
    end
    // +trace: the channel, the RAM port and the pulses, cycle by cycle
    always @(posedge clk)
        if ($test$plusargs("trace") && !rst && (ej_valid || m_req || inc_valid || err_valid || plan_busy))
            $display("  %s cycle %0d: ej %0d %08x last %0d pop %0d | req %0d line %0d mask %0x grant %0d | inc %0d id %0d | err %0d kind %0d",
                     TAG, cyc, ej_valid, ej_data, ej_last, ej_pop, m_req, m_line, m_wmask, m_grant,
                     inc_valid, inc_id, err_valid, err_kind);
    always @(negedge clk) begin
        grant_ok <= rand_grant ? ($urandom % 100 < 40) : 1'b1;
        gap_ok   <= rand_gap ? ($urandom % 100 < 60) : 1'b1;
    end

    // ------------------------------------------------------------------ checks
    string  cname, cwhy;
    integer cbad;
    task automatic begin_check(input string n);
        cname = n; cwhy = ""; cbad = 0;
    endtask
    task automatic flag(input string w);
        if ($test$plusargs("verbose")) $display("  %s %s: %s", TAG, cname, w);
        if (cbad == 0) cwhy = w;
        cbad = cbad + 1;
    endtask
    task automatic end_check(input string extra);
        if (cbad == 0) $display("PASS %s %s%s", TAG, cname, extra);
        else begin
            if (cbad > 1) $display("FAIL %s %s: %s (and %0d more)", TAG, cname, cwhy, cbad - 1);
            else $display("FAIL %s %s: %s", TAG, cname, cwhy);
            nfail = nfail + 1;
        end
    endtask

    // ------------------------------------------------------------------ worms
    // the windows: 0 line-aligned, 1 based 3 words past a line start (for L = 4, 16), 2, 3 closed
    integer wb [0:3];
    integer wn [0:3];
    localparam integer NWM = 16;
    integer nw = 0;                 // worms of this check
    integer w_type  [0:NWM-1];      // 0 put, 1 put by lines, 2 signal, 3 refused, 4/5 malformed put (5: by lines)
    integer w_cnt   [0:NWM-1];      // its counter (-1: none)
    integer w_first [0:NWM-1];      // word index of its first payload word
    integer w_words [0:NWM-1];      // payload words it leaves in RAM
    integer ne = 0;                 // the errors expected, in order
    integer e_kind  [0:NWM-1];
    integer e_src   [0:NWM-1];
    integer sw [0:RMAX-1];          // scratch: a worm's writes
    integer sp [0:RMAX-1];          // scratch: its pulses
    integer seed = 1;
    string  note;                   // what a check reports on its PASS line

    function automatic [31:0] pat(input integer a, input integer s);
        pat = (a * 32'h9e37_79b1) ^ (s * 32'h0101_0101) ^ 32'h5a5a_0000;
    endfunction
    function automatic [31:0] put_flit(input integer kind, input integer rsv, input integer lines,
                                       input integer ep, input integer cnt, input integer win,
                                       input integer off);
        put_flit = {kind[3:0], rsv[0], lines[0], ep[3:0], cnt[3:0], win[1:0], off[15:0]};
    endfunction
    function automatic integer lines_of(input integer first, input integer words);
        lines_of = words == 0 ? 0 : (first + words - 1) / L - first / L + 1;
    endfunction
    task automatic push(input [31:0] d, input l);
        q_data[q_n % QN] = d;
        q_last[q_n % QN] = l;
        if (q_n == q_rd) begin q_front = d; q_front_last = l; end
        q_n = q_n + 1;
    endtask
    function automatic [15:0] src_of(input integer w);
        src_of = 16'h0100 + 16 * seed + w;
    endfunction
    // a worm: head, info {info_len, src}, the put flit, `come` payload words; the first
    // `keep` of them expected in RAM from word `first` on
    task automatic send(input integer info_len, input [31:0] put, input integer come,
                        input integer first, input integer keep);
        integer j;
        reg [31:0] d;
        push({16'hc0de, nw[15:0]}, 1'b0);
        push({info_len[15:0], src_of(nw)}, 1'b0);
        push(put, come == 0);
        for (j = 0; j < come; j = j + 1) begin
            d = pat(first + j, seed + 77);
            push(d, j == come - 1);
            if (j < keep) exp_ram[first + j] = d;
        end
    endtask
    task automatic put_ep(input integer win, input integer off, input integer cnt, input integer words,
                          input integer lines, input integer ep);
        put_kind(0, win, off, cnt, words, lines, ep);
    endtask
    // a put of kind k (0, or 2-9: combining; the bench's RAM writes its words as they come)
    task automatic put_kind(input integer k, input integer win, input integer off, input integer cnt,
                            input integer words, input integer lines, input integer ep);
        w_type[nw] = lines; w_cnt[nw] = cnt; w_first[nw] = wb[win] + off; w_words[nw] = words;
        send(3 + words, put_flit(k, 0, lines, ep, cnt, win, off), words, wb[win] + off, words);
        nw = nw + 1;
    endtask
    task automatic good_put(input integer win, input integer off, input integer cnt, input integer words,
                            input integer lines);
        put_ep(win, off, cnt, words, lines, epoch);
    endtask
    task automatic good_signal(input integer cnt, input integer ep);
        w_type[nw] = 2; w_cnt[nw] = cnt; w_first[nw] = 0; w_words[nw] = 0;
        send(3, put_flit(1, 0, 0, ep, cnt, 0, 0), 0, 0, 0);
        nw = nw + 1;
    endtask
    // a refused worm (nothing of it written or counted): err_valid with `kind`
    task automatic bad_worm(input integer info_len, input [31:0] put, input integer come, input integer kind);
        w_type[nw] = 3; w_cnt[nw] = put[21:18]; w_first[nw] = 0; w_words[nw] = 0;
        e_kind[ne] = kind; e_src[ne] = src_of(nw); ne = ne + 1;
        send(info_len, put, come, 0, 0);
        nw = nw + 1;
    endtask
    // a put whose info flit says `declared` payload words, `come` of them coming
    task automatic malformed_put(input integer win, input integer off, input integer cnt,
                                 input integer declared, input integer come, input integer lines);
        w_type[nw] = 4 + lines; w_cnt[nw] = cnt; w_first[nw] = wb[win] + off;
        w_words[nw] = come < declared ? come : declared;
        e_kind[ne] = 2; e_src[ne] = src_of(nw); ne = ne + 1;
        send(3 + declared, put_flit(0, 0, lines, epoch, cnt, win, off), come, wb[win] + off, w_words[nw]);
        nw = nw + 1;
    endtask

    task automatic clear_records;
        integer j;
        wr_n = 0; inc_n = 0; er_n = 0; bad_pop = 0; nw = 0; ne = 0; note = "";
        seed = seed + 1;
        for (j = 0; j < WORDS; j = j + 1) begin
            ram[j] = pat(j, seed);
            exp_ram[j] = ram[j];
        end
    endtask
    task automatic wait_idle(input integer maxc);
        integer t;
        t = 0;
        while ((q_rd < q_n || plan_busy || m_req) && t < maxc) begin @(negedge clk); t = t + 1; end
        if (q_rd < q_n || plan_busy || m_req) begin
            flag($sformatf("still busy after %0d cycles (%0d flits not popped, plan_busy %0d, m_req %0d)",
                           maxc, q_n - q_rd, plan_busy, m_req));
            // reset the engine and empty the channel, for the next check
            rst = 1'b1; flush = 1'b1;
            repeat (2) @(negedge clk);
            rst = 1'b0; flush = 1'b0;
        end
        repeat (4) @(negedge clk);
    endtask

    // everything recorded agrees with the worms of the check
    task automatic check_worms;
        integer w, v, i, j, n, np, lines, prev_wr, a, bad, found;
        bad = 0;
        for (j = 0; j < WORDS; j = j + 1)
            if (ram[j] !== exp_ram[j]) begin
                if (bad < 3) flag($sformatf("RAM word %0d: %08x, expected %08x", j, ram[j], exp_ram[j]));
                bad = bad + 1;
            end
        if (bad > 3) flag($sformatf("%0d RAM words wrong in all", bad));
        if (wr_n > RMAX || inc_n > RMAX) flag("too many records");
        if (bad_pop != 0) flag($sformatf("ej_pop high in %0d cycles with ej_valid low", bad_pop));
        if (q_rd != q_n) flag($sformatf("%0d flits not popped", q_n - q_rd));
        // every write inside one worm's payload range
        for (i = 0; i < wr_n && i < RMAX; i = i + 1) begin
            found = -1;
            for (w = 0; w < nw; w = w + 1)
                if (w_words[w] > 0 && wr_line[i] * L < w_first[w] + w_words[w] &&
                        wr_line[i] * L + L > w_first[w]) found = w;
            if (found < 0)
                flag($sformatf("line %0d (mask %0x) written at cycle %0d: no payload of this check is there",
                               wr_line[i], wr_mask[i], wr_cyc[i]));
            else
                for (j = 0; j < L; j = j + 1) begin
                    a = wr_line[i] * L + j;
                    if (wr_mask[i][j] && (a < w_first[found] || a >= w_first[found] + w_words[found]))
                        flag($sformatf("word %0d written at cycle %0d, outside worm %0d's words %0d..%0d",
                                       a, wr_cyc[i], found, w_first[found], w_first[found] + w_words[found] - 1));
                end
        end
        // every pulse on a counter of a worm of the check
        for (i = 0; i < inc_n && i < RMAX; i = i + 1) begin
            found = 0;
            for (w = 0; w < nw; w = w + 1) if (w_cnt[w] == in_id[i]) found = 1;
            if (!found) flag($sformatf("inc on counter %0d at cycle %0d: no worm names it", in_id[i], in_cyc[i]));
        end
        // per worm
        prev_wr = -1;
        for (w = 0; w < nw; w = w + 1) begin
            n = 0;
            for (i = 0; i < wr_n && i < RMAX; i = i + 1)
                if (w_words[w] > 0 && wr_line[i] * L < w_first[w] + w_words[w] &&
                        wr_line[i] * L + L > w_first[w]) begin sw[n] = i; n = n + 1; end
            np = 0;
            for (i = 0; i < inc_n && i < RMAX; i = i + 1)
                if (in_id[i] == w_cnt[w]) begin sp[np] = i; np = np + 1; end
            lines = lines_of(w_first[w], w_words[w]);
            case (w_type[w])
                0, 1: begin
                    if (n != lines)
                        flag($sformatf("worm %0d: %0d line writes, expected %0d (words %0d..%0d)",
                                       w, n, lines, w_first[w], w_first[w] + w_words[w] - 1));
                    if (w_words[w] == 0 || w_type[w] == 0) begin
                        if (np != 1)
                            flag($sformatf("worm %0d (%s, %0d words): %0d incs on counter %0d, expected 1",
                                           w, w_type[w] == 1 ? "by lines" : "plain", w_words[w], np, w_cnt[w]));
                        else if (w_words[w] == 0 && in_cyc[sp[0]] <= prev_wr)
                            flag($sformatf("worm %0d (no payload): inc at cycle %0d, an earlier worm's write at %0d",
                                           w, in_cyc[sp[0]], prev_wr));
                        else if (w_words[w] > 0 && n > 0 && in_cyc[sp[0]] != wr_cyc[sw[n - 1]] + 1)
                            flag($sformatf("worm %0d: inc at cycle %0d, its last line granted at cycle %0d",
                                           w, in_cyc[sp[0]], wr_cyc[sw[n - 1]]));
                    end else begin
                        if (np != lines)
                            flag($sformatf("worm %0d (by lines, words %0d..%0d): %0d incs on counter %0d, expected %0d",
                                           w, w_first[w], w_first[w] + w_words[w] - 1, np, w_cnt[w], lines));
                        for (j = 0; j < np && j < n; j = j + 1)
                            if (in_cyc[sp[j]] != wr_cyc[sw[j]] + 1)
                                flag($sformatf("worm %0d: inc %0d at cycle %0d, line %0d of it granted at cycle %0d",
                                               w, j, in_cyc[sp[j]], j, wr_cyc[sw[j]]));
                    end
                end
                2: begin
                    if (np != 1) flag($sformatf("signal %0d: %0d incs on counter %0d, expected 1", w, np, w_cnt[w]));
                    else if (in_cyc[sp[0]] <= prev_wr)
                        flag($sformatf("signal %0d: inc at cycle %0d, an earlier worm's write at %0d",
                                       w, in_cyc[sp[0]], prev_wr));
                end
                3: if (np != 0) flag($sformatf("refused worm %0d: %0d incs on counter %0d", w, np, w_cnt[w]));
                default: begin
                    // malformed: at most lines-1 incs. By lines, the lines written before the
                    // error was seen stay counted (ni_rx_engine's header): every line but the
                    // one that holds the last word taken, so exactly lines-1; plain: none
                    if (np > (lines > 0 ? lines - 1 : 0))
                        flag($sformatf("malformed worm %0d: %0d incs for %0d lines written", w, np, lines));
                    else if (np != (w_type[w] == 5 && lines > 0 ? lines - 1 : 0))
                        flag($sformatf("malformed worm %0d (%s): %0d incs for %0d lines written, expected %0d",
                                       w, w_type[w] == 5 ? "by lines" : "plain", np, lines,
                                       w_type[w] == 5 && lines > 0 ? lines - 1 : 0));
                    for (j = 0; j < np && j < n; j = j + 1)
                        if (in_cyc[sp[j]] != wr_cyc[sw[j]] + 1)
                            flag($sformatf("malformed worm %0d: inc %0d at cycle %0d, line %0d granted at cycle %0d",
                                           w, j, in_cyc[sp[j]], j, wr_cyc[sw[j]]));
                    note = {note, $sformatf(" (%0d words of it in RAM, %0d lines, %0d counted)",
                                            w_words[w], lines, np)};
                end
            endcase
            if (w_type[w] == 1 && w_words[w] > 0)
                note = {note, $sformatf(" (%0d incs for %0d lines)", np, lines)};
            for (j = 0; j < n; j = j + 1) if (wr_cyc[sw[j]] > prev_wr) prev_wr = wr_cyc[sw[j]];
        end
        // the errors, in order
        if (er_n != ne) flag($sformatf("%0d err_valid pulses, expected %0d", er_n, ne));
        for (j = 0; j < ne && j < er_n; j = j + 1)
            if (er_kind[j] != e_kind[j] || er_src[j] != e_src[j])
                flag($sformatf("error %0d: kind %0d source %04x, expected kind %0d source %04x",
                               j, er_kind[j], er_src[j], e_kind[j], e_src[j]));
    endtask

    task automatic run_check(input integer maxc);
        wait_idle(maxc);
        check_worms;
        end_check(note);
    endtask

    // ------------------------------------------------------------------ the sections
    integer i, r, q0, c0, sel, off, words, kind, st;
    integer rg_win [0:5];
    integer rg_off [0:5];

    initial begin
        finished = 1'b0;
        nfail = 32'd0;
        wb[0] = 64;  wn[0] = 320;
        wb[1] = 403; wn[1] = 100;
        wb[2] = 640; wn[2] = 256;
        wb[3] = 900; wn[3] = 0;     // closed
        for (i = 0; i < 4; i = i + 1) begin
            win_base[AW * i +: AW] = wb[i][AW-1:0];
            win_words[(AW + 1) * i +: AW + 1] = wn[i][AW:0];
        end
        // the random rounds' regions: 96 words each, no line shared (for L <= 16)
        rg_win[0] = 0; rg_off[0] = 0;
        rg_win[1] = 0; rg_off[1] = 96;
        rg_win[2] = 0; rg_off[2] = 192;
        rg_win[3] = 2; rg_off[3] = 0;
        rg_win[4] = 2; rg_off[4] = 96;
        rg_win[5] = 1; rg_off[5] = 0;
        wait (go);
        repeat (3) @(negedge clk);
        rst = 1'b0;
        plan_mode = 1'b1;
        repeat (3) @(negedge clk);

        for (st = 0; st < 2; st = st + 1) begin
            rand_grant = st == 1;
            rand_gap = st == 1;
            // ---------------------------------------------------------- plain puts
            clear_records;
            begin_check(st ? "stalls-plain-aligned" : "plain-aligned");
            good_put(0, 4 * L, 3, 2 * L + 5, 0);
            run_check(500);

            clear_records;
            begin_check(st ? "stalls-plain-unaligned" : "plain-unaligned");
            good_put(0, 2, 3, 2 * L + 5, 0);
            run_check(500);

            clear_records;
            begin_check(st ? "stalls-plain-window1" : "plain-window1");
            good_put(1, 7, 4, 20, 0);
            run_check(500);

            // ---------------------------------------------------------- puts by lines
            clear_records;
            begin_check(st ? "stalls-lines-unaligned" : "lines-unaligned");
            good_put(0, 2, 5, 2 * L + 5, 1);
            run_check(500);

            clear_records;
            begin_check(st ? "stalls-lines-aligned" : "lines-aligned");
            good_put(2, 0, 6, 3 * L, 1);
            run_check(500);

            clear_records;
            begin_check(st ? "stalls-lines-window1" : "lines-window1");
            good_put(1, 3, 7, 2 * L + 1, 1);
            run_check(500);

            clear_records;
            begin_check(st ? "stalls-lines-one-word" : "lines-one-word");
            good_put(0, 5, 8, 1, 1);
            run_check(500);

            // ---------------------------------------------------------- no payload
            clear_records;
            begin_check(st ? "stalls-lines-empty" : "lines-empty");
            good_put(0, 0, 9, 0, 1);
            run_check(200);

            clear_records;
            begin_check(st ? "stalls-plain-empty" : "plain-empty");
            good_put(0, 0, 10, 0, 0);
            run_check(200);

            // ---------------------------------------------------------- back to back
            clear_records;
            begin_check(st ? "stalls-mixed-back-to-back" : "mixed-back-to-back");
            good_put(0, 2, 1, 2 * L + 5, 1);
            good_put(0, 96 + 1, 2, 2 * L + 3, 0);
            good_put(0, 0, 3, 0, 1);
            good_signal(4, 11);
            good_put(2, 0, 5, L, 1);
            good_put(2, 96 + L - 1, 6, 2, 1);
            good_signal(7, epoch);
            run_check(1000);

            // ---------------------------------------------------------- signals
            clear_records;
            begin_check(st ? "stalls-signal" : "signal");
            good_signal(11, epoch + 9);     // any epoch
            run_check(200);

            // ---------------------------------------------------------- refused: unexpected
            clear_records;
            begin_check(st ? "stalls-signal-lines-bit" : "signal-lines-bit");
            bad_worm(3, put_flit(1, 0, 1, epoch, 12, 0, 0), 0, 1);
            good_signal(13, epoch);
            run_check(200);

            clear_records;
            begin_check(st ? "stalls-put-bit27" : "put-bit27");
            bad_worm(3 + 5, put_flit(0, 1, 0, epoch, 12, 0, 4), 5, 1);
            bad_worm(3 + 5, put_flit(0, 1, 1, epoch, 14, 0, 4), 5, 1);
            good_put(0, 2, 13, L + 1, 1);
            run_check(300);

            clear_records;
            begin_check(st ? "stalls-put-other-epoch" : "put-other-epoch");
            bad_worm(3 + 5, put_flit(0, 0, 1, epoch + 2, 12, 0, 4), 5, 1);
            bad_worm(3 + 5, put_flit(0, 0, 0, epoch - 1, 14, 0, 4), 5, 1);
            good_signal(13, epoch);
            run_check(300);

            clear_records;
            begin_check(st ? "stalls-put-outside-window" : "put-outside-window");
            bad_worm(3 + 5, put_flit(0, 0, 1, epoch, 12, 1, wn[1] - 4), 5, 1);    // one word past the end
            bad_worm(3 + 5, put_flit(0, 0, 0, epoch, 14, 3, 0), 5, 1);            // window 3 is closed
            good_put(1, wn[1] - 4, 13, 4, 1);                                     // to the window's end
            run_check(300);

            // a closed window refuses a put without payload too (rtl/tile/README.md, "Plans":
            // "a window closed" is unexpected; the engine's p_fits holds for 0 words in 0)
            clear_records;
            begin_check(st ? "stalls-empty-put-closed-window" : "empty-put-closed-window");
            bad_worm(3, put_flit(0, 0, 1, epoch, 15, 3, 0), 0, 1);
            bad_worm(3, put_flit(0, 0, 0, epoch, 14, 3, 0), 0, 1);
            good_signal(13, epoch);
            run_check(200);

            // with COMBINE kinds 2-9 are combining puts, 10 is no kind; without, 2 is none
            clear_records;
            begin_check(st ? (COMBINE ? "stalls-kind-10" : "stalls-kind-2") : (COMBINE ? "kind-10" : "kind-2"));
            bad_worm(3 + 2, put_flit(COMBINE ? 10 : 2, 0, 1, epoch, 12, 0, 0), 2, 1);
            good_signal(13, epoch);
            run_check(200);
            if (COMBINE)
                for (kind = 2; kind <= 9; kind = kind + 1) begin
                    // each combining put alone, its lines handed over with its kind in m_op
                    clear_records;
                    begin_check(st ? $sformatf("stalls-combining-kind-%0d", kind) : $sformatf("combining-kind-%0d", kind));
                    op_want = kind[3:0];
                    op_bad = 0;
                    put_kind(kind, 1, 3, 6, 2 * L + 1, 0, epoch);
                    wait_idle(200);
                    check_worms;
                    if (op_bad != 0) flag($sformatf("%0d lines written without m_op %0d", op_bad, kind));
                    op_want = 4'd0;
                    end_check("");
                end

            // ---------------------------------------------------------- refused: malformed
            clear_records;
            begin_check(st ? "stalls-short-worms" : "short-worms");
            // a one-flit worm (source unknown: ffff) and a head + info worm
            e_kind[ne] = 2; e_src[ne] = 16'hffff; ne = ne + 1;
            push(32'hc0de_0100, 1'b1);
            w_type[nw] = 3; w_cnt[nw] = -1; w_first[nw] = 0; w_words[nw] = 0;
            e_kind[ne] = 2; e_src[ne] = src_of(nw); ne = ne + 1;
            push(32'hc0de_0101, 1'b0);
            push({16'd3, src_of(nw)}, 1'b1);
            nw = nw + 1;
            bad_worm(3 + 2, put_flit(0, 0, 1, epoch, 12, 0, 0), 0, 2);            // put flit last, 2 words said
            bad_worm(3 + 1, put_flit(1, 0, 0, epoch, 14, 0, 0), 0, 2);            // a signal with info 4
            good_signal(13, epoch);
            run_check(200);

            clear_records;
            begin_check(st ? "stalls-malformed-short-lines" : "malformed-short-lines");
            malformed_put(0, 2, 12, 2 * L + 5, L + 3, 1);
            good_signal(13, epoch);
            run_check(500);

            clear_records;
            begin_check(st ? "stalls-malformed-long-lines" : "malformed-long-lines");
            // to the window's end: the words past it must be drained, not written
            malformed_put(1, wn[1] - (L + 2), 12, L + 2, 2 * L + 3, 1);
            good_signal(13, epoch);
            run_check(500);

            clear_records;
            begin_check(st ? "stalls-malformed-short-plain" : "malformed-short-plain");
            malformed_put(0, 2, 12, 2 * L + 5, L + 3, 0);
            good_signal(13, epoch);
            run_check(500);

            // ---------------------------------------------------------- the next epoch's put
            for (r = 0; r < 2; r = r + 1) begin
                clear_records;
                if (r == 1) epoch = 4'd15;
                begin_check($sformatf("%snext-epoch%s", st ? "stalls-" : "", r ? "-wrap" : ""));
                q0 = q_n;
                put_ep(0, 2, 3, 2 * L + 1, 1, epoch + 1);
                good_signal(4, epoch);      // behind it: waits too
                repeat (60) @(negedge clk);
                if (q_rd != q0 + 2)
                    flag($sformatf("while EPOCH = %0d: %0d flits popped, expected 2 (head and info)", epoch, q_rd - q0));
                if (wr_n != 0 || inc_n != 0 || er_n != 0)
                    flag($sformatf("while EPOCH = %0d: %0d writes, %0d incs, %0d errors", epoch, wr_n, inc_n, er_n));
                if (!plan_busy) flag("plan_busy low while the put waits");
                c0 = cyc;
                epoch = epoch + 4'd1;
                wait_idle(500);
                check_worms;
                for (i = 0; i < wr_n && i < RMAX; i = i + 1)
                    if (wr_cyc[i] < c0) flag($sformatf("write at cycle %0d, EPOCH moved on at %0d", wr_cyc[i], c0));
                end_check(note);
                epoch = 4'd5;
            end
        end
        rand_grant = 1'b0;
        rand_gap = 1'b0;

        // -------------------------------------------------------------- random
        begin_check("random");
        rand_grant = 1'b1;
        rand_gap = 1'b1;
        c0 = 0;     // incs counted
        for (r = 0; r < 12; r = r + 1) begin
            clear_records;
            for (i = 0; i < 6; i = i + 1) begin
                sel = $urandom % 20;
                off = rg_off[i] + $urandom % 96;
                words = $urandom % ((rg_off[i] + 96 - off < 3 * L + 6 ? rg_off[i] + 96 - off : 3 * L + 6) + 1);
                kind = i + 6 * (r % 2);         // the counter: one per worm of a round
                if (sel < 6) good_put(rg_win[i], off, kind, words, 0);
                else if (sel < 13) good_put(rg_win[i], off, kind, words, 1);
                else if (sel < 16) good_signal(kind, $urandom % 16);
                else if (sel < 17) good_put(rg_win[i], off, kind, 0, $urandom % 2);
                else if (sel < 18) bad_worm(3 + words, put_flit(0, 1, 1, epoch, kind, rg_win[i], off), words, 1);
                else if (sel < 19) bad_worm(3 + words, put_flit(0, 0, 1, epoch + 3, kind, rg_win[i], off), words, 1);
                else malformed_put(rg_win[i], off, kind, words + 2, words, 1);
            end
            q0 = cbad;
            wait_idle(3000);
            check_worms;
            c0 = c0 + inc_n;
            if (cbad != q0 && q0 == 0) cwhy = {$sformatf("round %0d: ", r), cwhy};
        end
        rand_grant = 1'b0;
        rand_gap = 1'b0;
        repeat (2) @(negedge clk);
        end_check($sformatf(" (12 rounds of 6 worms, %0d incs)", c0));

        finished = 1'b1;
    end
endmodule

module tb_ni_rx_engine;
    reg clk = 1'b0;
    always #5 clk = !clk;
    wire        done_a, done_b, done_c;
    wire [31:0] fail_a, fail_b, fail_c;
    ni_rx_bench #(.AW(10), .L(4), .TAG("L4")) a (
        .clk(clk), .go(1'b1), .finished(done_a), .nfail(fail_a));
    ni_rx_bench #(.AW(10), .L(1), .COMBINE(0), .TAG("L1")) b (
        .clk(clk), .go(done_a), .finished(done_b), .nfail(fail_b));
    ni_rx_bench #(.AW(10), .L(16), .TAG("L16")) c (
        .clk(clk), .go(done_b), .finished(done_c), .nfail(fail_c));
    initial begin
        wait (done_c);
        $display("DONE %0d failed checks", fail_a + fail_b + fail_c);
        $finish;
    end
    initial begin
        #20000000;
        $display("FAIL timeout: the benches did not finish (%0d %0d %0d)", done_a, done_b, done_c);
        $display("DONE %0d failed checks", fail_a + fail_b + fail_c + 1);
        $finish;
    end
endmodule
