// SPDX-License-Identifier: ISC
// Unit test of ni_tx_engine's plan mode (run by test_ni_tx_engine.sh: verilator --binary
// --timing). A bench (ni_tx_bench) holds one engine, a RAM model that answers a granted line
// read with the line the cycle after the grant (random data otherwise, so the engine must
// take the line exactly then), an injection sink that records every flit with its cycle,
// every RAM line read with its cycle, and the 16 x 16-bit counters the test drives. Its
// checks (grants and inj_ready always 1 unless said):
//   back-to-back       3 untriggered 5-word puts: the exact flits (head, info {8, node}, put
//                      with the NI's epoch, payload, last flag only on each worm's last
//                      flit), 24 flits on 24 consecutive cycles
//   combining          combining puts (kinds 2-9, COMBINE = 1): sent as puts, kind kept
//   signals            signals (kind 1, no payload: put flit last) among puts, back to back
//   trigger-waits      a descriptor waiting for counter 3 >= 2 (held at 1 for 50 cycles):
//                      no flit and no RAM read of its payload meanwhile, then the worm in full;
//                      plan_done and plan_busy; also as the first descriptor of a list
//   trigger-met        triggers already fired at the previous worm's end: no gap
//   modular-threshold  counter - threshold modulo 2^16, bit 15 clear = reached
//   bad-*              a refused descriptor after a good one (payload outside RAM: 1, length
//                      > 65532: 2, reserved bits or a signal with payload: 3): the good worm
//                      complete, one plan_error pulse with its code, nothing of the bad one
//   plan-stop          plan_stop in a payload and in a wait; a new list afterwards
//   random             random inj_ready and grants, random lists of 6 mixed descriptors
//   channel-hold       a flit offered and not taken is offered again unchanged
//   raw-after-plan     raw mode (raw_last 1 and 0) after the plans
// Three benches: AW 10 / 4-word lines (everything), AW 10 / 1-word lines (COMBINE = 0, the
// board's; everything; a
// descriptor then takes 4 RAM accesses, so worms are not required to be back to back), and
// AW 16 / 4-word lines (the refused descriptors: a length > 65532 is only inside a RAM of
// 2^16 words; a 65532-word worm, the longest, is accepted). Each check prints
// "PASS <bench> <name>" or "FAIL <bench> <name>: <why>"; the end "DONE <n> failed checks".
`timescale 1ns / 1ps

module ni_tx_bench #(
    parameter AW   = 10,
    parameter L    = 4,
    parameter FULL = 1,             // 1: every section; 0: only the refused descriptors
    parameter B2B  = 1,             // 1: worms whose trigger has fired must be back to back
    parameter COMBINE = 1,          // the engine sends combining puts (kinds 2-9)
    parameter string TAG = "L4"
) (
    input  wire        clk,
    input  wire        go,
    output reg         finished,
    output reg [31:0]  nfail
);
    localparam LB = (L <= 1) ? 0 : $clog2(L);
    localparam integer WORDS = 1 << AW;
    localparam integer FMAX = (AW >= 16) ? 70000 : 4096;   // flits / reads recorded
    localparam [15:0] NODE = 16'h0123;
    localparam [3:0]  EPOCH = 4'd5;

    // ------------------------------------------------------------------ the engine
    reg              rst = 1'b1;
    reg              raw_start = 1'b0, raw_last = 1'b0, raw_stop = 1'b0;
    reg  [AW-1:0]    raw_addr = {AW{1'b0}};
    reg  [AW:0]      raw_count = {(AW+1){1'b0}};
    wire             raw_busy, raw_end;
    wire [AW:0]      raw_left;
    wire [AW-1:0]    raw_next;
    reg              plan_start = 1'b0, plan_stop = 1'b0;
    reg  [AW-1:0]    plan_addr = {AW{1'b0}};
    reg  [15:0]      plan_count = 16'd0;
    wire             plan_busy, plan_error;
    wire [15:0]      plan_left, plan_done;
    wire [1:0]       plan_error_code;
    reg  [255:0]     counters = 256'd0;
    wire             m_req;
    wire [AW-LB-1:0] m_line;
    reg              grant_ok = 1'b1;
    wire             m_grant = m_req && grant_ok;
    reg  [32*L-1:0]  m_rdata = {(32*L){1'b0}};
    wire             inj_valid, inj_last;
    wire [31:0]      inj_data;
    reg              inj_ready = 1'b1;

    ni_tx_engine #(.AW(AW), .LINE_WORDS(L), .COMBINE(COMBINE)) dut (
        .clk(clk), .rst(rst),
        .raw_start(raw_start), .raw_addr(raw_addr), .raw_count(raw_count), .raw_last(raw_last),
        .raw_stop(raw_stop), .raw_busy(raw_busy), .raw_left(raw_left), .raw_next(raw_next),
        .raw_end(raw_end),
        .plan_start(plan_start), .plan_addr(plan_addr), .plan_count(plan_count),
        .plan_stop(plan_stop), .plan_busy(plan_busy), .plan_left(plan_left),
        .plan_done(plan_done), .plan_error(plan_error), .plan_error_code(plan_error_code),
        .node_index(NODE), .epoch(EPOCH), .counters(counters),
        .m_req(m_req), .m_line(m_line), .m_grant(m_grant), .m_rdata(m_rdata),
        .inj_valid(inj_valid), .inj_ready(inj_ready), .inj_data(inj_data), .inj_last(inj_last)
    );

    // ------------------------------------------------------------------ RAM, sink, records
    reg  [31:0] ram [0:WORDS-1];
    integer     cyc = 0;
    reg  [31:0] fl_data [0:FMAX-1];
    reg         fl_last [0:FMAX-1];
    integer     fl_cyc  [0:FMAX-1];
    integer     fl_n = 0;
    integer     rd_word [0:FMAX-1];     // first word of each line read
    integer     rd_cyc  [0:FMAX-1];
    integer     rd_n = 0;
    integer     err_n = 0, err_cyc = 0;  // cycles with plan_error high, the last one
    integer     err_code = 0;
    integer     hold_bad = 0;            // a stalled flit withdrawn or changed
    integer     hold_ign = 0;            // cycles in which that is not checked (a stop)
    reg         st_prev = 1'b0, st_last = 1'b0;
    reg  [31:0] st_data = 32'd0;
    reg         rand_ready = 1'b0, rand_grant = 1'b0;
    integer     k;

    // everything sampled at the rising edge, in one block (no race between recorders)
    always @(posedge clk) begin
        if (m_grant) begin
            for (k = 0; k < L; k = k + 1) m_rdata[32 * k +: 32] <= ram[m_line * L + k];
            if (rd_n < FMAX) begin rd_word[rd_n] = m_line * L; rd_cyc[rd_n] = cyc; end
            rd_n = rd_n + 1;
        end else
            for (k = 0; k < L; k = k + 1) m_rdata[32 * k +: 32] <= $urandom;
        if (st_prev && hold_ign == 0 && !rst &&
                !(inj_valid && inj_data == st_data && inj_last == st_last))
            hold_bad = hold_bad + 1;
        st_prev = inj_valid && !inj_ready;
        st_data = inj_data;
        st_last = inj_last;
        if (hold_ign > 0) hold_ign = hold_ign - 1;
        if (inj_valid && inj_ready && !rst) begin
            if (fl_n < FMAX) begin
                fl_data[fl_n] = inj_data; fl_last[fl_n] = inj_last; fl_cyc[fl_n] = cyc;
            end
            fl_n = fl_n + 1;
        end
        if (plan_error) begin
            err_n = err_n + 1; err_cyc = cyc; err_code = {30'd0, plan_error_code};
            // (err_code read here too: without it Verilator 5.006 --timing loses the value
            // the initial process reads)
            if ($test$plusargs("verbose"))
                $display("  %s plan_error code %0d at cycle %0d (err_code %0d)", TAG, plan_error_code, cyc, err_code);
        end
        cyc = cyc + 1;
    end
    // the channel and the grants change at the falling edge
    always @(negedge clk) begin
        inj_ready <= rand_ready ? ($urandom % 100 < 55) : 1'b1;
        grant_ok  <= rand_grant ? ($urandom % 100 < 45) : 1'b1;
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

    // ------------------------------------------------------------------ descriptors
    localparam integer NDMAX = 16;
    reg  [31:0] d_w0 [0:NDMAX-1];
    reg  [31:0] d_w1 [0:NDMAX-1];
    reg  [31:0] d_w2 [0:NDMAX-1];
    reg  [31:0] d_w3 [0:NDMAX-1];
    // the expected flits, and where each worm starts among them
    reg  [31:0] ex_data [0:FMAX-1];
    reg         ex_last [0:FMAX-1];
    integer     ex_n = 0;
    integer     ws [0:NDMAX];
    integer     nw = 0;

    function automatic [31:0] pat(input integer a, input integer s);
        pat = (a * 32'h9e37_79b1) ^ (s * 32'h0101_0101) ^ 32'h5a5a_0000;
    endfunction
    // descriptor i of the list at word 0: w1 = {words, first}
    task automatic desc(input integer i, input [31:0] head, input integer first, input integer words,
                        input [31:0] trig, input [31:0] put);
        d_w0[i] = head;
        d_w1[i] = {words[15:0], first[15:0]};
        d_w2[i] = trig;
        d_w3[i] = put;
        ram[4 * i] = d_w0[i]; ram[4 * i + 1] = d_w1[i]; ram[4 * i + 2] = d_w2[i]; ram[4 * i + 3] = d_w3[i];
    endtask
    function automatic [31:0] trig_on(input integer c, input integer thr);
        trig_on = {11'd0, 1'b1, c[3:0], thr[15:0]};
    endfunction
    function automatic [31:0] put_w(input integer kind, input integer n);
        // epoch bits set to 1010: the engine must replace them with its own
        put_w = {kind[3:0], 2'b00, 4'b1010, n[21:0]};
    endfunction
    task automatic expect_worm(input integer i);
        integer j, words, first;
        words = d_w1[i][31:16];
        first = d_w1[i][15:0];
        ws[nw] = ex_n; nw = nw + 1;
        ex_data[ex_n] = d_w0[i]; ex_last[ex_n] = 1'b0; ex_n = ex_n + 1;
        ex_data[ex_n] = {d_w1[i][31:16] + 16'd3, NODE}; ex_last[ex_n] = 1'b0; ex_n = ex_n + 1;
        ex_data[ex_n] = {d_w3[i][31:26], EPOCH, d_w3[i][21:0]}; ex_last[ex_n] = words == 0;
        ex_n = ex_n + 1;
        for (j = 0; j < words; j = j + 1) begin
            ex_data[ex_n] = ram[first + j]; ex_last[ex_n] = j == words - 1; ex_n = ex_n + 1;
        end
    endtask
    task automatic clear_records;
        fl_n = 0; rd_n = 0; ex_n = 0; nw = 0; err_n = 0; err_code = 0;
    endtask
    task automatic start_plan(input integer count);
        @(negedge clk);
        plan_addr = {AW{1'b0}}; plan_count = count[15:0]; plan_start = 1'b1;
        @(negedge clk);
        plan_start = 1'b0;
    endtask
    task automatic wait_idle(input integer maxc);
        integer t;
        t = 0;
        while ((plan_busy || raw_busy) && t < maxc) begin @(negedge clk); t = t + 1; end
        if (plan_busy || raw_busy) begin
            flag($sformatf("still busy after %0d cycles (plan_left %0d, plan_done %0d, %0d flits of %0d)",
                           maxc, plan_left, plan_done, fl_n, ex_n));
            // stop it, so that the next check starts from an idle engine
            hold_ign = 3;
            plan_stop = 1'b1; raw_stop = 1'b1;
            @(negedge clk);
            plan_stop = 1'b0; raw_stop = 1'b0;
        end
        repeat (4) @(negedge clk);
    endtask
    task automatic wait_flits(input integer n, input integer maxc);
        integer t;
        t = 0;
        while (fl_n < n && t < maxc) begin @(negedge clk); t = t + 1; end
        if (fl_n < n) flag($sformatf("only %0d flits of %0d after %0d cycles", fl_n, n, maxc));
    endtask
    // the flits recorded are exactly the expected ones
    task automatic cmp_flits;
        integer j;
        if (fl_n != ex_n) flag($sformatf("%0d flits, expected %0d", fl_n, ex_n));
        for (j = 0; j < ex_n && j < fl_n; j = j + 1)
            if (fl_data[j] !== ex_data[j] || fl_last[j] !== ex_last[j]) begin
                flag($sformatf("flit %0d (cycle %0d): %08x last %0d, expected %08x last %0d",
                               j, fl_cyc[j], fl_data[j], fl_last[j], ex_data[j], ex_last[j]));
            end
    endtask
    // worms back to back: every flit of the worms from w0 on (the first one included, but
    // for worm 0) on the cycle after the flit before it
    task automatic cmp_b2b(input integer w0);
        integer j;
        for (j = (w0 == 0) ? 1 : ws[w0]; j < ex_n && j < fl_n; j = j + 1)
            if (fl_cyc[j] != fl_cyc[j - 1] + 1)
                flag($sformatf("flit %0d at cycle %0d, flit %0d at cycle %0d (%0d idle cycles)",
                               j - 1, fl_cyc[j - 1], j, fl_cyc[j], fl_cyc[j] - fl_cyc[j - 1] - 1));
    endtask
    // the idle cycles between worms, for the report
    function automatic string gaps;
        integer w;
        string s, sep;
        s = "";
        sep = "";
        for (w = 1; w < nw; w = w + 1)
            if (ws[w] < fl_n) begin
                s = {s, sep, $sformatf("%0d", fl_cyc[ws[w]] - fl_cyc[ws[w] - 1] - 1)};
                sep = ",";
            end
        gaps = s;
    endfunction
    // no RAM read of words [first, first+words) before cycle `before`
    task automatic no_read(input integer first, input integer words, input integer till, input string what);
        integer j;
        for (j = 0; j < rd_n && j < FMAX; j = j + 1)
            if (rd_cyc[j] < till && rd_word[j] + L > first && rd_word[j] < first + words)
                flag($sformatf("%s: line at word %0d read at cycle %0d (before cycle %0d)",
                               what, rd_word[j], rd_cyc[j], till));
    endtask
    task automatic expect_plan(input integer done, input string when);
        if (plan_done != done[15:0]) flag($sformatf("%s: plan_done %0d, expected %0d", when, plan_done, done));
        if (plan_left != 16'd0) flag($sformatf("%s: plan_left %0d", when, plan_left));
        if (plan_busy) flag($sformatf("%s: plan_busy", when));
    endtask
    task automatic no_error;
        if (err_n != 0) flag($sformatf("plan_error (code %0d) at cycle %0d", err_code, err_cyc));
    endtask
    task automatic set_counter(input integer c, input integer v);
        counters[16 * c +: 16] = v[15:0];
    endtask

    // ------------------------------------------------------------------ the sections
    integer i, n, t, r, first, words, f0, c_raise, kind, base_cyc;
    integer raise_at [0:NDMAX-1];
    integer rcnt [0:NDMAX-1];
    integer raised_cyc [0:NDMAX-1];
    integer mod_cnt [0:10];
    integer mod_thr [0:10];
    integer mod_ok  [0:10];

    task automatic bad_list(input string name, input integer first_b, input integer words_b,
                            input [31:0] trig_b, input [31:0] put_b, input [1:0] code);
        clear_records;
        begin_check(name);
        fill(WORDS / 2, 4, 77);
        desc(0, 32'hb000_0001, WORDS / 2, 4, 32'd0, put_w(0, 12));
        desc(1, 32'hb000_0002, first_b, words_b, trig_b, put_b);
        expect_worm(0);
        start_plan(2);
        wait_idle(200);
        repeat (10) @(negedge clk);
        cmp_flits;
        if (err_n != 1) flag($sformatf("plan_error high for %0d cycles, expected a 1-cycle pulse", err_n));
        else begin
            if (err_code != {30'd0, code}) flag($sformatf("plan_error_code %0d, expected %0d", err_code, code));
            if (fl_n > 0 && err_cyc <= fl_cyc[fl_n - 1])
                flag($sformatf("plan_error at cycle %0d, before the good worm's last flit (cycle %0d)",
                               err_cyc, fl_cyc[fl_n - 1]));
        end
        expect_plan(1, "after the error");
        // no read but the list's lines and the good payload (nothing of the refused payload)
        for (i = 0; i < rd_n; i = i + 1)
            if (rd_word[i] >= 8 && !(rd_word[i] + L > WORDS / 2 && rd_word[i] < WORDS / 2 + 4))
                flag($sformatf("line at word %0d read at cycle %0d", rd_word[i], rd_cyc[i]));
        end_check("");
    endtask
    task automatic fill(input integer first_f, input integer words_f, input integer seed);
        integer q;
        for (q = 0; q < words_f; q = q + 1) ram[(first_f + q) % WORDS] = pat(first_f + q, seed);
    endtask

    initial begin
        finished = 1'b0;
        nfail = 32'd0;
        for (i = 0; i < WORDS; i = i + 1) ram[i] = pat(i, 1);
        mod_cnt[0] = 16'h0001; mod_thr[0] = 16'hfff0; mod_ok[0] = 1;
        mod_cnt[1] = 16'hffef; mod_thr[1] = 16'h0000; mod_ok[1] = 0;
        mod_cnt[2] = 16'h7fff; mod_thr[2] = 16'h0000; mod_ok[2] = 1;
        mod_cnt[3] = 16'h8000; mod_thr[3] = 16'h0000; mod_ok[3] = 0;
        mod_cnt[4] = 16'h0000; mod_thr[4] = 16'h8001; mod_ok[4] = 1;
        mod_cnt[5] = 16'h0000; mod_thr[5] = 16'h8000; mod_ok[5] = 0;
        mod_cnt[6] = 16'h1234; mod_thr[6] = 16'h1234; mod_ok[6] = 1;
        mod_cnt[7] = 16'h1233; mod_thr[7] = 16'h1234; mod_ok[7] = 0;
        mod_cnt[8] = 16'h0000; mod_thr[8] = 16'hffff; mod_ok[8] = 1;
        mod_cnt[9] = 16'hfffe; mod_thr[9] = 16'hffff; mod_ok[9] = 0;
        mod_cnt[10] = 16'hffff; mod_thr[10] = 16'h0000; mod_ok[10] = 0;
        wait (go);
        repeat (3) @(negedge clk);
        rst = 1'b0;
        repeat (2) @(negedge clk);

        if (FULL) begin
        // -------------------------------------------------------------- back to back
        clear_records;
        begin_check("back-to-back");
        for (i = 0; i < 3; i = i + 1)
            // bit 20 clear: go at once, whatever the (unreached) threshold 7 of counter 0
            desc(i, 32'ha000_0001 + i, 256 + 16 * i, 5, 32'h0000_0007, put_w(0, 100 + i));
        for (i = 0; i < 3; i = i + 1) expect_worm(i);
        start_plan(3);
        wait_idle(300);
        cmp_flits;
        if (B2B) cmp_b2b(0);
        if (fl_n == 24 && fl_cyc[23] - fl_cyc[0] != 23 && B2B)
            flag($sformatf("24 flits in %0d cycles", fl_cyc[23] - fl_cyc[0] + 1));
        expect_plan(3, "at the end");
        no_error;
        end_check($sformatf(" (idle cycles between worms: %s)", gaps()));

        // -------------------------------------------------------------- combining puts
        clear_records;
        if (COMBINE) begin
            // combining puts (kinds 2-9) go out as puts, their kind in the put flit
            begin_check("combining");
            for (i = 0; i < 8; i = i + 1)
                desc(i, 32'ha200_0001 + i, 200 + 8 * i, 3, 32'd0, put_w(2 + i, 10 + i));
            for (i = 0; i < 8; i = i + 1) expect_worm(i);
            start_plan(8);
            wait_idle(400);
            cmp_flits;
            expect_plan(8, "at the end");
            no_error;
            end_check("");
        end

        // -------------------------------------------------------------- signals
        clear_records;
        begin_check("signals");
        desc(0, 32'ha100_0001, 0, 0, 32'd0, put_w(1, 1));
        desc(1, 32'ha100_0002, 16'hffff, 0, 32'd0, put_w(1, 2));   // no payload: any index
        desc(2, 32'ha100_0003, 300, 3, 32'd0, put_w(0, 3));
        desc(3, 32'ha100_0004, 0, 0, 32'd0, put_w(1, 4));
        desc(4, 32'ha100_0005, 0, 0, 32'd0, put_w(0, 5));          // a put with no payload
        for (i = 0; i < 5; i = i + 1) expect_worm(i);
        start_plan(5);
        wait_idle(300);
        cmp_flits;
        if (B2B) cmp_b2b(0);
        expect_plan(5, "at the end");
        no_error;
        end_check($sformatf(" (idle cycles between worms: %s)", gaps()));

        // -------------------------------------------------------------- trigger waits
        clear_records;
        begin_check("trigger-waits");
        set_counter(3, 1);
        desc(0, 32'ha200_0001, 320, 5, 32'd0, put_w(0, 1));
        desc(1, 32'ha200_0002, 340, 6, trig_on(3, 2), put_w(0, 2));
        desc(2, 32'ha200_0003, 360, 4, 32'd0, put_w(0, 3));
        for (i = 0; i < 3; i = i + 1) expect_worm(i);
        start_plan(3);
        wait_flits(8, 100);
        repeat (50) @(negedge clk);
        if (fl_n != 8) flag($sformatf("%0d flits while counter 3 = 1 < 2, expected the 8 of the first worm", fl_n));
        if (plan_done != 16'd1) flag($sformatf("plan_done %0d while waiting, expected 1", plan_done));
        if (plan_left != 16'd2) flag($sformatf("plan_left %0d while waiting, expected 2", plan_left));
        if (!plan_busy) flag("plan_busy low while waiting");
        c_raise = cyc;          // the first cycle that sees counter 3 = 2
        set_counter(3, 2);
        no_read(340, 6, c_raise, "the waiting payload");
        wait_idle(200);
        cmp_flits;
        no_read(340, 6, c_raise, "the waiting payload");
        if (fl_n > 8 && fl_cyc[8] > c_raise + 2)
            flag($sformatf("counter raised in cycle %0d, head at cycle %0d", c_raise, fl_cyc[8]));
        if (B2B) cmp_b2b(2);
        expect_plan(3, "at the end");
        no_error;
        end_check($sformatf(" (head %0d cycles after the counter reached the threshold)",
                            fl_n > 8 ? fl_cyc[8] - c_raise : -1));

        clear_records;
        begin_check("trigger-waits-first");
        set_counter(7, 16'h000f);
        desc(0, 32'ha300_0001, 380, 7, trig_on(7, 16'h0010), put_w(0, 1));
        desc(1, 32'ha300_0002, 0, 0, trig_on(7, 16'h0010), put_w(1, 2));
        for (i = 0; i < 2; i = i + 1) expect_worm(i);
        start_plan(2);
        repeat (40) @(negedge clk);
        if (fl_n != 0) flag($sformatf("%0d flits while counter 7 = 15 < 16", fl_n));
        if (plan_done != 16'd0 || plan_left != 16'd2)
            flag($sformatf("waiting: plan_done %0d plan_left %0d, expected 0 and 2", plan_done, plan_left));
        c_raise = cyc;
        set_counter(7, 16'h0010);
        wait_idle(200);
        cmp_flits;
        no_read(380, 7, c_raise, "the waiting payload");
        if (B2B) cmp_b2b(0);
        expect_plan(2, "at the end");
        no_error;
        end_check("");

        // -------------------------------------------------------------- trigger already met
        clear_records;
        begin_check("trigger-met");
        set_counter(5, 3);
        set_counter(6, 0);
        desc(0, 32'ha400_0001, 400, 8, 32'd0, put_w(0, 1));
        desc(1, 32'ha400_0002, 421, 5, trig_on(5, 3), put_w(0, 2));     // met before the start
        desc(2, 32'ha400_0003, 0, 0, trig_on(6, 1), put_w(1, 3));        // met during worm 1
        desc(3, 32'ha400_0004, 440, 3, trig_on(5, 2), put_w(0, 4));     // met, counter above
        for (i = 0; i < 4; i = i + 1) expect_worm(i);
        start_plan(4);
        wait_flits(16, 100);
        set_counter(6, 1);
        wait_idle(200);
        cmp_flits;
        if (B2B) cmp_b2b(0);
        expect_plan(4, "at the end");
        no_error;
        end_check($sformatf(" (idle cycles between worms: %s)", gaps()));

        // -------------------------------------------------------------- paced (cut-through)
        // a paced descriptor's payload line j is read only once its counter reaches
        // threshold + j (the relay of a piece counted by lines as it arrives); its put flit
        // goes out as given (bit 26: the receiver counts it by lines)
        if (L >= 4) begin
            clear_records;
            begin_check("paced");
            set_counter(4, 10);
            first = 16 * L + 2;                 // 2 words into a line: lines of 2, L, L, 3 words
            words = 2 * L + 5;
            fill(first, words, 31);
            desc(0, 32'ha600_0001, first, words, trig_on(4, 11) | 32'h0020_0000, put_w(0, 7) | 32'h0400_0000);
            desc(1, 32'ha600_0002, 0, 0, 32'd0, put_w(1, 8));
            expect_worm(0);
            expect_worm(1);
            start_plan(2);
            repeat (30) @(negedge clk);
            if (fl_n != 0) flag($sformatf("%0d flits while counter 4 = 10 < 11", fl_n));
            // the lines arrive one by one: after each, exactly the words of the lines counted
            f0 = 0;
            for (r = 0; r < 4; r = r + 1) begin
                raised_cyc[r] = cyc;
                set_counter(4, 11 + r);
                f0 = f0 + ((r == 0) ? 2 : (r == 3) ? 3 : L);
                repeat (30) @(negedge clk);
                if (r < 3 && fl_n != 3 + f0)
                    flag($sformatf("counter 4 = %0d: %0d flits, expected %0d (the head's 3 and %0d payload words)",
                                   11 + r, fl_n, 3 + f0, f0));
                if (r < 3 && !plan_busy) flag($sformatf("counter 4 = %0d: plan_busy low", 11 + r));
            end
            wait_idle(100);
            cmp_flits;
            // line j (words of it) not read before the counter reached 11 + j
            no_read(first, 2, raised_cyc[0], "line 0");
            no_read(first + 2, L, raised_cyc[1], "line 1");
            no_read(first + 2 + L, L, raised_cyc[2], "line 2");
            no_read(first + 2 + 2 * L, 3, raised_cyc[3], "line 3");
            expect_plan(2, "at the end");
            no_error;
            end_check("");

            // paced, the counter already past its last line: as fast as an unpaced worm
            clear_records;
            begin_check("paced-met");
            set_counter(9, 200);
            desc(0, 32'ha700_0001, 700, 3 * L, 32'd0, put_w(0, 1));
            desc(1, 32'ha700_0002, 760, 3 * L + 1, trig_on(9, 190) | 32'h0020_0000, put_w(0, 2) | 32'h0400_0000);
            desc(2, 32'ha700_0003, 800, 2, 32'd0, put_w(0, 3));
            for (i = 0; i < 3; i = i + 1) expect_worm(i);
            start_plan(3);
            wait_idle(300);
            cmp_flits;
            if (B2B) cmp_b2b(0);
            expect_plan(3, "at the end");
            no_error;
            end_check($sformatf(" (idle cycles between worms: %s)", gaps()));

            // paced, the counter just short of the last line: the worm waits at its last line
            clear_records;
            begin_check("paced-last-line");
            set_counter(2, 16'hfffe);             // threshold fffe, 3 lines: fffe, ffff, 0000
            first = 40 * L;
            fill(first, 3 * L, 32);
            desc(0, 32'ha800_0001, first, 3 * L, trig_on(2, 16'hfffe) | 32'h0020_0000, put_w(0, 1));
            expect_worm(0);
            start_plan(1);
            repeat (40) @(negedge clk);
            if (fl_n != 3 + L) flag($sformatf("counter 2 = fffe: %0d flits, expected %0d", fl_n, 3 + L));
            set_counter(2, 16'hffff);
            repeat (40) @(negedge clk);
            if (fl_n != 3 + 2 * L) flag($sformatf("counter 2 = ffff: %0d flits, expected %0d", fl_n, 3 + 2 * L));
            c_raise = cyc;
            set_counter(2, 16'h0000);             // modulo 2^16: past ffff
            wait_idle(100);
            cmp_flits;
            no_read(first + 2 * L, L, c_raise, "the last line");
            expect_plan(1, "at the end");
            no_error;
            end_check("");
        end

        // -------------------------------------------------------------- modular thresholds
        begin_check("modular-threshold");
        for (r = 0; r < 11; r = r + 1) begin
            clear_records;
            n = (r * 5 + 2) % 16;       // the counter: a different slice each time
            counters = {16{16'h5555}};
            set_counter(n, mod_cnt[r]);
            desc(0, 32'ha500_0000 + r, 0, 0, 32'd0, put_w(1, 1));
            desc(1, 32'ha500_0100 + r, 0, 0, trig_on(n, mod_thr[r]), put_w(1, 2));
            expect_worm(0);
            expect_worm(1);
            start_plan(2);
            repeat (30) @(negedge clk);
            if (mod_ok[r]) begin
                if (fl_n != 6 || plan_busy)
                    flag($sformatf("counter %0d = %04x, threshold %04x: %0d flits, plan_busy %0d; expected reached",
                                   n, mod_cnt[r], mod_thr[r], fl_n, plan_busy));
            end else begin
                if (fl_n != 3 || !plan_busy)
                    flag($sformatf("counter %0d = %04x, threshold %04x: %0d flits, plan_busy %0d; expected not reached",
                                   n, mod_cnt[r], mod_thr[r], fl_n, plan_busy));
                // reached while waiting: threshold + 0x11 (modulo 2^16)
                set_counter(n, mod_thr[r] + 16'h0011);
                wait_idle(50);
            end
            cmp_flits;
            expect_plan(2, $sformatf("case %0d", r));
            no_error;
        end
        counters = 256'd0;
        end_check(" (11 cases)");
        end

        // -------------------------------------------------------------- refused descriptors
        bad_list("bad-outside-ram", WORDS - 2, 3, trig_on(1, 5), put_w(0, 0), 2'd1);
        if (FULL) begin
            bad_list("bad-outside-ram-index", WORDS, 1, 32'd0, put_w(0, 0), 2'd1);
            bad_list("bad-outside-ram-wrap", WORDS - 1, 16'hffff, 32'd0, put_w(0, 0), 2'd1);
        end
        if (AW >= 16) bad_list("bad-length", 0, 65533, 32'd0, put_w(0, 0), 2'd2);
        // bit 21 (paced) is reserved only where the engine has no pacing (lines under 4 words)
        if (L < 4) bad_list("bad-reserved-trigger-bit21", 600, 2, 32'h0020_0000, put_w(0, 0), 2'd3);
        bad_list("bad-reserved-trigger-bit22", 600, 2, 32'h0040_0000, put_w(0, 0), 2'd3);
        bad_list("bad-reserved-trigger-bit31", 600, 2, 32'h8010_0000, put_w(0, 0), 2'd3);
        // bit 26 asks the receiver to count a put by lines: a signal has none
        bad_list("bad-signal-lines", 600, 0, 32'd0, put_w(1, 0) | 32'h0400_0000, 2'd3);
        bad_list("bad-reserved-put-bit27", 600, 2, 32'd0, put_w(0, 0) | 32'h0800_0000, 2'd3);
        // kinds 2-9 are combining puts with COMBINE (10 is no kind), none without
        if (COMBINE) bad_list("bad-kind-10", 600, 2, 32'd0, put_w(10, 0), 2'd3);
        else bad_list("bad-kind-2", 600, 2, 32'd0, put_w(2, 0), 2'd3);
        bad_list("bad-signal-with-payload", 600, 2, 32'd0, put_w(1, 0), 2'd3);
        // a refused first descriptor
        clear_records;
        begin_check("bad-first");
        desc(0, 32'hb100_0001, 600, 2, 32'd0, put_w(15, 0));
        start_plan(3);
        wait_idle(50);
        if (fl_n != 0) flag($sformatf("%0d flits", fl_n));
        if (err_n != 1 || err_code != 3) flag($sformatf("plan_error for %0d cycles, code %0d", err_n, err_code));
        expect_plan(0, "after the error");
        no_read(600, 2, cyc + 1, "the refused payload");
        end_check("");
        // the last word of the RAM, and the longest worm
        clear_records;
        begin_check(AW >= 16 ? "edge-accepted (65532 words to the RAM's end)" : "edge-accepted (to the RAM's end)");
        words = AW >= 16 ? 65532 : 9;
        fill(WORDS - words, words, 5);
        desc(0, 32'hb200_0001, WORDS - words, words, 32'd0, put_w(0, 1));
        desc(1, 32'hb200_0002, 0, 0, 32'd0, put_w(1, 1));
        expect_worm(0);
        expect_worm(1);
        start_plan(2);
        wait_idle(words + 200);
        cmp_flits;
        if (B2B) cmp_b2b(0);
        expect_plan(2, "at the end");
        no_error;
        end_check("");

        if (FULL) begin
        // -------------------------------------------------------------- plan_stop
        clear_records;
        begin_check("plan-stop");
        desc(0, 32'ha600_0001, 640, 40, 32'd0, put_w(0, 1));
        desc(1, 32'ha600_0002, 700, 3, 32'd0, put_w(0, 2));
        start_plan(2);
        wait_flits(13, 100);
        hold_ign = 3;
        plan_stop = 1'b1;
        @(negedge clk);
        plan_stop = 1'b0;
        n = fl_n;
        if (plan_busy) flag("plan_busy after plan_stop");
        if (plan_left != 16'd0) flag($sformatf("plan_left %0d after plan_stop", plan_left));
        repeat (40) @(negedge clk);
        if (fl_n != n) flag($sformatf("%0d flits after plan_stop", fl_n - n));
        if (plan_busy || raw_busy || inj_valid) flag("busy or offering a flit 40 cycles after plan_stop");
        // stopped in a wait
        clear_records;
        desc(0, 32'ha600_0003, 0, 0, trig_on(4, 1), put_w(1, 1));
        start_plan(1);
        repeat (10) @(negedge clk);
        plan_stop = 1'b1;
        @(negedge clk);
        plan_stop = 1'b0;
        set_counter(4, 1);
        repeat (20) @(negedge clk);
        if (fl_n != 0 || plan_busy) flag($sformatf("stopped in a wait: %0d flits, plan_busy %0d", fl_n, plan_busy));
        set_counter(4, 0);
        // a new list runs in full
        clear_records;
        fill('h205, 6, 9);
        desc(0, 32'ha600_0004, 'h205, 6, 32'd0, put_w(0, 4));
        desc(1, 32'ha600_0005, 0, 0, 32'd0, put_w(1, 5));
        desc(2, 32'ha600_0006, 640, 11, 32'd0, put_w(0, 6));
        for (i = 0; i < 3; i = i + 1) expect_worm(i);
        start_plan(3);
        wait_idle(200);
        cmp_flits;
        if (B2B) cmp_b2b(0);
        expect_plan(3, "the list after the stop");
        no_error;
        end_check("");

        // -------------------------------------------------------------- random
        begin_check("random");
        rand_ready = 1'b1;
        rand_grant = 1'b1;
        for (r = 0; r < 12; r = r + 1) begin
            clear_records;
            counters = 256'd0;
            for (i = 0; i < 6; i = i + 1) begin
                kind = ($urandom % 4 == 0) ? 1 : 0;
                if (i == 5 && r % 3 == 0) kind = 0;
                words = kind == 1 ? 0 : $urandom % 21;
                if (i == 5 && r % 3 == 0) words = 4;
                // each payload in a region of its own (lines not shared)
                first = 64 + i * ((WORDS - 64) / 6) + $urandom % ((WORDS - 64) / 6 - 24);
                if (i == 5 && r % 3 == 0) first = WORDS - 4;   // the RAM's last words
                raise_at[i] = -1;
                rcnt[i] = 8 + i;
                case ($urandom % 3)
                    0: d_w2[i] = 32'h000f_ffff & $urandom;    // bit 20 clear, any threshold
                    1: begin d_w2[i] = trig_on(rcnt[i], 0); end
                    default: begin
                        d_w2[i] = trig_on(rcnt[i], 1);
                        raise_at[i] = $urandom % 120;
                    end
                endcase
                desc(i, $urandom, first, words, d_w2[i], put_w(kind, $urandom));
                expect_worm(i);
            end
            start_plan(6);
            base_cyc = cyc;
            for (i = 0; i < 6; i = i + 1) raised_cyc[i] = -1;
            t = 0;
            while (plan_busy && t < 2000) begin
                for (i = 0; i < 6; i = i + 1)
                    if (raise_at[i] >= 0 && raised_cyc[i] < 0 && cyc - base_cyc >= raise_at[i]) begin
                        set_counter(rcnt[i], 1);
                        raised_cyc[i] = cyc;
                    end
                @(negedge clk);
                t = t + 1;
            end
            for (i = 0; i < 6; i = i + 1)
                if (raise_at[i] >= 0 && raised_cyc[i] < 0) begin set_counter(rcnt[i], 1); raised_cyc[i] = cyc; end
            wait_idle(2000);
            f0 = cbad;
            cmp_flits;
            for (i = 0; i < 6; i = i + 1)
                if (raised_cyc[i] >= 0 && d_w1[i][31:16] != 0)
                    no_read(d_w1[i][15:0], d_w1[i][31:16], raised_cyc[i], $sformatf("round %0d, descriptor %0d", r, i));
            expect_plan(6, $sformatf("round %0d", r));
            no_error;
            if (cbad != f0 && f0 == 0) cwhy = {$sformatf("round %0d: ", r), cwhy};
        end
        rand_ready = 1'b0;
        rand_grant = 1'b0;
        repeat (2) @(negedge clk);
        counters = 256'd0;
        end_check(" (12 lists of 6 descriptors)");

        // -------------------------------------------------------------- raw after a plan
        clear_records;
        begin_check("raw-after-plan");
        @(negedge clk);
        raw_addr = 'h150; raw_count = 6; raw_last = 1'b1; raw_start = 1'b1;
        @(negedge clk);
        raw_start = 1'b0;
        wait_idle(100);
        for (i = 0; i < 6; i = i + 1) begin
            ex_data[ex_n] = ram['h150 + i]; ex_last[ex_n] = i == 5; ex_n = ex_n + 1;
        end
        @(negedge clk);
        raw_addr = 'h163; raw_count = 3; raw_last = 1'b0; raw_start = 1'b1;
        @(negedge clk);
        raw_start = 1'b0;
        wait_idle(100);
        for (i = 0; i < 3; i = i + 1) begin
            ex_data[ex_n] = ram['h163 + i]; ex_last[ex_n] = 1'b0; ex_n = ex_n + 1;
        end
        cmp_flits;
        if (raw_left != 0 || raw_next != 'h166 || raw_end)
            flag($sformatf("raw_left %0d raw_next %0x raw_end %0d, expected 0, 166, 0", raw_left, raw_next, raw_end));
        no_error;
        end_check("");

        begin_check("channel-hold");
        if (hold_bad != 0) flag($sformatf("%0d cycles in which a flit not taken was withdrawn or changed", hold_bad));
        end_check("");
        end

        finished = 1'b1;
    end
endmodule

module tb_ni_tx_engine;
    reg clk = 1'b0;
    always #5 clk = !clk;
    wire        done_a, done_b, done_c;
    wire [31:0] fail_a, fail_b, fail_c;
    ni_tx_bench #(.AW(10), .L(4), .FULL(1), .B2B(1), .TAG("L4")) a (
        .clk(clk), .go(1'b1), .finished(done_a), .nfail(fail_a));
    ni_tx_bench #(.AW(10), .L(1), .FULL(1), .B2B(0), .COMBINE(0), .TAG("L1")) b (
        .clk(clk), .go(done_a), .finished(done_b), .nfail(fail_b));
    ni_tx_bench #(.AW(16), .L(4), .FULL(0), .B2B(1), .TAG("AW16")) c (
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
