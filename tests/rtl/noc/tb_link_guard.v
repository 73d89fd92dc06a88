// SPDX-License-Identifier: ISC
// Testbench of one protected link: link_guard_tx -> link_fault -> link_guard_rx forward,
// link_guard_rx -> link_fault -> link_guard_tx back (test_link_guard.sh builds it with
// --binary --timing under Verilator; tb_link_guard_all.v runs several configurations at once).
// A model of a router's output port sends flits against credits (BUF_DEPTH per VC, on
// random VCs, flit n of VC v carrying a value derived from (v, n)); a model of the next
// router's input holds BUF_DEPTH slots per VC, drains them at random and returns a credit
// a cycle after each pop, as noc_router does. Every delivered flit is compared with the
// one its VC must deliver next: in order, intact, exactly once.
//
// Phases, each after a reset (check lines PASS guard[NAME] ... / FAIL guard[NAME] ...):
//   clean    no fault, full load: a flit every cycle, each delivered in the cycle it was
//            sent (no added latency), no error, no retry
//   flips    bit flips on 1 in RATE flits and 1 in RATE reverse words, random load and
//            back-pressure, then a drain: everything delivered, every credit back, errors
//            detected = flits damaged, reverse errors = reverse words damaged, retries >=
//            errors, nothing delivered wrong
//   idle     as flips, with idle words damaged too
//   dead     the forward wire dies in mid-traffic: nothing wrong is delivered after it,
//            the sender reports the link stalled
module tb_link_guard #(
    parameter NAME      = "default",
    parameter FLIT_BITS = 32,
    parameter VCS       = 2,
    parameter BUF_DEPTH = 4,
    parameter SEED      = 1,
    parameter RATE      = 40,      // 1 in RATE words damaged in the fault phases
    parameter CYCLES    = 20000    // traffic cycles per fault phase
) (
    input  wire clk,
    output reg  done
);
    localparam VB = (VCS <= 2) ? 1 : (VCS <= 4) ? 2 : 3;
    localparam W  = FLIT_BITS;

    // ---- the link under test
    reg              rst;
    reg              s_valid;
    reg  [VB-1:0]    s_vc;
    reg              s_last;
    reg  [W-1:0]     s_data;
    wire [VCS-1:0]   s_credit;
    wire             r_valid;
    wire [VB-1:0]    r_vc;
    wire             r_last;
    wire [W-1:0]     r_data;
    reg  [VCS-1:0]   r_credit;
    reg  [31:0]      f_rate, b_rate;
    reg              f_all;      // damage idle forward words too
    reg              f_dead;
    reg  [31:0]      dead_cycle;

    localparam FWD = W + VB + 2 + ($clog2(VCS * BUF_DEPTH) + 1) + 8;
    localparam REV = VCS * $clog2(BUF_DEPTH + 1) + ($clog2(VCS * BUF_DEPTH) + 1) + 2 + 8;
    wire [FWD-1:0] fwd_tx, fwd_rx;
    wire [REV-1:0] rev_rx, rev_tx;
    wire [31:0] retries, rev_errors, overflow, errors, f_flips, b_flips;
    wire busy, stalled, pending;

    link_guard_tx #(.FLIT_BITS(W), .VCS(VCS), .BUF_DEPTH(BUF_DEPTH), .COUNT_BITS(32)) tx (
        .clk(clk), .rst(rst), .in_valid(s_valid), .in_vc(s_vc), .in_last(s_last), .in_data(s_data),
        .in_credit(s_credit), .fwd(fwd_tx), .rev(rev_tx), .retries(retries), .rev_errors(rev_errors),
        .overflow(overflow), .busy(busy), .stalled(stalled));
    link_fault #(.BITS(FWD), .COUNT_BITS(32)) fault_fwd (
        .clk(clk), .rst(rst), .link_id(32'd0), .seed(SEED), .rate(f_rate), .dead(f_dead), .dead_cycle(dead_cycle),
        .active(f_all || fwd_tx[W + VB + 1]), .in(fwd_tx), .out(fwd_rx), .flips(f_flips));
    link_guard_rx #(.FLIT_BITS(W), .VCS(VCS), .BUF_DEPTH(BUF_DEPTH), .COUNT_BITS(32)) rx (
        .clk(clk), .rst(rst), .fwd(fwd_rx), .rev(rev_rx), .out_valid(r_valid), .out_vc(r_vc),
        .out_last(r_last), .out_data(r_data), .out_credit(r_credit), .errors(errors), .pending(pending));
    link_fault #(.BITS(REV), .COUNT_BITS(32)) fault_rev (
        .clk(clk), .rst(rst), .link_id(32'd1), .seed(SEED), .rate(b_rate), .dead(1'b0), .dead_cycle(32'd0),
        .active(1'b1), .in(rev_rx), .out(rev_tx), .flips(b_flips));

    // ---- models of the two routers' ports
    integer credits [0:VCS-1];
    integer occ     [0:VCS-1];
    integer sent_n  [0:VCS-1];
    integer got_n   [0:VCS-1];
    integer v, k, sent_total, got_total, bad, dup_credit, overflowed, late, sends, cycle;
    integer p_send, p_pop;   // percent
    reg     generating;
    reg     clean_phase;
    reg [63:0] rng;

    function [W-1:0] flit_value;
        input integer vc;
        input integer n;
        reg [63:0] x;
        begin
            x = ({32'd0, n} * 64'h9e3779b97f4a7c15) ^ ({32'd0, vc} << 40) ^ 64'h5bd1e995;
            x = x ^ (x >> 29);
            flit_value = x[W-1:0];
        end
    endfunction
    function last_value;
        input integer vc;
        input integer n;
        reg [W-1:0] x;
        begin
            x = flit_value(vc + 8, n);
            last_value = x[3:0] == 4'd0;
        end
    endfunction
    function integer rand_pct;
        input integer dummy;
        begin
            rng = rng ^ (rng << 13); rng = rng ^ (rng >> 7); rng = rng ^ (rng << 17);
            rand_pct = (rng[31:0] % 100) + dummy;
        end
    endfunction

    task reset_all;
        begin
            rst = 1'b1; s_valid = 1'b0; s_vc = 0; s_last = 0; s_data = 0; r_credit = 0;
            for (v = 0; v < VCS; v = v + 1) begin
                credits[v] = BUF_DEPTH; occ[v] = 0; sent_n[v] = 0; got_n[v] = 0;
            end
            sent_total = 0; got_total = 0; bad = 0; dup_credit = 0; overflowed = 0; late = 0;
            sends = 0; cycle = 0;
            repeat (3) @(posedge clk);
            rst <= 1'b0;
            @(posedge clk);
        end
    endtask

    // One cycle: look at what the link did in the cycle that ends at this edge, then drive
    // the next one.
    integer best, tries;
    reg [VCS-1:0] pop;
    always @(posedge clk) begin
        if (!rst) begin
            cycle = cycle + 1;
            // receiver: the flit delivered in the ending cycle
            if (r_valid) begin
                v = r_vc;
                if (v >= VCS || r_data != flit_value(v, got_n[v]) || r_last != last_value(v, got_n[v])) begin
                    if (bad < 5) $display("  guard[%0s] cycle %0d: vc %0d flit %0d wrong: %h", NAME, cycle, v, got_n[v], r_data);
                    bad = bad + 1;
                end
                if (v < VCS) got_n[v] = got_n[v] + 1;
                got_total = got_total + 1;
                if (clean_phase && !s_valid) late = late + 1;
            end
            if (clean_phase && s_valid && !r_valid) late = late + 1;
            // its pops (of flits delivered before this cycle), credits a cycle later
            for (v = 0; v < VCS; v = v + 1) begin
                pop[v] = (occ[v] > 0) && (rand_pct(0) < p_pop);
                occ[v] = occ[v] - (pop[v] ? 1 : 0) + ((r_valid && r_vc == v) ? 1 : 0);
                if (occ[v] > BUF_DEPTH) overflowed = overflowed + 1;
            end
            r_credit <= pop;
            // sender: credits back, the flit it sent
            for (v = 0; v < VCS; v = v + 1) begin
                credits[v] = credits[v] + (s_credit[v] ? 1 : 0) - ((s_valid && s_vc == v) ? 1 : 0);
                if (credits[v] > BUF_DEPTH) dup_credit = dup_credit + 1;
            end
            if (s_valid) sends = sends + 1;
            // next flit
            best = -1;
            if (generating && rand_pct(0) < p_send) begin
                k = rand_pct(0) % VCS;
                for (tries = 0; tries < VCS; tries = tries + 1)
                    if (best < 0 && credits[(k + tries) % VCS] > 0) best = (k + tries) % VCS;
            end
            if (best >= 0) begin
                s_valid <= 1'b1;
                s_vc    <= best[VB-1:0];
                s_data  <= flit_value(best, sent_n[best]);
                s_last  <= last_value(best, sent_n[best]);
                sent_n[best] = sent_n[best] + 1;
                sent_total = sent_total + 1;
            end else begin
                s_valid <= 1'b0;
            end
        end
    end

    task check;
        input ok;
        input [8*120-1:0] what;
        input [8*160-1:0] why;
        begin
            if (ok) $display("PASS guard[%0s] %0s", NAME, what);
            else    $display("FAIL guard[%0s] %0s: %0s", NAME, what, why);
        end
    endtask

    integer all_back, i, drained_at, phase, stall_seen, got_at_death, bad_before;
    reg [8*8-1:0] pname;
    initial begin
        done = 1'b0; generating = 1'b0; clean_phase = 1'b0;
        f_rate = 0; b_rate = 0; f_all = 0; f_dead = 0; dead_cycle = 0;
        rng = 64'h2545f4914f6cdd1d ^ SEED;
        p_send = 100; p_pop = 100;
        rst = 1'b1;

        // ---- clean: full rate, no added latency
        reset_all;
        clean_phase = 1'b1; generating = 1'b1;
        repeat (2000) @(posedge clk);
        generating = 1'b0;
        repeat (20) @(posedge clk);
        clean_phase = 1'b0;
        check(sends >= 1998 && late == 0 && bad == 0 && got_total == sent_total,
              "clean: a flit every cycle, each delivered in the cycle it was sent",
              "sent late, slow or wrong");
        if (sends < 1998 || late != 0) $display("  sends %0d of 2000 cycles, %0d late, %0d wrong", sends, late, bad);
        check(errors == 0 && retries == 0 && rev_errors == 0 && overflow == 0,
              "clean: no error, no retry", "counters moved without a fault");

        // ---- flips (flits and reverse words), then idle words damaged too
        for (phase = 0; phase < 2; phase = phase + 1) begin
            pname = phase == 0 ? "flips" : "idle";
            reset_all;
            f_all = (phase == 1); f_rate = 32'hffffffff / RATE; b_rate = 32'hffffffff / RATE;
            p_send = 60; p_pop = 55;
            generating = 1'b1;
            repeat (CYCLES) @(posedge clk);
            generating = 1'b0;
            p_pop = 100;
            drained_at = -1;
            for (i = 0; i < 5000 && drained_at < 0; i = i + 1) begin
                @(posedge clk);
                all_back = 1;
                for (v = 0; v < VCS; v = v + 1)
                    if (credits[v] != BUF_DEPTH || got_n[v] != sent_n[v]) all_back = 0;
                if (all_back != 0 && !busy) drained_at = i;
            end
            check(drained_at >= 0 && bad == 0 && got_total == sent_total && overflowed == 0 && dup_credit == 0,
                  {pname, ": every flit delivered once, in order, intact; every credit back"},
                  "lost, duplicated, damaged, or a credit missing or extra");
            $display("  guard[%0s] %0s: %0d flits, %0d wrong, %0d delivered, %0d flips forward, %0d back, errors %0d, retries %0d, reverse errors %0d, overflow %0d",
                     NAME, pname, sent_total, bad, got_total, f_flips, b_flips, errors, retries, rev_errors, overflow);
            check(errors > 0 && errors == f_flips && rev_errors == b_flips && overflow == 0,
                  {pname, ": every damaged word detected (errors = flips forward, reverse errors = flips back)"},
                  "a count differs");
            if (phase == 0)
                check(retries >= errors, "flips: retries >= errors detected", "fewer retries than errors");
        end
        f_all = 0; f_rate = 0; b_rate = 0;

        // ---- dead: the forward wire held at zero from mid-traffic on
        reset_all;
        p_send = 60; p_pop = 55;
        f_dead = 1; dead_cycle = 3000;
        generating = 1'b1;
        repeat (3000) @(posedge clk);
        got_at_death = got_total; bad_before = bad;
        repeat (3000) @(posedge clk);
        generating = 1'b0;
        stall_seen = stalled ? 1 : 0;
        check(got_total <= got_at_death + 1 && bad == 0 && bad_before == 0 && stall_seen == 1 && errors > 2000,
              "dead: nothing delivered after the wire died, the sender reports it stalled, errors counted",
              "delivered after death, wrong flit, or no stall");
        f_dead = 0; dead_cycle = 0;
        done = 1'b1;
    end
endmodule
