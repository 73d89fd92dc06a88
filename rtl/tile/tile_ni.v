// tile_ni: the network interface of a tile. A slave on the core's data bus that decodes
// the NI window (the tile decodes 0x2000_0000-0x2fff_ffff and passes the low 12 bits;
// anything above 0x2000_0fff faults) and
// shows the core the router's 2*DIMS injection and 2*DIMS ejection channels as registers.
// The register map is in rtl/tile/README.md (the one definition).
//
// Queues: the transmit queue of port p is the router's injection buffer p (INJ_DEPTH
// flits), the receive queue of port p the router's input buffers of link p (VCS x
// BUF_DEPTH flits), drained through ejection channel p. The NI itself holds no flits, so
// it cannot lose one: a write to a full TX queue and a read of an empty RX queue wait
// (dmem_req_ready low) until the router can take or give the flit; the router's credit
// flow control never overruns an RX queue. A worm the router refuses at injection
// (its path would leave the mesh, exceed a ring, has no hop, or a bad start dimension)
// sets a sticky bit in ERROR and is counted in REFUSED. An access the map does not define
// (unknown offset, a write to a read-only register, a read of a write-only one, a store
// of fewer than 4 bytes, a port >= 2*DIMS) is answered with dmem_req_error: the core takes
// a load/store access fault.
//
// Timing: a request is decoded combinationally and answered the cycle it is offered
// (ready = 1) unless it must wait for a flit or a free slot; read data is registered and
// appears on resp_data the cycle after acceptance, as the core expects.
module tile_ni #(
    parameter        DIMS      = 2,
    parameter        FLIT_BITS = 32,         // the NI moves 32-bit flits: must be 32
    parameter        INJ_DEPTH = 4,          // reported in PORTS
    parameter        VCS       = 2           // the router's buf_nonempty layout
) (
    input  wire                        clk,
    input  wire                        rst,
    // machine description (constants in a mesh)
    input  wire [23:0]                 my_coord,     // 8 bits per dimension, x in [7:0]
    input  wire [23:0]                 dim_size,     // 8 bits per dimension
    input  wire                        torus,
    input  wire [15:0]                 node_index,   // x + X*(y + Y*z)
    input  wire [15:0]                 node_count,
    // data bus (rv32_core's dmem port, already qualified: the request is in the window)
    input  wire                        req_valid,
    output reg                         req_ready,
    output reg                         req_error,
    input  wire [11:0]                 req_offset,   // byte offset in the window
    input  wire                        req_in_window, // address bits above the offset match
    input  wire                        req_write,
    input  wire [3:0]                  req_wstrb,
    input  wire [31:0]                 req_data,
    output reg  [31:0]                 resp_data,
    output wire                        irq,          // an enabled RX queue holds a flit
    // router: injection channels
    output wire [2*DIMS-1:0]           inj_valid,
    input  wire [2*DIMS-1:0]           inj_ready,
    output wire [2*DIMS*FLIT_BITS-1:0] inj_data,
    output wire [2*DIMS-1:0]           inj_last,
    input  wire [2*DIMS-1:0]           inj_error,
    // router: ejection channels
    input  wire [2*DIMS-1:0]           ej_valid,
    output wire [2*DIMS-1:0]           ej_ready,
    input  wire [2*DIMS*FLIT_BITS-1:0] ej_data,
    input  wire [2*DIMS-1:0]           ej_last,
    // router: status
    input  wire [15:0]                 err_count,    // the router's (ERR_BITS = 16)
    input  wire [2*DIMS*(VCS+1)-1:0]   buf_nonempty
);
    localparam P = 2 * DIMS;
    localparam W = FLIT_BITS;
    localparam [31:0] VERSION = 32'h4e49_0001;   // "NI", version 1

    function [7:0] z8;                  // a port mask, zero-extended to 8 bits
        input [P-1:0] mask;
        begin
            z8 = 8'd0;
            z8[P-1:0] = mask;
        end
    endfunction
    function [2:0] popcount;
        input [P-1:0] mask;
        integer i;
        begin
            popcount = 3'd0;
            for (i = 0; i < P; i = i + 1) popcount = popcount + {2'd0, mask[i]};
        end
    endfunction

    // ---------------------------------------------------------------- decode
    // 0x000-0x0ff: global registers (word index g); 0x100 + 0x10*p + 4*r: port p, reg r
    wire        is_port   = req_offset[11:8] == 4'h1;
    wire [3:0]  port      = req_offset[7:4];
    wire [1:0]  preg      = req_offset[3:2];
    wire [5:0]  greg      = req_offset[7:2];
    wire        is_global = req_offset[11:8] == 4'h0;
    wire        port_ok   = {28'd0, port} < P;
    wire        full_word = req_wstrb == 4'b1111;

    // port registers: 0 TX_DATA (W), 1 TX_LAST (W), 2 RX_DATA (R, pops), 3 PORT_STATUS (R)
    wire p_tx   = req_in_window && is_port && port_ok && req_write && full_word && !preg[1];
    wire p_rx   = req_in_window && is_port && port_ok && !req_write && preg == 2'd2;
    wire p_stat = req_in_window && is_port && port_ok && !req_write && preg == 2'd3;

    // global registers
    localparam G_VERSION = 6'd0, G_COORD = 6'd1, G_SHAPE = 6'd2, G_NODE = 6'd3,
               G_PORTS = 6'd4, G_RX_AVAIL = 6'd5, G_TX_STATUS = 6'd6, G_ERROR = 6'd7,
               G_REFUSED = 6'd8, G_IRQ_ENABLE = 6'd9, G_IRQ_PENDING = 6'd10;
    wire g_any  = req_in_window && is_global;
    wire g_read = g_any && !req_write && greg <= G_IRQ_PENDING;
    wire g_w1c  = g_any && req_write && full_word && greg == G_ERROR;
    wire g_wirq = g_any && req_write && full_word && greg == G_IRQ_ENABLE;
    wire legal  = p_tx || p_rx || p_stat || g_read || g_w1c || g_wirq;

    // ---------------------------------------------------------------- state
    reg  [P-1:0]  refused;        // sticky: a worm injected on port p was refused
    reg  [15:0]   refused_count;  // refused worms, all ports (saturates)
    reg  [P-1:0]  irq_enable;
    reg  [P-1:0]  rx_at_head;     // the next flit ejected on port p starts a worm

    wire [P-1:0] tx_idle;         // TX queue p empty: every flit written has gone or been refused
    genvar j;
    generate
        for (j = 0; j < P; j = j + 1) begin : tx_state
            assign tx_idle[j] = !buf_nonempty[P * VCS + j];
        end
    endgenerate
    // buf_nonempty also reports the network input buffers; the NI shows only the
    // injection side (the RX side is ej_valid)
    wire unused_bufs = ^buf_nonempty[P*VCS-1:0];

    // waiting: the flit or the free slot the request needs is not there yet
    wire [P-1:0] port_sel = {{(P-1){1'b0}}, 1'b1} << port;
    wire wait_tx = p_tx && !(|(inj_ready & port_sel));
    wire wait_rx = p_rx && !(|(ej_valid & port_sel));

    always @(*) begin
        req_ready = req_valid && (!legal || !(wait_tx || wait_rx));
        req_error = !legal;
    end
    wire accept = req_valid && req_ready && legal;

    assign inj_valid = (accept && p_tx) ? port_sel : {P{1'b0}};
    assign inj_last  = (accept && p_tx && preg[0]) ? port_sel : {P{1'b0}};
    generate
        for (j = 0; j < P; j = j + 1) begin : tx_data
            assign inj_data[j * W +: W] = req_data;
        end
    endgenerate
    assign ej_ready = (accept && p_rx) ? port_sel : {P{1'b0}};

    // ---------------------------------------------------------------- read data
    wire [W-1:0] rx_flit   = ej_data[port * W +: W];
    wire         rx_valid  = |(ej_valid & port_sel);
    wire         rx_last   = |(ej_last & port_sel);
    wire         rx_head   = |(rx_at_head & port_sel);
    wire         tx_ready1 = |(inj_ready & port_sel);
    wire         tx_idle1  = |(tx_idle & port_sel);
    localparam [7:0] P8 = P[7:0];
    localparam [7:0] W8 = W[7:0];
    localparam [7:0] D8 = INJ_DEPTH[7:0];
    localparam [3:0] DIMS4 = DIMS[3:0];
    reg  [31:0]  read_value;
    always @(*) begin
        read_value = 32'd0;
        if (p_rx)
            read_value = rx_flit[31:0];
        else if (p_stat)
            read_value = {22'd0, tx_idle1, tx_ready1, 5'd0, rx_valid && rx_last,
                          rx_valid && rx_head, rx_valid};
        else
            case (greg)
                G_VERSION:     read_value = VERSION;
                G_COORD:       read_value = {8'd0, my_coord};
                G_SHAPE:       read_value = {3'd0, torus, DIMS4, dim_size};
                G_NODE:        read_value = {node_count, node_index};
                G_PORTS:       read_value = {8'd0, D8, W8, P8};
                G_RX_AVAIL:    read_value = {8'd0, z8(ej_valid & rx_at_head), 8'd0, z8(ej_valid)};
                G_TX_STATUS:   read_value = {16'd0, z8(tx_idle), z8(inj_ready)};
                G_ERROR:       read_value = {24'd0, z8(refused)};
                G_REFUSED:     read_value = {err_count[15:0], refused_count};
                G_IRQ_ENABLE:  read_value = {24'd0, z8(irq_enable)};
                G_IRQ_PENDING: read_value = {24'd0, z8(irq_enable & ej_valid)};
                default:       read_value = 32'd0;
            endcase
    end

    always @(posedge clk) begin
        if (accept && !req_write) resp_data <= read_value;
    end

    assign irq = |(irq_enable & ej_valid);

    // ---------------------------------------------------------------- state updates
    wire       any_refused = |inj_error;
    wire [2:0] refused_now = popcount(inj_error);
    always @(posedge clk) begin
        if (rst) begin
            refused       <= {P{1'b0}};
            refused_count <= 16'd0;
            irq_enable    <= {P{1'b0}};
            rx_at_head    <= {P{1'b1}};
        end else begin
            refused <= (refused & ~((accept && g_w1c) ? req_data[P-1:0] : {P{1'b0}})) | inj_error;
            if (any_refused)
                refused_count <= (refused_count > 16'hfff9) ? 16'hffff
                                                            : refused_count + {13'd0, refused_now};
            if (accept && g_wirq) irq_enable <= req_data[P-1:0];
            rx_at_head <= (rx_at_head & ~ej_ready) | (ej_ready & ej_last);
        end
    end

    // bits of the request the map does not use
    wire unused_ni = ^{req_offset[1:0], req_data[31:P]};
endmodule
