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

    function [31:0] merge;  // a store's byte lanes over the old word
        input [31:0] old_word;
        input [31:0] new_word;
        input [3:0]  lanes;
        begin
            merge = {lanes[3] ? new_word[31:24] : old_word[31:24],
                     lanes[2] ? new_word[23:16] : old_word[23:16],
                     lanes[1] ? new_word[15:8]  : old_word[15:8],
                     lanes[0] ? new_word[7:0]   : old_word[7:0]};
        end
    endfunction

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
                mtime_q <= {mtime_next[63:32], merge(mtime_q[31:0], req_data, req_wstrb)};
            if (store && word == W_TIME_HI)
                mtime_q <= {merge(mtime_q[63:32], req_data, req_wstrb), mtime_next[31:0]};
            if (store && word == W_CMP_LO)
                mtimecmp_q[31:0] <= merge(mtimecmp_q[31:0], req_data, req_wstrb);
            if (store && word == W_CMP_HI)
                mtimecmp_q[63:32] <= merge(mtimecmp_q[63:32], req_data, req_wstrb);
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
