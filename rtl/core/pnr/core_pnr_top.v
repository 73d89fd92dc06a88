// SPDX-License-Identifier: ISC
// core_pnr_top: rv32_core in a minimal node for `make core-pnr` (place and route of the core
// alone on an iCE40 UP5K): the core, 4 KiB of block RAM (core_pnr_ram) for code and data, the
// address decode of node_top (RAM, console word) and a few pins. The core's own cells are
// counted apart from this wrapper's (rtl/core/pnr/core_cells.py); the paths into and out
// of the core are those of a real node: RAM outputs, RAM addresses, the bus decode, and
// a data-bus ready from a register (wait states), as a tile's ready should be.
module core_pnr_top #(
    parameter MUL_KIND      = 2,
    parameter DIV_BITS      = 1,
    parameter LOAD_BYPASS   = 0,
    parameter FAST_REDIRECT = 0,
    parameter DSP_COUNTERS  = 1
) (
    input  wire       clk,
    input  wire       rst_in,
    input  wire       ready_in,       // data-bus wait states (registered, as a tile should)
    input  wire       irq_external,
    input  wire       irq_timer,
    output reg        console_valid,
    output reg  [7:0] console_data,
    output reg        halted_out
);
    localparam [31:0] RAM_BASE = 32'h8000_0000, CONSOLE = 32'h1000_0000;
    reg rst, ready;
    always @(posedge clk) begin
        rst   <= rst_in;
        ready <= ready_in;
    end

    wire [31:0] imem_addr, imem_data, dmem_req_addr, dmem_req_data, dmem_resp_data;
    wire [3:0]  dmem_req_wstrb;
    wire        dmem_req_valid, dmem_req_write, halted;
    wire        imem_in_ram = imem_addr[31:12] == RAM_BASE[31:12] && imem_addr[1:0] == 2'b00;
    wire        dmem_in_ram = dmem_req_addr[31:12] == RAM_BASE[31:12];
    wire        dmem_console = dmem_req_addr[31:2] == CONSOLE[31:2];
    /* verilator lint_off PINCONNECTEMPTY */
    (* keep_hierarchy *)
    rv32_core #(.RESET_PC(RAM_BASE), .MUL_KIND(MUL_KIND), .DIV_BITS(DIV_BITS),
                .LOAD_BYPASS(LOAD_BYPASS), .FAST_REDIRECT(FAST_REDIRECT),
                .DSP_COUNTERS(DSP_COUNTERS)) core (
        .clk(clk), .rst(rst), .hart_id(32'd0),
        .imem_addr(imem_addr), .imem_error(!imem_in_ram), .imem_data(imem_data),
        .dmem_req_valid(dmem_req_valid), .dmem_req_ready(ready),
        .dmem_req_error(!dmem_in_ram && !dmem_console),
        .dmem_req_addr(dmem_req_addr), .dmem_req_write(dmem_req_write),
        .dmem_req_wstrb(dmem_req_wstrb), .dmem_req_data(dmem_req_data),
        .dmem_resp_data(dmem_resp_data),
        .irq_external(irq_external), .irq_timer(irq_timer),
        .retire_valid(), .retire_pc(), .trap_valid(), .trap_cause(), .trap_pc(),
        .trap_tval(), .halted(halted)
    );
    /* verilator lint_on PINCONNECTEMPTY */
    core_pnr_ram #(.WORDS(1024), .ADDR_BITS(10)) ram (
        .clk(clk),
        .i_addr(imem_addr[11:2]), .i_data(imem_data),
        .d_addr(dmem_req_addr[11:2]),
        .d_wstrb((dmem_req_valid && ready && dmem_req_write && dmem_in_ram) ? dmem_req_wstrb : 4'b0000),
        .d_wdata(dmem_req_data), .d_data(dmem_resp_data)
    );
    wire unused_byte_bits = ^dmem_req_addr[1:0];   // lanes come from the strobes
    always @(posedge clk) begin
        console_valid <= dmem_req_valid && dmem_req_write && dmem_console && dmem_req_wstrb[0];
        console_data  <= dmem_req_data[7:0];
        halted_out    <= halted;
    end
endmodule
