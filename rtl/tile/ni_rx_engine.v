// SPDX-License-Identifier: ISC
// ni_rx_engine: the receive engine of one NI port (tile_ni has one per port). It drains
// the router's ejection channel of its port into RAM, in one of two modes:
//   raw  (NI version 2's RX DMA): up to `raw_count` flits into RAM from `raw_addr` on,
//        stopping early after a worm's last flit (the core has read the head and info);
//   plan (version 3, while `plan_mode`): every worm is a put or a signal of the plan
//        protocol (rtl/tile/README.md, "Plans"): head, info (source, length), put flit,
//        payload. A put's payload goes to its window at the word offset it names, and the
//        counter it names counts the worm once all of it is in RAM; a signal only counts.
//        A put with its `lines` bit (put flit bit 26) is counted a line at a time instead:
//        1 for every RAM line written of it, as it is written (1 for a put without payload),
//        so that a relay of it can follow it line by line (ni_tx_engine's paced sends).
// Words are gathered into a line buffer and written a line (LINE_WORDS words, byte
// strobes for the words present) per RAM access; a second buffer holds the line waiting
// for the RAM while the next one fills, so the port takes a flit every cycle.
// Checks (plan mode): a put for a window it does not fit, of another kind, or of an
// epoch that is neither this NI's nor the next is unexpected: it is drained, nothing of
// it is written, and err_valid reports it (err_kind 1). A put of the next epoch waits in
// the network until the core moves EPOCH on (the node has not started that plan yet). A
// worm shorter or longer than its info flit says is malformed (err_kind 2): the words
// written stay inside the window, the rest is drained, the counter does not count it (a
// put counted by lines: the lines written before the error was seen stay counted).
// With COMBINE = 1 a put may also be a *combining* put (kinds 2-9, rtl/tile/README.md
// "Plans"): its words are combined with the words in RAM (sum, and, or, xor, min, max) by
// tile_ni at the RAM port; the engine hands each line over with its kind in m_op (0: a
// plain write). With COMBINE = 0 those kinds are unexpected worms, as any unknown kind.
module ni_rx_engine #(
    parameter AW         = 15,          // RAM word-index bits
    parameter LINE_WORDS = 16,          // words per RAM access (a power of two)
    parameter COMBINE    = 0,           // 1: combining puts (kinds 2-9) are taken
    parameter LB         = (LINE_WORDS <= 1) ? 0 : $clog2(LINE_WORDS)   // derived
) (
    input  wire                       clk,
    input  wire                       rst,
    // raw mode (v2 DMA)
    input  wire                       raw_start,
    input  wire [AW-1:0]              raw_addr,
    input  wire [AW:0]                raw_count,    // words (> 0)
    input  wire                       raw_stop,
    output wire                       raw_busy,     // words to move, or a line to write
    output reg  [AW:0]                raw_left,     // words not moved
    output reg  [AW-1:0]              raw_next,     // word index of the next word
    output reg                        raw_end_last, // stopped after a worm's last flit
    // plan mode (v3)
    input  wire                       plan_mode,
    input  wire [4*AW-1:0]            win_base,     // window w: first word index
    input  wire [4*(AW+1)-1:0]        win_words,    // window w: words (0: closed)
    input  wire [3:0]                 epoch,
    output wire                       plan_busy,    // inside a worm, or its line not yet written
    output reg                        inc_valid,    // pulse: count a worm on counter inc_id
    output reg  [3:0]                 inc_id,
    output reg                        err_valid,    // pulse: a worm was refused
    output reg  [1:0]                 err_kind,     // 1 unexpected, 2 malformed
    output reg  [15:0]                err_src,      // its source (the info flit)
    // the router's ejection channel (the engine's pops; tile_ni adds the core's)
    input  wire                       ej_valid,
    input  wire [31:0]                ej_data,
    input  wire                       ej_last,
    output wire                       ej_pop,
    // RAM (through tile_ni's arbiter): a line write, done in the cycle of the grant
    output wire                       m_req,
    output wire [AW-LB-1:0]           m_line,
    output wire [LINE_WORDS-1:0]      m_wmask,      // the words written
    output wire [32*LINE_WORDS-1:0]   m_wdata,
    output wire [3:0]                 m_op,         // 0: a write; 2-9: combine (the put's kind)
    input  wire                       m_grant
);
    localparam L = LINE_WORDS;
    localparam [AW-1:0] LMASK = L[AW-1:0] - {{(AW-1){1'b0}}, 1'b1};

    // ------------------------------------------------------------------ line buffers
    // ab: the line being assembled; fb: the line waiting for the RAM (with, when it is a
    // worm's last, the counter to count it on)
    reg  [AW-LB-1:0]  ab_line, fb_line;
    reg  [32*L-1:0]   ab_data, fb_data;
    reg  [L-1:0]      ab_mask, fb_mask;
    reg               fb_valid, fb_inc;
    reg  [3:0]        fb_inc_id;
    reg  [3:0]        fb_op;
    wire              ab_any  = ab_mask != {L{1'b0}};
    wire              fb_free = !fb_valid || m_grant;      // fb can take a line this cycle
    assign m_req   = fb_valid;
    assign m_line  = fb_line;
    assign m_wmask = fb_mask;
    assign m_wdata = fb_data;
    assign m_op    = fb_op;

    // ------------------------------------------------------------------ the worm
    localparam R_IDLE = 3'd0, R_HEAD = 3'd1, R_INFO = 3'd2, R_PUT = 3'd3, R_PAY = 3'd4,
               R_FLUSH = 3'd5, R_DRAIN = 3'd6, R_RAW = 3'd7;
    reg  [2:0]    state;
    reg  [15:0]   w_flits;       // the info flit's length
    reg  [15:0]   w_src;
    reg  [AW-1:0] w_ptr;         // word index of the next payload word
    reg  [AW:0]   w_left;        // payload words still to come
    reg  [3:0]    w_cnt;         // counter to count the worm on
    reg           w_count_it;    // R_FLUSH: count the worm when its last line is written
    reg           w_lines;       // count it a line at a time (its put's lines bit)
    reg           w_drain;       // R_FLUSH: the worm goes on (too long): drain it after
    reg  [3:0]    w_op;          // 0, or the combining put's kind

    // the put flit at the front (R_PUT)
    wire [15:0]   put_off   = ej_data[15:0];
    wire [1:0]    put_win   = ej_data[17:16];
    wire [3:0]    put_cnt   = ej_data[21:18];
    wire [3:0]    put_epoch = ej_data[25:22];
    wire          put_lines = ej_data[26];
    wire          put_rsv   = ej_data[27];
    wire [3:0]    put_kind  = ej_data[31:28];
    wire [AW-1:0] pw_base   = win_base[AW * put_win +: AW];
    wire [AW:0]   pw_words  = win_words[(AW + 1) * put_win +: AW + 1];
    wire [15:0]   p_words   = w_flits - 16'd3;                         // payload words
    wire [31:0]   p_end     = {16'd0, put_off} + {16'd0, p_words};     // window offset after it
    // fits its window, which must be open (a put with no payload fits a closed one else)
    wire          p_fits    = p_end <= {{(31-AW){1'b0}}, pw_words} && pw_words != {(AW+1){1'b0}};
    wire          p_now     = put_epoch == epoch;
    wire          p_next    = put_epoch == epoch + 4'd1;
    wire          p_short   = w_flits < 16'd3;
    // put: kind 0, this epoch, fits its window; signal: kind 1, no payload, any epoch
    wire          p_signal  = put_kind == 4'd1 && !put_rsv && !put_lines;
    wire          p_comb    = COMBINE != 0 && put_kind >= 4'd2 && put_kind <= 4'd9;
    wire          p_put     = (put_kind == 4'd0 || p_comb) && !put_rsv;

    // ------------------------------------------------------------------ moving words
    // a payload word (R_PAY, R_RAW) goes into ab at w_ptr; ab moves to fb when it is full,
    // when the next word belongs to another line, or at the worm's end (R_FLUSH)
    wire          pay_state = state == R_PAY || state == R_RAW;
    wire [AW-LB-1:0] w_line = w_ptr[AW-1:LB];
    wire [AW-1:0] w_off_w   = w_ptr & LMASK;
    wire [LB:0]   w_off     = w_off_w[LB:0];
    wire          ab_full   = ab_mask == {L{1'b1}};
    wire          other     = ab_any && ab_line != w_line;
    wire          move      = ab_any && fb_free &&
                              (ab_full || state == R_FLUSH || (pay_state && ej_valid && other));
    wire          word_fits = !ab_any || move || !other;
    wire          take_word = pay_state && ej_valid && word_fits && w_left != {(AW+1){1'b0}} &&
                              !(state == R_RAW && raw_stop);

    // ------------------------------------------------------------------ pops
    reg           pop;
    always @(*) begin
        case (state)
            R_HEAD, R_INFO, R_DRAIN: pop = ej_valid;
            R_PUT:   pop = ej_valid && !(p_put && !p_short && p_next);   // a next-epoch put waits
            R_PAY, R_RAW: pop = take_word;
            default: pop = 1'b0;
        endcase
    end
    assign ej_pop = pop;

    assign raw_busy  = !plan_mode && (state == R_RAW || state == R_FLUSH || state == R_DRAIN ||
                                      ab_any || fb_valid);
    assign plan_busy = plan_mode && (state != R_HEAD || ab_any || fb_valid);

    // a refused put or signal: malformed (its length is wrong) or unexpected (anything else)
    wire          p_malformed = p_short || (p_signal && (w_flits != 16'd3 || !ej_last)) ||
                                (p_put && p_now && p_fits && ((p_words == 16'd0) != ej_last));
    wire          last_word   = w_left == {{AW{1'b0}}, 1'b1};
    wire [2:0]    after_flush = w_drain ? R_DRAIN : plan_mode ? R_HEAD : R_IDLE;

    // ------------------------------------------------------------------ the state machine
    wire [L-1:0]  word_bit = {{(L-1){1'b0}}, 1'b1} << w_off;
    integer k;
    always @(posedge clk) begin
        if (rst) begin
            state        <= R_IDLE;
            ab_mask      <= {L{1'b0}};
            fb_valid     <= 1'b0;
            fb_inc       <= 1'b0;
            w_left       <= {(AW+1){1'b0}};
            w_count_it   <= 1'b0;
            w_lines      <= 1'b0;
            w_drain      <= 1'b0;
            raw_left     <= {(AW+1){1'b0}};
            inc_valid    <= 1'b0;
            err_valid    <= 1'b0;
            begin
                raw_next     <= {AW{1'b0}};
                raw_end_last <= 1'b0;
                err_kind     <= 2'd0;
                err_src      <= 16'd0;
                inc_id       <= 4'd0;
                w_ptr        <= {AW{1'b0}};
                w_flits      <= 16'd0;
                w_src        <= 16'd0;
                w_cnt        <= 4'd0;
                ab_line      <= {(AW-LB){1'b0}};
                fb_line      <= {(AW-LB){1'b0}};
                fb_inc_id    <= 4'd0;
                fb_op        <= 4'd0;
                w_op         <= 4'd0;
            end
        end else begin
            inc_valid <= 1'b0;
            err_valid <= 1'b0;
            // the RAM wrote fb: count its worm if it was the last line of one
            if (m_grant) begin
                fb_valid <= 1'b0;
                if (fb_inc) begin
                    inc_valid <= 1'b1;
                    inc_id    <= fb_inc_id;
                end
            end
            // ab -> fb
            if (move) begin
                fb_valid  <= 1'b1;
                fb_line   <= ab_line;
                fb_data   <= ab_data;
                fb_mask   <= ab_mask;
                fb_inc    <= w_count_it && (state == R_FLUSH || w_lines);
                fb_inc_id <= w_cnt;
                fb_op     <= w_op;
            end
            // a word into ab (a fresh line if ab moved out or was empty)
            if (take_word) begin
                for (k = 0; k < L; k = k + 1)
                    if (word_bit[k]) ab_data[32 * k +: 32] <= ej_data;
                ab_line  <= w_line;
                ab_mask  <= ((move || !ab_any) ? {L{1'b0}} : ab_mask) | word_bit;
                w_ptr    <= w_ptr + {{(AW-1){1'b0}}, 1'b1};
                w_left   <= w_left - {{AW{1'b0}}, 1'b1};
            end else if (move)
                ab_mask <= {L{1'b0}};

            case (state)
                R_IDLE: begin
                    if (plan_mode) state <= R_HEAD;
                    else if (raw_start) begin
                        state        <= R_RAW;
                        w_ptr        <= raw_addr;
                        w_left       <= raw_count;
                        raw_left     <= raw_count;
                        raw_next     <= raw_addr;
                        raw_end_last <= 1'b0;
                        w_count_it   <= 1'b0;
                        w_op         <= 4'd0;
                        w_drain      <= 1'b0;
                    end
                end
                R_HEAD: begin
                    if (!plan_mode) state <= R_IDLE;
                    else if (ej_valid) begin
                        if (ej_last) begin          // a one-flit worm: malformed
                            err_valid <= 1'b1;
                            err_kind  <= 2'd2;
                            err_src   <= 16'hffff;
                        end else
                            state <= R_INFO;
                    end
                end
                R_INFO: if (ej_valid) begin
                    w_flits <= ej_data[31:16];
                    w_src   <= ej_data[15:0];
                    if (ej_last) begin
                        err_valid <= 1'b1;
                        err_kind  <= 2'd2;
                        err_src   <= ej_data[15:0];
                        state     <= R_HEAD;
                    end else
                        state <= R_PUT;
                end
                R_PUT: if (ej_valid) begin
                    w_drain <= 1'b0;
                    if (p_signal && ej_last && w_flits == 16'd3) begin
                        // a signal: counted once every earlier worm's data is written
                        w_cnt      <= put_cnt;
                        w_count_it <= 1'b1;
                        w_lines    <= 1'b0;
                        state      <= R_FLUSH;
                    end else if (p_put && !p_short && p_now && p_fits &&
                                 (p_words == 16'd0) == ej_last) begin
                        w_ptr      <= pw_base + put_off[AW-1:0];
                        w_left     <= p_end[AW:0] - {1'b0, put_off[AW-1:0]};
                        w_cnt      <= put_cnt;
                        w_count_it <= 1'b1;
                        w_lines    <= put_lines;
                        w_op       <= p_comb ? put_kind : 4'd0;
                        state      <= p_words == 16'd0 ? R_FLUSH : R_PAY;
                    end else if (p_put && !p_short && p_next) begin
                        // the next plan's: it waits, unpopped, until EPOCH moves on
                    end else begin
                        err_valid <= 1'b1;
                        err_src   <= w_src;
                        err_kind  <= p_malformed ? 2'd2 : 2'd1;
                        state     <= ej_last ? R_HEAD : R_DRAIN;
                    end
                end
                R_PAY: if (take_word && (ej_last || last_word)) begin
                    // the worm ends, or its payload does: right only if both
                    if (ej_last != last_word) begin
                        err_valid  <= 1'b1;
                        err_kind   <= 2'd2;
                        err_src    <= w_src;
                        w_count_it <= 1'b0;
                        w_left     <= {(AW+1){1'b0}};
                    end
                    w_drain <= !ej_last;
                    state   <= R_FLUSH;
                end
                R_FLUSH: begin
                    // the worm's last line goes to fb (which then counts the worm when the
                    // RAM has written it); with nothing to write, count it once the earlier
                    // lines are written
                    if (ab_any) begin
                        if (move) state <= after_flush;
                    end else if (!w_count_it)
                        state <= after_flush;
                    else if (!fb_valid) begin
                        inc_valid  <= 1'b1;
                        inc_id     <= w_cnt;
                        w_count_it <= 1'b0;
                        state      <= after_flush;
                    end
                end
                R_DRAIN: if (ej_valid && ej_last) state <= plan_mode ? R_HEAD : R_IDLE;
                R_RAW: begin
                    if (raw_stop) begin
                        // stopped: write what has come (at once idle when nothing has)
                        w_left <= {(AW+1){1'b0}};
                        state  <= ab_any ? R_FLUSH : R_IDLE;
                    end else if (take_word) begin
                        raw_left <= raw_left - {{AW{1'b0}}, 1'b1};
                        raw_next <= raw_next + {{(AW-1){1'b0}}, 1'b1};
                        if (ej_last) raw_end_last <= 1'b1;
                        if (ej_last || last_word) state <= R_FLUSH;
                    end
                end
                default: state <= R_IDLE;
            endcase
        end
    end

    // bits the engine does not use
    wire unused_rx = ^{w_off_w, p_end[31:16]};
endmodule
