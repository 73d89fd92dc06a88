// SPDX-License-Identifier: ISC
// Two real routers joined through two link_phy (test_link_routers.sh, verilator --binary
// --timing): noc_router A at (0,0) and B at (1,0) of a 2x1 mesh, each on its own clock
// (B 400 ppm slow, started 9 ns later); A's port 0 (+x) goes out through PHY A, over the
// pins, through PHY B into B's port 1 (-x), and back. Each node injects worms for the
// other (head with dx = +1 or -1, the info flit, 0..7 payload words numbered in sequence)
// on the injection channel of that port, and drains its ejection channel with random
// back-pressure, so the routers' own credits cross the link. Checks: every worm arrives,
// on the ejection channel of the port it came in by, head rewritten to dx = 0, payload
// words in order and intact; neither router counts an error (a flit into a full buffer
// would be one); nothing refused at injection; both PHYs up, no fault.
// RETRY is the PHYs'; with NOISE (per 100,000 cycles, RETRY 1) each cycle may invert one
// lane of either direction for one symbol (damaged frames, false starts): the worms must
// still all arrive intact, in order, the routers' credits must stay exact (no router
// error), and the PHYs count what they refused and resent.
`timescale 1ps / 1fs
module tb_link_routers #(
    parameter RETRY = 1,
    parameter NOISE = 0,
    parameter TAG   = "retry1"
);
    localparam W = 32, VCS = 2, VB = 1, P = 4, BUF = 4;
    localparam WORMS = 80;

    reg clk_a = 1'b0;
    reg clk_b = 1'b0;
    real half_a, half_b;
    initial begin
        half_a = 20833.333;
        half_b = 20833.333 * (1.0 + 400.0e-6);
    end
    initial begin
        #1;
        forever #(half_a) clk_a = !clk_a;
    end
    initial begin
        #(9000.0);
        forever #(half_b) clk_b = !clk_b;
    end
    reg rst_a = 1'b1;
    reg rst_b = 1'b1;

    // ------------------------------------------------------------------ routers
    // side s (0 = A, 1 = B); A's link port is 0 (+x), B's is 1 (-x)
    wire [1:0] link_up, link_fault;
    wire [1:0] pins_ab, pins_ba;
    wire [31:0] phy_errs, phy_retries;     // [side*16 +: 16]
    reg  [1:0] noise_ab = 2'b00;           // inverted lanes, after the cable
    reg  [1:0] noise_ba = 2'b00;
    integer    noise_seed = 77, noise_lane, hold_ab = 0, hold_ba = 0;
    integer    noise_hits = 0;
    always @(posedge clk_b) begin          // damage on the way to B, in B's cycles
        if (hold_ab > 0) begin
            hold_ab = hold_ab - 1;
            if (hold_ab == 0) noise_ab <= 2'b00;
        end else if (NOISE > 0 && !rst_b && (($random(noise_seed) & 32'h7fffffff) % 100000) < NOISE) begin
            noise_lane = ($random(noise_seed) & 32'h7fffffff) % 2;
            noise_ab <= 2'b01 << noise_lane;
            hold_ab = 3;
            noise_hits = noise_hits + 1;
        end
    end
    always @(posedge clk_a) begin          // and to A
        if (hold_ba > 0) begin
            hold_ba = hold_ba - 1;
            if (hold_ba == 0) noise_ba <= 2'b00;
        end else if (NOISE > 0 && !rst_a && (($random(noise_seed) & 32'h7fffffff) % 100000) < NOISE) begin
            noise_lane = ($random(noise_seed) & 32'h7fffffff) % 2;
            noise_ba <= 2'b01 << noise_lane;
            hold_ba = 3;
            noise_hits = noise_hits + 1;
        end
    end

    genvar s;
    generate
        for (s = 0; s < 2; s = s + 1) begin : node
            localparam integer K = s;            // this side's link port
            localparam [15:0]  SELF = s;
            localparam [15:0]  OTHER = 1 - s;
            wire clk = (s == 0) ? clk_a : clk_b;
            wire rst = (s == 0) ? rst_a : rst_b;
            wire [P-1:0]     lin_valid;
            wire [P*VB-1:0]  lin_vc;
            wire [P-1:0]     lin_last;
            wire [P*W-1:0]   lin_data;
            wire [P*VCS-1:0] lin_credit;
            wire [P-1:0]     lout_valid;
            wire [P*VB-1:0]  lout_vc;
            wire [P-1:0]     lout_last;
            wire [P*W-1:0]   lout_data;
            wire [P*VCS-1:0] lout_credit;
            reg  [P-1:0]     inj_valid;
            reg  [P-1:0]     inj_last;
            reg  [P*W-1:0]   inj_data;
            wire [P-1:0]     inj_ready;
            wire [P-1:0]     inj_error;
            wire [P-1:0]     ej_valid;
            reg  [P-1:0]     ej_ready;
            wire [P-1:0]     ej_last;
            wire [P*W-1:0]   ej_data;
            wire [15:0]      err_count;
            wire [1:0]       cause;
            wire [1:0]       tx;             // this side's pins out
            if (s == 0) begin : to_b
                assign pins_ab = tx;
            end else begin : to_a
                assign pins_ba = tx;
            end
            noc_router #(.DIMS(2), .FLIT_BITS(W), .BUF_DEPTH(BUF), .VCS(VCS)) router (
                .clk(clk), .rst(rst), .my_coord(s == 0 ? 24'h000000 : 24'h000001),
                .dim_size(24'h000102), .torus(1'b0), .inj_check_enable(1'b1),
                .lin_valid(lin_valid), .lin_vc(lin_vc), .lin_last(lin_last),
                .lin_data(lin_data), .lin_credit(lin_credit),
                .lout_valid(lout_valid), .lout_vc(lout_vc), .lout_last(lout_last),
                .lout_data(lout_data), .lout_credit(lout_credit),
                .inj_valid(inj_valid), .inj_ready(inj_ready), .inj_data(inj_data),
                .inj_last(inj_last), .inj_error(inj_error),
                .ej_valid(ej_valid), .ej_ready(ej_ready), .ej_data(ej_data),
                .ej_last(ej_last), .err_count(err_count), .buf_nonempty());
            // the other ports have no links (a mesh edge): inputs 0
            genvar k;
            for (k = 0; k < P; k = k + 1) begin : port
                if (k != K) begin : edge_port
                    assign lin_valid[k] = 1'b0;
                    assign lin_vc[k * VB +: VB] = {VB{1'b0}};
                    assign lin_last[k] = 1'b0;
                    assign lin_data[k * W +: W] = {W{1'b0}};
                    assign lout_credit[k * VCS +: VCS] = {VCS{1'b0}};
                end
            end
            link_phy #(.FLIT_BITS(W), .VCS(VCS), .BUF_DEPTH(BUF), .RETRY(RETRY)) phy (
                .clk(clk), .rst(rst),
                .lout_valid(lout_valid[K]), .lout_vc(lout_vc[K * VB +: VB]),
                .lout_last(lout_last[K]), .lout_data(lout_data[K * W +: W]),
                .lout_credit(lout_credit[K * VCS +: VCS]),
                .lin_valid(lin_valid[K]), .lin_vc(lin_vc[K * VB +: VB]),
                .lin_last(lin_last[K]), .lin_data(lin_data[K * W +: W]),
                .lin_credit(lin_credit[K * VCS +: VCS]),
                .tx_pin(tx), .rx_pin(s == 0 ? (pins_ba ^ noise_ba) : (pins_ab ^ noise_ab)),
                .link_up(link_up[s]), .link_fault(link_fault[s]),
                .fault_cause(cause), .err_count(phy_errs[s * 16 +: 16]),
                .retry_count(phy_retries[s * 16 +: 16]));

            // sender: WORMS worms for the other node on injection channel K
            integer rs, sent, pos, len, refused;
            reg [31:0] next_word;
            initial begin
                rs = 11 + 7 * s;
                sent = 0; pos = 0; len = 0;
                next_word = (s == 0) ? 32'h1000_0000 : 32'h2000_0000;
                inj_valid = {P{1'b0}}; inj_last = {P{1'b0}}; inj_data = {P*W{1'b0}};
                refused = 0;
            end
            always @(posedge clk) begin
                if (inj_error != {P{1'b0}}) refused = refused + 1;
                if (!rst && (!inj_valid[K] || inj_ready[K])) begin
                    inj_valid[K] <= 1'b0;
                    if (sent < WORMS && (($random(rs) & 32'h7fffffff) % 100) < 70) begin
                        if (pos == 0) len = 2 + (($random(rs) & 32'h7fffffff) % 8);
                        inj_valid[K] <= 1'b1;
                        if (pos == 0)        // dx = +1 from A, -1 from B; start dimension x
                            inj_data[K * W +: W] <= (s == 0) ? 32'h0000_0001 : 32'h0000_00ff;
                        else if (pos == 1)   // info: source, worm length
                            inj_data[K * W +: W] <= {len[15:0], SELF};
                        else begin
                            inj_data[K * W +: W] <= next_word;
                            next_word = next_word + 1;
                        end
                        inj_last[K] <= (pos == len - 1);
                        pos = pos + 1;
                        if (pos == len) begin
                            pos = 0;
                            sent = sent + 1;
                        end
                    end
                end
            end

            // receiver: the worms of the other node, on ejection channel K
            integer rr, got, at, bad, elsewhere;
            reg [31:0] want;
            initial begin
                rr = 23 + 5 * s;
                got = 0; at = 0; bad = 0; elsewhere = 0;
                want = (s == 0) ? 32'h2000_0000 : 32'h1000_0000;
                ej_ready = {P{1'b0}};
            end
            always @(posedge clk) begin
                ej_ready <= {P{(($random(rr) & 32'h7fffffff) % 100) < 55}};
                if ((ej_valid & ej_ready & ~(4'b0001 << K)) != 4'b0000)
                    elsewhere = elsewhere + 1;
                if (ej_valid[K] && ej_ready[K]) begin
                    if (at == 0 && ej_data[K * W +: 26] != 26'd0) bad = bad + 1;  // head: dx = 0
                    if (at == 1 && ej_data[K * W +: 16] != OTHER) bad = bad + 1;     // info: source
                    if (at >= 2) begin
                        if (ej_data[K * W +: W] !== want) begin
                            if (bad < 3) $display("ERROR node %0d got %h, expected %h", s, ej_data[K * W +: W], want);
                            bad = bad + 1;
                        end
                        want = want + 1;
                    end
                    at = ej_last[K] ? 0 : at + 1;
                    if (ej_last[K]) got = got + 1;
                end
            end
        end
    endgenerate

    // ------------------------------------------------------------------ the run
    integer t, failures;
    task check;
        input [8*160-1:0] name;
        input             ok;
        input [8*300-1:0] why;
        begin
            if (ok) $display("PASS link routers[%0s] %0s", TAG, name);
            else begin
                $display("FAIL link routers[%0s] %0s: %0s", TAG, name, why);
                failures = failures + 1;
            end
        end
    endtask
    reg [8*300-1:0] why;
    initial begin
        failures = 0;
        #(200000.0);
        rst_a = 1'b0;
        #(50000.0);
        rst_b = 1'b0;
        t = 0;
        while ((node[0].got < WORMS || node[1].got < WORMS) && t < 200000) begin
            @(posedge clk_a);
            t = t + 1;
        end
        $sformat(why, "A received %0d of %0d worms, B %0d of %0d, after %0d cycles", node[0].got, WORMS,
                 node[1].got, WORMS, t);
        check("every worm arrives both ways", node[0].got == WORMS && node[1].got == WORMS, why);
        $sformat(why, "%0d bad flits at A, %0d at B, %0d flits on other ejection channels",
                 node[0].bad, node[1].bad, node[0].elsewhere + node[1].elsewhere);
        check("on the right ejection channel, heads rewritten, payload in order and intact",
              node[0].bad == 0 && node[1].bad == 0 && node[0].elsewhere + node[1].elsewhere == 0, why);
        $sformat(why, "err_count A %0d B %0d, worms refused at injection A %0d B %0d", node[0].err_count,
                 node[1].err_count, node[0].refused, node[1].refused);
        check("no router error (no flit into a full buffer), nothing refused",
              node[0].err_count == 16'd0 && node[1].err_count == 16'd0 &&
              node[0].refused == 0 && node[1].refused == 0, why);
        $sformat(why, "up %b fault %b", link_up, link_fault);
        check("both PHYs up, no fault", link_up == 2'b11 && link_fault == 2'b00, why);
        $display("MEASURE routers[%0s] cycles %0d noise_hits %0d refused_at_a %0d refused_at_b %0d resent_by_a %0d resent_by_b %0d",
                 TAG, t, noise_hits, phy_errs[15:0], phy_errs[31:16], phy_retries[15:0], phy_retries[31:16]);
        $sformat(why, "refused at A %0d, at B %0d; resent by A %0d, by B %0d (%0d hits)", phy_errs[15:0],
                 phy_errs[31:16], phy_retries[15:0], phy_retries[31:16], noise_hits);
        if (NOISE > 0)
            check("under noise: both PHYs refused damaged frames and resent at least as many flits (err_count > 0, retry_count >= err_count)",
                  phy_errs[15:0] > 0 && phy_errs[31:16] > 0 && phy_retries[31:16] >= phy_errs[15:0] &&
                  phy_retries[15:0] >= phy_errs[31:16], why);
        else
            check("without damage: nothing refused, nothing resent (err_count, retry_count 0)",
                  phy_errs == 32'd0 && phy_retries == 32'd0, why);
        $display("DONE link routers %0d failed checks", failures);
        $finish;
    end
    initial begin
        #(64'd20_000_000_000);
        $display("FAIL link routers timeout: the run did not finish");
        $finish;
    end
endmodule
