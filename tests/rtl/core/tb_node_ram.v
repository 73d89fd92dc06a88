// SPDX-License-Identifier: ISC
// Unit test of node_ram's dual-ported form (SP_BANKS = 0; run by test_node_ram.sh: verilator
// --binary --timing). One RAM per line width (1, 4 and 16 words) of 64 lines, driven with
// random addresses from a few lines so that port I reads the word port D writes in the same
// cycle most of the time, and random byte masks. Every cycle both read ports are compared
// with a model (a plain array): i_data and d_data are the words as they were before the
// cycle's write (port I whatever port D does, port D read-before-write).
`timescale 1ns/1ps
module tb_node_ram;
    reg clk = 1'b0;
    always #5 clk = !clk;
    integer failures = 0;
    integer checks   = 0;

    bench #(.LINE_WORDS(1))  b1  (.clk(clk));
    bench #(.LINE_WORDS(4))  b4  (.clk(clk));
    bench #(.LINE_WORDS(16)) b16 (.clk(clk));

    initial begin
        repeat (20000) @(posedge clk);
        #1;
        failures = b1.failures + b4.failures + b16.failures;
        checks   = b1.checks + b4.checks + b16.checks;
        if (b1.failures == 0)  $display("PASS node-ram-line1 (%0d cycles, %0d I-port clashes)", b1.checks, b1.clashes);
        else                   $display("FAIL node-ram-line1: %0d mismatches", b1.failures);
        if (b4.failures == 0)  $display("PASS node-ram-line4 (%0d cycles, %0d I-port clashes)", b4.checks, b4.clashes);
        else                   $display("FAIL node-ram-line4: %0d mismatches", b4.failures);
        if (b16.failures == 0) $display("PASS node-ram-line16 (%0d cycles, %0d I-port clashes)", b16.checks, b16.clashes);
        else                   $display("FAIL node-ram-line16: %0d mismatches", b16.failures);
        if (b1.clashes < 1000 || b4.clashes < 1000 || b16.clashes < 1000) begin
            $display("FAIL node-ram-clashes: too few cycles where port I reads what port D writes");
            failures = failures + 1;
        end
        $display("DONE %0d failed checks", (b1.failures != 0) + (b4.failures != 0) + (b16.failures != 0) +
                 ((b1.clashes < 1000 || b4.clashes < 1000 || b16.clashes < 1000) ? 1 : 0));
        $finish;
    end
endmodule

module bench #(parameter LINE_WORDS = 4) (input wire clk);
    localparam LB        = (LINE_WORDS <= 1) ? 0 : $clog2(LINE_WORDS);
    localparam LINES     = 64;
    localparam WORDS     = LINES * LINE_WORDS;
    localparam ADDR_BITS = $clog2(WORDS);
    integer failures = 0, checks = 0, clashes = 0;

    reg  [ADDR_BITS-1:0]         i_addr = 0;
    reg                          d_enable = 0;
    reg  [4*LINE_WORDS-1:0]      d_wstrb = 0;
    reg  [ADDR_BITS-LB-1:0]      d_line = 0;
    reg  [32*LINE_WORDS-1:0]     d_wdata = 0;
    wire [31:0]                  i_data;
    wire [32*LINE_WORDS-1:0]     d_data;

    node_ram #(.WORDS(WORDS), .ADDR_BITS(ADDR_BITS), .LINE_WORDS(LINE_WORDS)) dut (
        .clk(clk), .i_addr(i_addr), .i_data(i_data), .d_enable(d_enable), .d_wstrb(d_wstrb),
        .d_line(d_line), .d_wdata(d_wdata), .d_data(d_data));

    // the model and what each port must show after the edge
    reg [31:0]               model [0:WORDS-1];
    reg [31:0]               want_i;
    reg [32*LINE_WORDS-1:0]  want_d;
    reg                      want_d_valid = 0;
    reg                      started = 0;
    integer k, b, seed;

    initial begin
        seed = LINE_WORDS;
        for (k = 0; k < WORDS; k = k + 1) model[k] = 32'd0;
        // the same contents in the RAM: a first pass writing every line with zeros
        for (k = 0; k < LINES; k = k + 1) begin
            @(negedge clk);
            d_enable = 1'b1; d_line = k[ADDR_BITS-LB-1:0]; d_wstrb = {(4*LINE_WORDS){1'b1}};
            d_wdata = {(32*LINE_WORDS){1'b0}};
        end
        @(negedge clk);
        d_enable = 1'b0;
        @(negedge clk);
        started = 1'b1;
        forever begin
            // drive the next cycle's requests (lines 0..3 only: clashes are frequent)
            i_addr = {$random(seed)} % (4 * LINE_WORDS);
            d_enable = ($random(seed) & 3) != 0;
            d_line = ($random(seed) & 1) ? i_addr[ADDR_BITS-1:LB] : {$random(seed)} % 4;
            for (k = 0; k < 4 * LINE_WORDS; k = k + 1) d_wstrb[k] = ($random(seed) & 1) != 0;
            if (($random(seed) & 3) == 0) d_wstrb = 0;                      // a read
            for (k = 0; k < LINE_WORDS; k = k + 1) d_wdata[32*k +: 32] = $random(seed);
            @(posedge clk);
            // the values before this edge's write
            want_i = model[i_addr];
            if (d_enable) begin
                for (k = 0; k < LINE_WORDS; k = k + 1) want_d[32*k +: 32] = model[d_line * LINE_WORDS + k];
                want_d_valid = 1'b1;
                if (d_line == i_addr[ADDR_BITS-1:LB] && d_wstrb[4*(i_addr % LINE_WORDS) +: 4] != 0)
                    clashes = clashes + 1;
                for (k = 0; k < LINE_WORDS; k = k + 1)
                    for (b = 0; b < 4; b = b + 1)
                        if (d_wstrb[4*k + b]) model[d_line * LINE_WORDS + k][8*b +: 8] = d_wdata[32*k + 8*b +: 8];
            end
            @(negedge clk);
            checks = checks + 1;
            if (i_data !== want_i) begin
                failures = failures + 1;
                if (failures <= 5) $display("line%0d: i_data %h, want %h", LINE_WORDS, i_data, want_i);
            end
            if (want_d_valid && d_data !== want_d) begin
                failures = failures + 1;
                if (failures <= 5) $display("line%0d: d_data %h, want %h", LINE_WORDS, d_data, want_d);
            end
        end
    end
endmodule
