// SPDX-License-Identifier: ISC
// link_rx: the receiving half of a board link (link_phy holds the protocol; the frame
// layout is drawn in rtl/link/README.md).
//
// The partner's pins change on the partner's clock, so every lane first crosses into this
// board's clock through two flip-flops (a synchronizer); nothing else of the receiver
// looks at a pin. Lane 0 going low while the receiver is armed starts a frame: counting
// from the cycle that low is seen, the receiver samples all lanes once per symbol,
// (OVERSAMPLE-1)/2 cycles into each OVERSAMPLE-cycle symbol (the middle, given the one
// cycle by which the start is uncertain), runs the check over every symbol, and looks for
// the stop symbol (lane 0 high) after the check bits. A frame that ends well gives one `ok`
// pulse with its fields (they stay still for at least OVERSAMPLE cycles after the pulse)
// and leaves the receiver armed: the next low is the next start. A frame whose check fails
// gives `bad_crc`, one without its stop bit `bad_stop`; after them, and after reset, the
// receiver does not know where frames begin, so it arms only once lane 0 has been high for
// a whole frame's length: no frame holds lane 0 high that long (its start bit is low), so
// the next low is a start. (A sender that is not up leaves such gaps between its frames.)
module link_rx #(
    parameter FLIT_BITS  = 32,
    parameter LANES      = 2,
    parameter OVERSAMPLE = 3,
    parameter HEAD_SYMS  = 3,     // set by link_phy: symbols of the head
    parameter DATA_SYMS  = 16,    // set by link_phy: symbols of the data
    parameter CRED_SYMS  = 1,     // set by link_phy: symbols of credit bits
    parameter CHECK_BITS = 8      // set by link_phy: the frame check (link_crc)
) (
    input  wire                 clk,
    input  wire                 rst,
    input  wire [LANES-1:0]     rx_pin,     // asynchronous: the partner's clock
    output reg                  ok,         // pulse: a frame ended with good check and stop bits
    output wire [HEAD_SYMS*LANES-1:0] fhead,  // its head (link_phy reads the fields)
    output wire [FLIT_BITS-1:0] fdata,      // the flit
    output wire [CRED_SYMS*LANES-1:0] ftail,  // its credit field
    output reg                  bad_crc,    // pulse: a frame failed its check
    output reg                  bad_stop,   // pulse: a frame had no stop bit
    output wire                 lost        // not armed: looking for a frame's length of lane 0 high
);
    localparam D   = LANES;
    localparam N   = OVERSAMPLE;
    localparam W   = FLIT_BITS;
    localparam PRE = HEAD_SYMS + DATA_SYMS + CRED_SYMS;   // symbols before the check bits
    localparam CK  = CHECK_BITS;
    localparam L   = PRE + CK / D;           // a frame, in symbols (stop symbol not counted)
    localparam SRW = PRE * D;
    localparam SW  = $clog2(L + 1);
    localparam PW  = $clog2(N);
    localparam M   = (N - 1) / 2;            // sample point within a symbol
    localparam [PW-1:0] PH_LAST = N[PW-1:0] - 1'b1;
    localparam [PW-1:0] PH_SAMP = M[PW-1:0];
    localparam [PW-1:0] PH_ONE  = 1;
    localparam [SW-1:0] S_STOP  = L[SW-1:0];

    // ------------------------------------------------------------------ synchronizer
    reg [D-1:0] sync1;
    reg [D-1:0] sync2;
    always @(posedge clk) begin
        sync1 <= rx_pin;
        sync2 <= sync1;
    end

    // ------------------------------------------------------------------ frames
    reg           busy;       // inside a frame
    reg           armed;      // the next low of lane 0 is a start (after a good frame, or
                              // after a frame's length of lane 0 high)
    reg  [PW-1:0] ph;         // cycle within the symbol (0: the start was seen)
    reg  [SW-1:0] sym;        // symbol sampled next
    reg  [CK-1:0] crc;
    // the frame's bits before its check bits, shifted in from the top (the start bit and
    // the padding are not read: synthesis drops them)
    reg  [SRW-1:0] sr;
    wire          samp = busy && ph == PH_SAMP;
    assign lost = !armed;
    wire [PW-1:0] ph_inc;
    wire [SW-1:0] sym_inc;
    link_add #(.WIDTH(PW)) ph_add (.a(ph), .b({{(PW - 1){1'b0}}, 1'b1}), .sum(ph_inc));
    link_add #(.WIDTH(SW)) sym_add (.a(sym), .b({{(SW - 1){1'b0}}, 1'b1}), .sum(sym_inc));
    reg           pre;        // the symbol sampled next comes before the check bits
    integer j;
    always @* begin
        pre = 1'b0;
        for (j = 0; j < PRE; j = j + 1) pre = pre | (sym == j[SW-1:0]);
    end
    wire [CK-1:0] crc_next;
    link_crc #(.BITS(D), .CHECK_BITS(CK)) crc_step (.crc_in(crc), .bits(sync2), .crc_out(crc_next));

    assign fhead = sr[0 +: HEAD_SYMS * D];
    assign fdata = sr[HEAD_SYMS * D +: W];
    assign ftail = sr[(HEAD_SYMS + DATA_SYMS) * D +: CRED_SYMS * D];

    always @(posedge clk) begin
        ok       <= 1'b0;
        bad_crc  <= 1'b0;
        bad_stop <= 1'b0;
        if (rst) begin
            busy  <= 1'b0;
            armed <= 1'b0;
            ph    <= {PW{1'b0}};
            sym   <= {SW{1'b0}};
        end else if (!busy) begin
            if (!sync2[0] && armed) begin
                busy <= 1'b1;                 // the start bit: this cycle is phase 0
                ph   <= PH_ONE;
                sym  <= {SW{1'b0}};
            end else if (!sync2[0] || armed) begin
                ph   <= {PW{1'b0}};           // (hunting: lane 0 low, count again)
                sym  <= {SW{1'b0}};
            end else begin                    // hunting: count symbols of lane 0 high
                ph <= (ph == PH_LAST) ? {PW{1'b0}} : ph_inc;
                if (ph == PH_LAST) sym <= sym_inc;
                if (sym == S_STOP) armed <= 1'b1;
            end
        end else begin
            ph <= (ph == PH_LAST) ? {PW{1'b0}} : ph_inc;
            if (samp) begin
                sym <= sym_inc;
                if (sym == {SW{1'b0}} && sync2[0]) begin
                    busy <= 1'b0;             // no start bit after all (a glitch): still armed
                end else if (sym == S_STOP) begin
                    busy <= 1'b0;
                    if (!sync2[0]) begin
                        bad_stop <= 1'b1;
                        armed    <= 1'b0;
                    end else if (crc != {CK{1'b0}}) begin
                        bad_crc <= 1'b1;
                        armed    <= 1'b0;
                    end else begin
                        ok <= 1'b1;
                    end
                end
            end
        end
    end

    // sr and crc: no reset needed (crc restarts at every start)
    always @(posedge clk) begin
        if (!busy) crc <= {CK{1'b1}};
        else if (samp) crc <= crc_next;
        if (samp && pre) sr <= {sync2, sr[SRW-1:D]};
    end
endmodule
