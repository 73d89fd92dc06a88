// SPDX-License-Identifier: ISC
// Testbench of link_phy, one configuration (tb_link.v runs several at once; test_link_phy.sh
// builds it with verilator --binary --timing): two PHYs, A and B, on two
// clocks that differ by +ppm parts per million and start +phase picoseconds apart, joined
// pin to pin through wires with a delay per lane (skew). Each side has a model of a
// router's link port: a sender that holds BUF_DEPTH credits per VC and sends the flits of a
// fixed list (worms on random VCs, interleaved) when it has a credit, at random, and a
// receiver with BUF_DEPTH slots per VC that drains them at random and returns a credit a
// cycle after each (as noc_router does). Every delivered flit is compared with the list:
// the link is a FIFO, so flit k delivered must be flit k sent (in order, intact, once).
//
// The scenario (one run, checks printed as PASS name / FAIL name: why):
//   up        both sides come up from reset
//   traffic   random worms both ways, random back-pressure; then everything drains: every
//             flit delivered, every credit back (the senders hold BUF_DEPTH per VC again)
//   idle      a long idle gap (keepalives only): still up, no fault
//   latency / throughput   figures, printed as MEASURE lines
//   reset     B is reset in the middle of traffic: A fails (fail-stop), delivers nothing
//             more and nothing wrong; B trains and stays down while A is failed; then A
//             is reset too (what the board top does) and the link comes up clean
//   biterror  lane 0 inverted for two symbols: the receiver fails with a CRC or framing
//             fault, no damaged flit is delivered
//   unplug    the B-to-A wires held high (pulled out between two frames): A fails with
//             silence, B with "restart"
//   checker   the comparison itself: a bit flipped in the model's copy of a delivered flit
//             must be counted
// With RETRY = 1 the bit error is refused and sent again (no fault), and after it (task
// noise_scenarios):
//   noise     each cycle may invert a random lane for a symbol, both ways (noise_rate per
//             100,000 cycles, seeded) during random traffic: all delivered once, in order,
//             intact, every credit back, none twice (a credit beyond BUF_DEPTH is an error
//             at once), still up; err_count > 0 and retry_count >= err_count each way
//   burst     all lanes inverted for 80 symbols one way, 50 the other (overlapping)
//   frame     one chosen flit frame damaged in its data, each direction (damage_frame)
//   credits   a frame with only credits and the acknowledgement damaged (B to A while only A
//             sends flits): refused, its credits come with the next good frame, once
// Parameters set the PHYs, the clocks (PPM, PHASE in ps), the lane skews (SKEW0..3 in ps,
// B to A 0.7 times as much), the seed and QUICK (fewer flits); +ppm=R +phase=PS +seed=N
// +skew0=PS .. +skew3=PS +quick on the command line override them in every instance,
// +noise=N the noise scenario's rate (per 100,000 cycles, default 60).
// Check lines name the configuration: PASS link[NAME] ...; `done` rises at the end.
`timescale 1ps / 1fs
module tb_link_phy #(
    parameter        FLIT_BITS  = 32,
    parameter        VCS        = 2,
    parameter        BUF_DEPTH  = 4,
    parameter        LANES      = 2,
    parameter        OVERSAMPLE = 3,
    parameter        TAG_RAM    = 1,
    parameter        RETRY      = 1,
    parameter        NAME       = "default",
    parameter real   PPM        = 300.0,
    parameter real   PHASE      = 7000.0,
    parameter real   SKEW0      = 1500.0,
    parameter real   SKEW1      = 4200.0,
    parameter real   SKEW2      = 2500.0,
    parameter real   SKEW3      = 3300.0,
    parameter        SEED       = 1,
    parameter        QUICK      = 0
) (
    output reg done
);
    localparam VB   = (VCS <= 2) ? 1 : (VCS <= 4) ? 2 : 3;
    localparam W    = FLIT_BITS;
    localparam FW   = W + VB + 1;            // a list entry: {data, vc, last}
    localparam MAXF = 16384;                 // list length per direction
    // the head's symbols (as link_phy lays them out): where damage_frame aims
    localparam T_SEQB      = $clog2(VCS * BUF_DEPTH) + 1;
    localparam T_HEAD_W    = (RETRY != 0) ? 5 + VB + T_SEQB : 4 + VB;
    localparam T_HEAD_SYMS = (T_HEAD_W + LANES - 1) / LANES;

    // ------------------------------------------------------------------ options, clocks
    integer seed;
    real    ppm, phase, half_a, half_b;
    real    skew [0:3];
    real    sk;
    integer quick;
    integer failures;
    initial begin
        done = 1'b0;
        if (!$value$plusargs("seed=%d", seed)) seed = SEED;
        if (!$value$plusargs("ppm=%f", ppm)) ppm = PPM;
        if (!$value$plusargs("phase=%f", phase)) phase = PHASE;
        if (!$value$plusargs("skew0=%f", sk)) sk = SKEW0;
        skew[0] = sk;
        if (!$value$plusargs("skew1=%f", sk)) sk = SKEW1;
        skew[1] = sk;
        if (!$value$plusargs("skew2=%f", sk)) sk = SKEW2;
        skew[2] = sk;
        if (!$value$plusargs("skew3=%f", sk)) sk = SKEW3;
        skew[3] = sk;
        quick = QUICK || $test$plusargs("quick");
        half_a = 20833.333;                  // 24 MHz
        half_b = half_a * (1.0 + ppm * 1.0e-6);
        failures = 0;
    end

    reg clk_a = 1'b0;
    reg clk_b = 1'b0;
    initial begin
        #1;
        forever #(half_a) clk_a = !clk_a;
    end
    initial begin
        #(1.0 + phase);
        forever #(half_b) clk_b = !clk_b;
    end

    // ------------------------------------------------------------------ the two PHYs
    reg  rst_a = 1'b1;
    reg  rst_b = 1'b1;
    wire [LANES-1:0] tx_a, tx_b;            // pins
    reg  [LANES-1:0] wire_ab, wire_ba;      // after the cable
    reg  [LANES-1:0] flip_ab = {LANES{1'b0}};   // fault injection: invert lanes
    reg  [LANES-1:0] flip_ba = {LANES{1'b0}};
    reg              cut_ba = 1'b0;             // fault injection: B-to-A wires pulled high
    reg  [LANES-1:0] noise_ab = {LANES{1'b0}};  // random damage (noise, below)
    reg  [LANES-1:0] noise_ba = {LANES{1'b0}};
    wire [LANES-1:0] rx_b = wire_ab ^ flip_ab ^ noise_ab;
    wire [LANES-1:0] rx_a = cut_ba ? {LANES{1'b1}} : (wire_ba ^ flip_ba ^ noise_ba);
    genvar l;
    generate
        for (l = 0; l < LANES; l = l + 1) begin : lane
            always @(tx_a[l]) wire_ab[l] <= #(skew[l]) tx_a[l];
            always @(tx_b[l]) wire_ba[l] <= #(skew[l] * 0.7) tx_b[l];
        end
    endgenerate

    // Noise: while noise_rate (per 100,000 cycles of the receiver's clock) is not 0, each
    // cycle may invert one lane, chosen at random, for one symbol (OVERSAMPLE cycles): every
    // such hit reaches a sample (a damaged frame) or, between frames, a false start.
    integer noise_rate = 0;
    integer noise_seed;
    integer noise_hits [0:1];
    integer hold_ab = 0, hold_ba = 0;
    integer noise_lane;
    initial begin
        noise_seed = seed * 104729 + 5;
        noise_hits[0] = 0; noise_hits[1] = 0;
    end
    always @(posedge clk_b) begin
        if (hold_ab > 0) begin
            hold_ab = hold_ab - 1;
            if (hold_ab == 0) noise_ab <= {LANES{1'b0}};
        end else if (noise_rate > 0 && (($random(noise_seed) & 32'h7fffffff) % 100000) < noise_rate) begin
            noise_lane = ($random(noise_seed) & 32'h7fffffff) % LANES;
            noise_ab <= {{(LANES-1){1'b0}}, 1'b1} << noise_lane;
            hold_ab = OVERSAMPLE;
            noise_hits[0] = noise_hits[0] + 1;
        end
    end
    always @(posedge clk_a) begin
        if (hold_ba > 0) begin
            hold_ba = hold_ba - 1;
            if (hold_ba == 0) noise_ba <= {LANES{1'b0}};
        end else if (noise_rate > 0 && (($random(noise_seed) & 32'h7fffffff) % 100000) < noise_rate) begin
            noise_lane = ($random(noise_seed) & 32'h7fffffff) % LANES;
            noise_ba <= {{(LANES-1){1'b0}}, 1'b1} << noise_lane;
            hold_ba = OVERSAMPLE;
            noise_hits[1] = noise_hits[1] + 1;
        end
    end

    // router side of each PHY, as arrays indexed by side (0 = A, 1 = B)
    reg  [1:0]         lout_valid;
    reg  [2*VB-1:0]    lout_vc;
    reg  [1:0]         lout_last;
    reg  [2*W-1:0]     lout_data;
    wire [2*VCS-1:0]   lout_credit;
    wire [1:0]         lin_valid;
    wire [2*VB-1:0]    lin_vc;
    wire [1:0]         lin_last;
    wire [2*W-1:0]     lin_data;
    reg  [2*VCS-1:0]   lin_credit;
    wire [1:0]         link_up, link_fault;
    wire [3:0]         fault_cause;
    wire [31:0]        err_count, retry_count;   // [side*16 +: 16]

    link_phy #(.FLIT_BITS(FLIT_BITS), .VCS(VCS), .BUF_DEPTH(BUF_DEPTH), .LANES(LANES),
               .OVERSAMPLE(OVERSAMPLE), .TAG_RAM(TAG_RAM), .RETRY(RETRY)) phy_a (
        .clk(clk_a), .rst(rst_a),
        .lout_valid(lout_valid[0]), .lout_vc(lout_vc[0 +: VB]), .lout_last(lout_last[0]),
        .lout_data(lout_data[0 +: W]), .lout_credit(lout_credit[0 +: VCS]),
        .lin_valid(lin_valid[0]), .lin_vc(lin_vc[0 +: VB]), .lin_last(lin_last[0]),
        .lin_data(lin_data[0 +: W]), .lin_credit(lin_credit[0 +: VCS]),
        .tx_pin(tx_a), .rx_pin(rx_a),
        .link_up(link_up[0]), .link_fault(link_fault[0]), .fault_cause(fault_cause[1:0]),
        .err_count(err_count[0 +: 16]), .retry_count(retry_count[0 +: 16]));
    link_phy #(.FLIT_BITS(FLIT_BITS), .VCS(VCS), .BUF_DEPTH(BUF_DEPTH), .LANES(LANES),
               .OVERSAMPLE(OVERSAMPLE), .TAG_RAM(TAG_RAM), .RETRY(RETRY)) phy_b (
        .clk(clk_b), .rst(rst_b),
        .lout_valid(lout_valid[1]), .lout_vc(lout_vc[VB +: VB]), .lout_last(lout_last[1]),
        .lout_data(lout_data[W +: W]), .lout_credit(lout_credit[VCS +: VCS]),
        .lin_valid(lin_valid[1]), .lin_vc(lin_vc[VB +: VB]), .lin_last(lin_last[1]),
        .lin_data(lin_data[W +: W]), .lin_credit(lin_credit[VCS +: VCS]),
        .tx_pin(tx_b), .rx_pin(rx_b),
        .link_up(link_up[1]), .link_fault(link_fault[1]), .fault_cause(fault_cause[3:2]),
        .err_count(err_count[16 +: 16]), .retry_count(retry_count[16 +: 16]));

    // ------------------------------------------------------------------ flit lists
    // list[dir*MAXF + k]: the k-th flit side dir sends. Worms on random VCs (staying on a
    // VC for a while, then switching), 1..8 flits each, interleaved between VCs.
    reg [FW-1:0] list [0:2*MAXF-1];
    integer gen_seed, gk, gd, gv, gi;
    integer rem [0:7];
    reg [63:0] rnd;
    initial begin
        gen_seed = seed * 7919 + 17;
        for (gd = 0; gd < 2; gd = gd + 1) begin
            for (gi = 0; gi < 8; gi = gi + 1) rem[gi] = 0;
            gv = 0;
            for (gk = 0; gk < MAXF; gk = gk + 1) begin
                if ((($random(gen_seed) & 32'h7fffffff) % 100) < 35)
                    gv = ($random(gen_seed) & 32'h7fffffff) % VCS;
                if (rem[gv] == 0) rem[gv] = 1 + (($random(gen_seed) & 32'h7fffffff) % 8);
                rem[gv] = rem[gv] - 1;
                rnd = {$random(gen_seed), $random(gen_seed)};
                list[gd * MAXF + gk] = {rnd[W-1:0], gv[VB-1:0], rem[gv] == 0};
            end
        end
    end

    // ------------------------------------------------------------------ router models
    // Per direction dir (the sender is side dir, the receiver side 1-dir).
    integer p_send  [0:1];        // percent of cycles the sender offers a flit
    integer p_drain [0:1];        // percent of cycles the receiver drains each VC
    integer s_idx   [0:1];        // next list index to send
    integer s_end   [0:1];        // ... up to here
    integer r_idx   [0:1];        // next list index expected
    integer s_rst   [0:1];        // model resets (set by the scenario, cleared at the edge)
    integer r_rst   [0:1];
    integer bad     [0:1];        // delivery errors seen (wrong flit, overflow, after a fault)
    integer corrupt [0:1];        // checker self-test: flip a bit of the next flit delivered
    reg [63:0] t_sent [0:1];      // time (ps) the last flit was sent / received (latency)
    reg [63:0] t_recv [0:1];
    integer cred    [0:2*8-1];    // sender credits: [dir*8 + vc]
    integer occ     [0:2*8-1];    // receiver occupancy: [dir*8 + vc]

    genvar dir;
    generate
        for (dir = 0; dir < 2; dir = dir + 1) begin : path
            wire          clk_s = (dir == 0) ? clk_a : clk_b;
            wire          clk_r = (dir == 0) ? clk_b : clk_a;
            integer       rs, v, sv;
            reg [FW-1:0]  f;
            reg           can;
            initial rs = seed * 31 + dir * 1000003;
            // sender: side dir
            always @(posedge clk_s) begin
                if (s_rst[dir] != 0) begin
                    s_rst[dir] = 0;
                    lout_valid[dir] <= 1'b0;
                    for (v = 0; v < VCS; v = v + 1) cred[dir * 8 + v] = BUF_DEPTH;
                end else begin
                    lout_valid[dir] <= 1'b0;
                    can = 1'b0;
                    sv = 0;
                    if (s_idx[dir] < s_end[dir]) begin
                        f  = list[dir * MAXF + s_idx[dir]];
                        sv = f[VB:1];
                        can = cred[dir * 8 + sv] > 0 && (($random(rs) & 32'h7fffffff) % 100) < p_send[dir];
                    end
                    // credits arriving now count from the next cycle on (as in noc_router)
                    for (v = 0; v < VCS; v = v + 1)
                        if (lout_credit[dir * VCS + v]) begin
                            cred[dir * 8 + v] = cred[dir * 8 + v] + 1;
                            if (cred[dir * 8 + v] > BUF_DEPTH) begin
                                if (bad[dir] < 5) $display("ERROR %s got credit %0d of %0d on VC %0d (a credit came twice)",
                                                           dir ? "B" : "A", cred[dir * 8 + v], BUF_DEPTH, v);
                                bad[dir] = bad[dir] + 1;
                            end
                        end
                    if (can) begin
                        cred[dir * 8 + sv] = cred[dir * 8 + sv] - 1;
                        lout_valid[dir]             <= 1'b1;
                        lout_data[dir * W +: W]     <= f[FW-1:VB+1];
                        lout_vc[dir * VB +: VB]     <= f[VB:1];
                        lout_last[dir]              <= f[0];
                        s_idx[dir] = s_idx[dir] + 1;
                        t_sent[dir] = $time;
                    end
                end
            end
            // receiver: side 1-dir
            always @(posedge clk_r) begin
                if (r_rst[dir] != 0) begin
                    r_rst[dir] = 0;
                    lin_credit[(1 - dir) * VCS +: VCS] <= {VCS{1'b0}};
                    for (v = 0; v < VCS; v = v + 1) occ[dir * 8 + v] = 0;
                end else begin
                    // drain first (a flit arriving now is drained from the next cycle on)
                    for (v = 0; v < VCS; v = v + 1) begin
                        lin_credit[(1 - dir) * VCS + v] <= 1'b0;
                        if (occ[dir * 8 + v] > 0 && (($random(rs) & 32'h7fffffff) % 100) < p_drain[dir]) begin
                            occ[dir * 8 + v] = occ[dir * 8 + v] - 1;
                            lin_credit[(1 - dir) * VCS + v] <= 1'b1;
                        end
                    end
                    if (lin_valid[1 - dir]) begin
                        f = {lin_data[(1 - dir) * W +: W], lin_vc[(1 - dir) * VB +: VB], lin_last[1 - dir]};
                        if (corrupt[dir] != 0) begin
                            f[FW-1] = !f[FW-1];
                            corrupt[dir] = 0;
                        end
                        t_recv[dir] = $time;
                        if (link_fault[1 - dir]) begin
                            if (bad[dir] < 5) $display("ERROR %s delivered a flit after its fault", dir ? "A" : "B");
                            bad[dir] = bad[dir] + 1;
                        end
                        if (r_idx[dir] >= s_idx[dir] || f !== list[dir * MAXF + r_idx[dir]]) begin
                            if (bad[dir] < 5)
                                $display("ERROR %s received %h as flit %0d (sent %0d so far), expected %h",
                                         dir ? "A" : "B", f, r_idx[dir], s_idx[dir], list[dir * MAXF + r_idx[dir]]);
                            bad[dir] = bad[dir] + 1;
                        end
                        if (occ[dir * 8 + f[VB:1]] >= BUF_DEPTH) begin
                            if (bad[dir] < 5) $display("ERROR %s: a flit arrived at a full buffer (VC %0d)", dir ? "A" : "B", f[VB:1]);
                            bad[dir] = bad[dir] + 1;
                        end
                        occ[dir * 8 + f[VB:1]] = occ[dir * 8 + f[VB:1]] + 1;
                        r_idx[dir] = r_idx[dir] + 1;
                    end
                end
            end
        end
    endgenerate

    // ------------------------------------------------------------------ scenario helpers
    task check;
        input [8*160-1:0] name;
        input             ok;
        input [8*400-1:0] why;
        begin
            if (ok) $display("PASS link[%0s] %0s", NAME, name);
            else begin
                $display("FAIL link[%0s] %0s: %0s", NAME, name, why);
                failures = failures + 1;
            end
        end
    endtask

    task cycles;                 // wait n cycles of clock A
        input integer n;
        integer c;
        begin
            for (c = 0; c < n; c = c + 1) @(posedge clk_a);
        end
    endtask

    // The models of both sides back to their reset state; a new stretch of the lists.
    task models_reset;
        input integer base;
        integer d;
        begin
            for (d = 0; d < 2; d = d + 1) begin
                s_rst[d] = 1; r_rst[d] = 1;
                s_idx[d] = base; s_end[d] = base; r_idx[d] = base;
            end
            cycles(4);
        end
    endtask

    // Wait (at most limit cycles) until both links are up.
    integer waited;
    task wait_up;
        input integer limit;
        begin
            waited = 0;
            while (!(link_up[0] && link_up[1]) && waited < limit) begin
                cycles(1);
                waited = waited + 1;
            end
        end
    endtask

    // Everything to send has been sent, delivered and drained, and every credit is back.
    function integer drained;
        input integer d;
        integer v;
        begin
            drained = (s_idx[d] >= s_end[d]) && (r_idx[d] == s_idx[d]);
            for (v = 0; v < VCS; v = v + 1)
                if (occ[d * 8 + v] != 0 || cred[d * 8 + v] != BUF_DEPTH) drained = 0;
        end
    endfunction
    integer all_drained;
    task wait_drained;
        input integer limit;
        begin
            waited = 0;
            all_drained = drained(0) && drained(1);
            while (!all_drained && waited < limit) begin
                cycles(1);
                waited = waited + 1;
                all_drained = drained(0) && drained(1);
            end
        end
    endtask

    task traffic;                // n more flits each way, at the given rates
        input integer n;
        input integer ps;
        input integer pd;
        integer d;
        begin
            for (d = 0; d < 2; d = d + 1) begin
                p_send[d] = ps; p_drain[d] = pd;
                s_end[d] = s_idx[d] + n;
            end
        end
    endtask

    // ------------------------------------------------------------------ damage (RETRY = 1)
    // Invert lane 0 of one direction (0: A to B, 1: B to A) for one symbol: symbol k of
    // the frame its sender starts next (with a flit if want_flit, else without one: only
    // credits and the acknowledgement). Returns when the symbol has passed.
    task damage_frame;
        input integer d;
        input integer want_flit;
        input integer k;
        integer found;
        real    half;
        begin
            half = (d == 0) ? half_a : half_b;    // the sender's clock
            found = 0;
            t0 = 0;
            while (!found && t0 < 20000) begin
                if (d == 0) begin
                    @(negedge clk_a);
                    found = phy_a.tx.start && phy_a.tx.flit == (want_flit != 0) && phy_a.tx.send_data;
                end else begin
                    @(negedge clk_b);
                    found = phy_b.tx.start && phy_b.tx.flit == (want_flit != 0) && phy_b.tx.send_data;
                end
                t0 = t0 + 1;
            end
            if (!found) $display("ERROR damage_frame: no frame to damage (direction %0d)", d);
            // seen half a cycle before the start's clock edge; symbol k is on the pins from
            // (k + 1) symbols after it: invert it all (a little late: the cable's delay)
            #(half + ((k + 1) * OVERSAMPLE + 0.3) * 2.0 * half);
            if (d == 0) flip_ab[0] = 1'b1; else flip_ba[0] = 1'b1;
            #(OVERSAMPLE * 2.0 * half);
            if (d == 0) flip_ab[0] = 1'b0; else flip_ba[0] = 1'b0;
        end
    endtask

    integer damaged;
    task noise_scenarios;
        begin
            // ---- random damage both ways during random traffic
            e_a = err_count[0 +: 16]; e_b = err_count[16 +: 16];
            r_a = retry_count[0 +: 16]; r_b = retry_count[16 +: 16];
            // per 100,000 cycles (+noise=N on the command line): about 1 frame time in 17
            if (!$value$plusargs("noise=%d", noise_rate)) noise_rate = 60;
            traffic(n_flits, 80, 50);
            wait_drained(n_flits * 800 + 40000);
            noise_rate = 0;
            cycles(500);
            $display("MEASURE %0s noise_hits %0d %0d refused_at_b %0d refused_at_a %0d resent_by_a %0d resent_by_b %0d",
                     NAME, noise_hits[0], noise_hits[1], err_count[16 +: 16] - e_b, err_count[0 +: 16] - e_a,
                     retry_count[0 +: 16] - r_a, retry_count[16 +: 16] - r_b);
            $sformat(why, "A->B %0d/%0d B->A %0d/%0d errors %0d/%0d; up %b fault %b cause %0d/%0d; hits %0d/%0d",
                     r_idx[0], s_idx[0], r_idx[1], s_idx[1], bad[0], bad[1], link_up, link_fault,
                     fault_cause[1:0], fault_cause[3:2], noise_hits[0], noise_hits[1]);
            check("noise: random bit damage both ways (seeded): every flit delivered once, in order, intact; every credit back, none twice; the link stays up",
                  drained(0) && drained(1) && bad[0] == 0 && bad[1] == 0 && link_up == 2'b11 && link_fault == 2'b00, why);
            $sformat(why, "refused at B %0d (A resent %0d), at A %0d (B resent %0d)",
                     err_count[16 +: 16] - e_b, retry_count[0 +: 16] - r_a,
                     err_count[0 +: 16] - e_a, retry_count[16 +: 16] - r_b);
            check("noise: both receivers count refused frames (err_count > 0), both senders count at least as many resent flits (retry_count >= err_count)",
                  err_count[16 +: 16] > e_b && err_count[0 +: 16] > e_a &&
                  retry_count[0 +: 16] - r_a >= err_count[16 +: 16] - e_b &&
                  retry_count[16 +: 16] - r_b >= err_count[0 +: 16] - e_a, why);

            // ---- a burst: both directions' lanes inverted for about 2.5 frames
            e_a = err_count[0 +: 16]; e_b = err_count[16 +: 16];
            traffic(n_flits / 2, 90, 60);
            cycles(1000);
            flip_ab = {LANES{1'b1}};
            #(80.0 * OVERSAMPLE * 2.0 * half_a);
            flip_ba = {LANES{1'b1}};
            #(20.0 * OVERSAMPLE * 2.0 * half_a);
            flip_ab = {LANES{1'b0}};
            #(30.0 * OVERSAMPLE * 2.0 * half_a);
            flip_ba = {LANES{1'b0}};
            wait_drained(n_flits * 800 + 40000);
            $sformat(why, "refused at B %0d, at A %0d; A->B %0d/%0d B->A %0d/%0d errors %0d/%0d; up %b fault %b cause %0d/%0d",
                     err_count[16 +: 16] - e_b, err_count[0 +: 16] - e_a, r_idx[0], s_idx[0], r_idx[1], s_idx[1],
                     bad[0], bad[1], link_up, link_fault, fault_cause[1:0], fault_cause[3:2]);
            check("burst: lanes inverted for several frames: refused, sent again; all delivered once, in order, intact; every credit back; still up",
                  err_count[16 +: 16] > e_b && err_count[0 +: 16] > e_a && drained(0) && drained(1) &&
                  bad[0] == 0 && bad[1] == 0 && link_up == 2'b11 && link_fault == 2'b00, why);

            // ---- one chosen flit frame damaged, each direction in turn, in the data
            for (d0 = 0; d0 < 2; d0 = d0 + 1) begin
                e_a = err_count[(1 - d0) * 16 +: 16]; r_a = retry_count[d0 * 16 +: 16];
                traffic(n_flits / 4, 70, 60);
                cycles(700);
                damage_frame(d0, 1, T_HEAD_SYMS + 3);
                wait_drained(n_flits * 800 + 40000);
                $sformat(why, "receiver refused %0d, sender resent %0d; A->B %0d/%0d B->A %0d/%0d errors %0d/%0d; up %b fault %b",
                         err_count[(1 - d0) * 16 +: 16] - e_a, retry_count[d0 * 16 +: 16] - r_a, r_idx[0], s_idx[0],
                         r_idx[1], s_idx[1], bad[0], bad[1], link_up, link_fault);
                check(d0 == 0 ? "frame: one chosen A-to-B flit frame damaged: refused, sent again, delivered once; every credit back"
                              : "frame: one chosen B-to-A flit frame damaged: refused, sent again, delivered once; every credit back",
                      err_count[(1 - d0) * 16 +: 16] > e_a && retry_count[d0 * 16 +: 16] > r_a &&
                      drained(0) && drained(1) && bad[0] == 0 && bad[1] == 0 && link_up == 2'b11 && link_fault == 2'b00, why);
            end

            // ---- a frame with only credits and the acknowledgement damaged (B to A, while
            // only A sends flits): its credits come with the next good frame, once
            e_a = err_count[0 +: 16];
            for (d0 = 0; d0 < 2; d0 = d0 + 1) begin p_send[d0] = 100; p_drain[d0] = 70; end
            s_end[0] = s_idx[0] + n_flits / 4;
            cycles(700);
            damage_frame(1, 0, T_HEAD_SYMS + FLIT_BITS / LANES);   // its first credit symbol
            wait_drained(n_flits * 800 + 40000);
            $sformat(why, "A refused %0d; A->B %0d/%0d, errors %0d/%0d, A's credits %0d %0d; up %b fault %b",
                     err_count[0 +: 16] - e_a, r_idx[0], s_idx[0], bad[0], bad[1], cred[0], cred[1], link_up, link_fault);
            check("credits: a frame with only credits and the acknowledgement damaged: refused; every credit back, none twice",
                  err_count[0 +: 16] > e_a && drained(0) && drained(1) && bad[0] == 0 && bad[1] == 0 &&
                  link_up == 2'b11 && link_fault == 2'b00, why);
        end
    endtask

    // ------------------------------------------------------------------ the scenario
    integer n_flits, t0, i, lat_n, d0, r0, r_before, s_before;
    integer e_a, e_b, r_a, r_b;
    real    lat, lat_min, lat_max, lat_sum, t_start, thr;
    reg [8*400-1:0] why;
    initial begin
        for (i = 0; i < 2; i = i + 1) begin
            p_send[i] = 0; p_drain[i] = 100; bad[i] = 0; corrupt[i] = 0;
            s_idx[i] = 0; s_end[i] = 0; r_idx[i] = 0; s_rst[i] = 1; r_rst[i] = 1;
        end
        lout_valid = 2'b00; lin_credit = {2*VCS{1'b0}};
        n_flits = quick ? 150 : 400;
        cycles(10);
        rst_a = 1'b0;
        #(3.0 * half_a);
        rst_b = 1'b0;
        models_reset(0);

        // -------------------------------------------------------- up
        wait_up(20000);
        $sformat(why, "not up after %0d cycles (A up %b fault %b, B up %b fault %b)", waited,
                 link_up[0], link_fault[0], link_up[1], link_fault[1]);
        check("up: both sides come up from reset", link_up == 2'b11, why);

        // -------------------------------------------------------- traffic
        traffic(n_flits, 60, 40);
        wait_drained(n_flits * 400 + 20000);
        $sformat(why, "after %0d cycles A->B sent %0d delivered %0d, B->A sent %0d delivered %0d, errors %0d/%0d, credits A %0d B %0d",
                 waited, s_idx[0], r_idx[0], s_idx[1], r_idx[1], bad[0], bad[1], cred[0], cred[8]);
        check("traffic: random worms both ways, random back-pressure: all delivered in order, intact, once; every credit back",
              drained(0) && drained(1) && bad[0] == 0 && bad[1] == 0 && link_up == 2'b11 && link_fault == 2'b00, why);

        $display("MEASURE %0s clean_traffic_refused_at_b %0d refused_at_a %0d resent_by_a %0d resent_by_b %0d",
                 NAME, err_count[16 +: 16], err_count[0 +: 16], retry_count[0 +: 16], retry_count[16 +: 16]);

        // -------------------------------------------------------- idle
        cycles(quick ? 8000 : 30000);
        traffic(40, 100, 100);
        wait_drained(40 * 400 + 5000);
        $sformat(why, "up %b fault %b cause %b, delivered %0d/%0d and %0d/%0d", link_up, link_fault,
                 fault_cause, r_idx[0], s_idx[0], r_idx[1], s_idx[1]);
        check("idle: a long idle gap keeps the link up; traffic resumes",
              link_up == 2'b11 && link_fault == 2'b00 && drained(0) && drained(1) && bad[0] == 0 && bad[1] == 0, why);

        // -------------------------------------------------------- latency (A to B, idle link)
        lat_n = 0; lat_min = 1.0e9; lat_max = 0.0; lat_sum = 0.0;
        for (i = 0; i < 24; i = i + 1) begin
            cycles(200 + (($random(seed) & 32'h7fffffff) % 97));
            r0 = r_idx[0];
            s_end[0] = s_idx[0] + 1;
            p_send[0] = 100;
            t0 = 0;
            while (r_idx[0] == r0 && t0 < 5000) begin cycles(1); t0 = t0 + 1; end
            if (r_idx[0] != r0) begin
                lat = (t_recv[0] - t_sent[0]) / (2.0 * half_a);
                lat_n = lat_n + 1; lat_sum = lat_sum + lat;
                if (lat < lat_min) lat_min = lat;
                if (lat > lat_max) lat_max = lat;
            end
        end
        $display("MEASURE %0s latency_cycles_min %0.1f", NAME, lat_min);
        $display("MEASURE %0s latency_cycles_avg %0.1f", NAME, lat_sum / lat_n);
        $display("MEASURE %0s latency_cycles_max %0.1f", NAME, lat_max);
        $sformat(why, "%0d of 24 single flits arrived", lat_n);
        check("latency: single flits on an idle link arrive", lat_n == 24 && bad[0] == 0, why);
        wait_drained(20000);

        // -------------------------------------------------------- throughput
        // one way saturated (A to B), the receiver always draining
        traffic(0, 100, 100);
        s_end[0] = s_idx[0] + 100000;
        cycles(3000);
        r0 = r_idx[0];
        t_start = $realtime;
        cycles(quick ? 6000 : 15000);
        thr = (r_idx[0] - r0) / (($realtime - t_start) / (2.0 * half_a));
        $display("MEASURE %0s throughput_one_way_flits_per_cycle %0.5f", NAME, thr);
        // both ways saturated
        s_end[1] = s_idx[1] + 100000;
        cycles(3000);
        r0 = r_idx[0]; d0 = r_idx[1];
        t_start = $realtime;
        cycles(quick ? 6000 : 15000);
        thr = (r_idx[0] - r0) / (($realtime - t_start) / (2.0 * half_a));
        $display("MEASURE %0s throughput_both_ways_flits_per_cycle %0.5f", NAME, thr);
        thr = (r_idx[1] - d0) / (($realtime - t_start) / (2.0 * half_a));
        $display("MEASURE %0s throughput_both_ways_reverse_flits_per_cycle %0.5f", NAME, thr);
        s_end[0] = s_idx[0]; s_end[1] = s_idx[1];
        wait_drained(20000);
        $sformat(why, "errors %0d/%0d, drained %0d %0d", bad[0], bad[1], drained(0), drained(1));
        $display("MEASURE %0s clean_until_throughput_refused_at_b %0d refused_at_a %0d",
                 NAME, err_count[16 +: 16], err_count[0 +: 16]);
        check("throughput: saturated both ways, all delivered", bad[0] == 0 && bad[1] == 0 &&
              drained(0) && drained(1) && link_fault == 2'b00, why);

        // -------------------------------------------------------- reset of one side
        traffic(100000, 70, 50);
        cycles(2000 + (($random(seed) & 32'h7fffffff) % 500));
        rst_b = 1'b1;                              // B's board is reset (its models too)
        s_rst[1] = 1; r_rst[0] = 1;
        s_end[1] = s_idx[1];
        cycles(5);
        rst_b = 1'b0;
        r_before = r_idx[1];                       // what A had received from B
        t0 = 0;
        while (!link_fault[0] && t0 < 20000) begin cycles(1); t0 = t0 + 1; end
        $sformat(why, "A fault %b cause %0d after %0d cycles", link_fault[0], fault_cause[1:0], t0);
        check("reset: A fails when B is reset (fail-stop)", link_fault[0] == 1'b1, why);
        cycles(quick ? 4000 : 10000);
        $sformat(why, "A fault %b, B up %b fault %b, A received %0d flits after B's reset, errors %0d/%0d",
                 link_fault[0], link_up[1], link_fault[1], r_idx[1] - r_before, bad[0], bad[1]);
        check("reset: B stays down while A is failed; nothing wrong delivered either way",
              link_fault[0] == 1'b1 && link_up[1] == 1'b0 && link_fault[1] == 1'b0 &&
              bad[0] == 0 && bad[1] == 0, why);
        // the board top resets A's tile on its fault
        rst_a = 1'b1;
        models_reset(4000);
        cycles(3);
        rst_a = 1'b0;
        wait_up(20000);
        $sformat(why, "not up %0d cycles after A's reset (A up %b fault %b, B up %b fault %b)", waited,
                 link_up[0], link_fault[0], link_up[1], link_fault[1]);
        check("reset: after A's reset too, the link comes up", link_up == 2'b11, why);
        traffic(n_flits, 60, 40);
        wait_drained(n_flits * 400 + 20000);
        $sformat(why, "A->B %0d/%0d B->A %0d/%0d errors %0d/%0d", r_idx[0] - 4000, s_idx[0] - 4000,
                 r_idx[1] - 4000, s_idx[1] - 4000, bad[0], bad[1]);
        check("reset: then traffic flows clean, every credit back", drained(0) && drained(1) &&
              bad[0] == 0 && bad[1] == 0 && link_fault == 2'b00, why);

        // -------------------------------------------------------- bit error
        traffic(100000, 100, 60);
        cycles(1500);
        e_b = err_count[16 +: 16]; r_a = retry_count[0 +: 16];
        @(posedge clk_a);
        flip_ab[0] = 1'b1;                         // lane 0 inverted for two symbols
        #(4.0 * half_a * OVERSAMPLE);
        flip_ab[0] = 1'b0;
        s_before = s_idx[0];
        if (RETRY == 0) begin
            t0 = 0;
            while (!link_fault[1] && t0 < 5000) begin cycles(1); t0 = t0 + 1; end
            s_end[0] = s_idx[0]; s_end[1] = s_idx[1];
            cycles(2000);
            $sformat(why, "B fault %b cause %0d after %0d cycles; A fault %b cause %0d; errors %0d/%0d",
                     link_fault[1], fault_cause[3:2], t0, link_fault[0], fault_cause[1:0], bad[0], bad[1]);
            check("biterror: a flipped lane is caught (B fails: crc or framing, A follows), no damaged flit delivered",
                  link_fault[1] == 1'b1 && (fault_cause[3:2] == 2'd2 || fault_cause[3:2] == 2'd3) &&
                  link_fault[0] == 1'b1 && bad[0] == 0 && bad[1] == 0, why);
            $sformat(why, "err_count %0d %0d, retry_count %0d %0d", err_count[0 +: 16], err_count[16 +: 16],
                     retry_count[0 +: 16], retry_count[16 +: 16]);
            check("biterror: RETRY = 0 counts nothing (err_count, retry_count 0)",
                  err_count == 32'd0 && retry_count == 32'd0, why);
        end else begin
            cycles(3000);
            s_end[0] = s_idx[0]; s_end[1] = s_idx[1];
            wait_drained(20000);
            $sformat(why, "B refused %0d frames, A resent %0d flits; up %b fault %b cause %0d/%0d; A->B %0d/%0d B->A %0d/%0d errors %0d/%0d",
                     err_count[16 +: 16] - e_b, retry_count[0 +: 16] - r_a, link_up, link_fault,
                     fault_cause[1:0], fault_cause[3:2], r_idx[0], s_idx[0], r_idx[1], s_idx[1], bad[0], bad[1]);
            check("biterror: a flipped lane is refused and sent again (B counts it, A resends it), the link stays up; all delivered once, in order, intact; every credit back",
                  err_count[16 +: 16] > e_b && retry_count[0 +: 16] > r_a && link_up == 2'b11 &&
                  link_fault == 2'b00 && drained(0) && drained(1) && bad[0] == 0 && bad[1] == 0, why);
            noise_scenarios;
        end

        // -------------------------------------------------------- unplugged
        rst_a = 1'b1; rst_b = 1'b1;
        models_reset(8000);
        rst_a = 1'b0; rst_b = 1'b0;
        wait_up(20000);
        traffic(100000, 50, 50);
        cycles(1000);
        @(posedge phy_a.rx.ok);                    // pulled out between two frames
        cut_ba = 1'b1;
        t0 = 0;
        while (!(link_fault[0] && link_fault[1]) && t0 < 40000) begin cycles(1); t0 = t0 + 1; end
        s_end[0] = s_idx[0]; s_end[1] = s_idx[1];
        $sformat(why, "after %0d cycles: A fault %b cause %0d, B fault %b cause %0d, errors %0d/%0d", t0,
                 link_fault[0], fault_cause[1:0], link_fault[1], fault_cause[3:2], bad[0], bad[1]);
        check("unplug: the B-to-A cable pulled: A fails with silence, B with restart",
              link_fault == 2'b11 && fault_cause[1:0] == 2'd1 && fault_cause[3:2] == 2'd0 &&
              bad[0] == 0 && bad[1] == 0, why);
        cut_ba = 1'b0;

        // -------------------------------------------------------- the checker itself
        rst_a = 1'b1; rst_b = 1'b1;
        models_reset(12000);
        rst_a = 1'b0; rst_b = 1'b0;
        wait_up(20000);
        r_before = bad[0] + bad[1];
        corrupt[0] = 1; corrupt[1] = 1;
        traffic(20, 100, 100);
        wait_drained(20 * 400 + 5000);
        $sformat(why, "%0d delivery errors counted, 2 expected", bad[0] + bad[1] - r_before);
        check("checker: a bit flipped after the PHY (in the model) is counted",
              bad[0] + bad[1] - r_before == 2, why);

        $display("DONE link[%0s] %0d failed checks", NAME, failures);
        done = 1'b1;
    end
endmodule
