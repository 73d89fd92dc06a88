// SPDX-License-Identifier: ISC
// rv32_clz: count of leading zero bits of a 32-bit value (32 for zero), as a binary search:
// five levels of logic. A module rather than a function, so that Verilator shares one body
// among all the cores of a mesh (a function inlined at each call site is numbered per
// instance, and the instances' code can no longer be combined).
module rv32_clz (
    input  wire [31:0] value,
    output reg  [5:0]  count
);
    reg [31:0] v;
    always @(*) begin
        count = 6'd0;
        v     = value;
        if (v[31:16] == 16'd0) begin count[4] = 1'b1; v = {v[15:0], 16'd0}; end
        if (v[31:24] == 8'd0)  begin count[3] = 1'b1; v = {v[23:0], 8'd0};  end
        if (v[31:28] == 4'd0)  begin count[2] = 1'b1; v = {v[27:0], 4'd0};  end
        if (v[31:30] == 2'd0)  begin count[1] = 1'b1; v = {v[29:0], 2'd0};  end
        if (v[31] == 1'b0)     begin count[0] = 1'b1; v = {v[30:0], 1'b0};  end
        if (v[31] == 1'b0)     count = 6'd32;   // value was zero
    end
endmodule
