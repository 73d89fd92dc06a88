// SPDX-License-Identifier: ISC
// node_timer: machine timer at the addresses of qemu virt's CLINT, so that the same
// firmware runs on both. Word registers (offsets from the device base):
//   0x4000 mtimecmp[31:0]   0x4004 mtimecmp[63:32]   (read/write, reset all ones)
//   0xbff8 mtime[31:0]      0xbffc mtime[63:32]      (read/write; +1 every clock cycle)
// Other offsets read 0 and ignore writes. irq_timer = (mtime >= mtimecmp), level.
// Bus: the node's data-bus request (always ready); read data the cycle after.
module node_timer (
    input  wire        clk,
    input  wire        rst,
    input  wire        req_valid,     // a request to this device
    input  wire [13:0] req_word,      // word offset in the device (byte offset / 4)
    input  wire [3:0]  req_wstrb,     // store byte lanes (0000: load)
    input  wire [31:0] req_data,
    output reg  [31:0] resp_data,
    output wire        irq_timer
);
    reg [63:0] mtime_q, mtimecmp_q;

    wire [13:0] word = req_word;
    localparam [13:0] W_CMP_LO = 14'h1000, W_CMP_HI = 14'h1001,
                      W_TIME_LO = 14'h2ffe, W_TIME_HI = 14'h2fff;

    // a store's byte lanes: where they are set the stored byte replaces the old one
    wire [31:0] lane_mask = {{8{req_wstrb[3]}}, {8{req_wstrb[2]}}, {8{req_wstrb[1]}}, {8{req_wstrb[0]}}};
    wire [31:0] new_bytes = req_data & lane_mask;

    wire store = req_valid && req_wstrb != 4'b0000;
    wire [63:0] mtime_next = mtime_q + 64'd1;

    always @(posedge clk) begin
        if (rst) begin
            mtime_q    <= 64'd0;
            mtimecmp_q <= {64{1'b1}};
            resp_data  <= 32'd0;
        end else begin
            mtime_q <= mtime_next;
            if (store && word == W_TIME_LO)
                mtime_q <= {mtime_next[63:32], (mtime_q[31:0] & ~lane_mask) | new_bytes};
            if (store && word == W_TIME_HI)
                mtime_q <= {(mtime_q[63:32] & ~lane_mask) | new_bytes, mtime_next[31:0]};
            if (store && word == W_CMP_LO)
                mtimecmp_q[31:0] <= (mtimecmp_q[31:0] & ~lane_mask) | new_bytes;
            if (store && word == W_CMP_HI)
                mtimecmp_q[63:32] <= (mtimecmp_q[63:32] & ~lane_mask) | new_bytes;
            if (req_valid) begin
                case (word)
                    W_CMP_LO:  resp_data <= mtimecmp_q[31:0];
                    W_CMP_HI:  resp_data <= mtimecmp_q[63:32];
                    W_TIME_LO: resp_data <= mtime_q[31:0];
                    W_TIME_HI: resp_data <= mtime_q[63:32];
                    default:   resp_data <= 32'd0;
                endcase
            end
        end
    end

    assign irq_timer = mtime_q >= mtimecmp_q;
endmodule
