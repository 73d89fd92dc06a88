# RTL file lists and lint targets. Each part keeps its own lines below.

# ---- core (rtl/core): RV32IM core, node RAM, single-node top ---------------------------
CORE_RTL      := $(sort $(wildcard rtl/core/*.v))
# config.mk's memory map as Verilog parameters of node_top (RAM_BASE given as 0x... or decimal)
CORE_RAM_BASE_V := $(if $(filter 0x%,$(RAM_BASE)),32'h$(patsubst 0x%,%,$(RAM_BASE)),32'd$(RAM_BASE))
NODE_TOP_PARAMS := -GRAM_BASE="$(CORE_RAM_BASE_V)" -GRAM_BYTES=$(RAM_BYTES)

LINT_TARGETS += lint-core
.PHONY: lint-core
lint-core:
	verilator --lint-only -Wall --top-module rv32_core $(CORE_RTL)
	verilator --lint-only -Wall --top-module node_top $(NODE_TOP_PARAMS) $(CORE_RTL)
	verilator --lint-only -Wall --top-module node_top $(NODE_TOP_PARAMS) -GFAST_MUL=0 -GDIV_BITS=2 -GBUS_WAIT_TEST=1 $(CORE_RTL)

# yosys synth_ice40 of the core alone: cell counts in $(BUILD)/synth/core/rv32_core.stat
# (default configuration) and rv32_core_small.stat (FAST_MUL=0: iterative multiplier)
CORE_SYNTH_RTL        := $(filter rtl/core/rv32_%.v,$(CORE_RTL))
CORE_SYNTH_STAT       := $(BUILD)/synth/core/rv32_core.stat
CORE_SYNTH_SMALL_STAT := $(BUILD)/synth/core/rv32_core_small.stat
.PHONY: core-synth core-synth-small
core-synth: $(CORE_SYNTH_STAT)
core-synth-small: $(CORE_SYNTH_SMALL_STAT)
$(CORE_SYNTH_STAT): $(CORE_SYNTH_RTL)
	@mkdir -p $(dir $@)
	yosys -q -l $(@:.stat=.log) -p "read_verilog $(CORE_SYNTH_RTL); synth_ice40 -top rv32_core; tee -q -o $@.tmp stat"
	@mv $@.tmp $@
$(CORE_SYNTH_SMALL_STAT): $(CORE_SYNTH_RTL)
	@mkdir -p $(dir $@)
	yosys -q -l $(@:.stat=.log) -p "read_verilog $(CORE_SYNTH_RTL); chparam -set FAST_MUL 0 rv32_core; synth_ice40 -top rv32_core; tee -q -o $@.tmp stat"
	@mv $@.tmp $@

# ---- network (rtl/noc): all-port wormhole router and the mesh/torus network -----------
NOC_RTL := $(sort $(wildcard rtl/noc/*.v))
# config.mk's board profile of the router, as noc_router parameters
BOARD_ROUTER_PARAMS := VCS=$(BOARD_ROUTER_VCS) BUF_DEPTH=$(BOARD_ROUTER_BUF_DEPTH) \
  INJ_DEPTH=$(BOARD_ROUTER_INJ_DEPTH) BUF_RAM=$(BOARD_ROUTER_BUF_RAM) \
  INJ_ANY_PORT=$(BOARD_ROUTER_INJ_ANY_PORT) PIPELINE=$(BOARD_ROUTER_PIPELINE) \
  SIDE_BITS=$(BOARD_ROUTER_SIDE_BITS)
BOARD_ROUTER_G := $(addprefix -G,$(BOARD_ROUTER_PARAMS))

# Lint every top in configurations that exercise different generate branches.
LINT_TARGETS += lint-noc
.PHONY: lint-noc
lint-noc:
	verilator --lint-only -Wall --top-module noc_router $(NOC_RTL)
	verilator --lint-only -Wall --top-module noc_router -GDIMS=3 -GBUF_DEPTH=3 -GINJ_DEPTH=2 $(NOC_RTL)
	verilator --lint-only -Wall --top-module noc_router $(BOARD_ROUTER_G) $(NOC_RTL)
	verilator --lint-only -Wall --top-module noc_router -GDIMS=3 -GVCS=4 -GBUF_RAM=1 -GPIPELINE=1 -GINJ_ANY_PORT=0 -GSIDE_BITS=2 $(NOC_RTL)
	verilator --lint-only -Wall --top-module noc_network -GFLIT_BITS=$(FLIT_BITS) $(NOC_RTL)
	verilator --lint-only -Wall --top-module noc_network -GTORUS=0 -GSIZE_X=8 -GSIZE_Y=4 $(NOC_RTL)
	verilator --lint-only -Wall --top-module noc_network -GTORUS=0 -GSIZE_X=1 -GSIZE_Y=8 $(NOC_RTL)
	verilator --lint-only -Wall --top-module noc_network -GDIMS=3 -GSIZE_X=3 -GSIZE_Y=3 -GSIZE_Z=3 $(NOC_RTL)
	verilator --lint-only -Wall --top-module noc_network -GSIZE_X=2 -GSIZE_Y=2 $(NOC_RTL)
	verilator --lint-only -Wall --top-module noc_network -GSIZE_X=4 -GSIZE_Y=4 -GVCS=4 $(NOC_RTL)
	verilator --lint-only -Wall --top-module noc_network -GTORUS=0 -GSIZE_X=2 -GSIZE_Y=2 $(BOARD_ROUTER_G) $(NOC_RTL)
	verilator --lint-only -Wall --top-module noc_router -GDIMS=3 -GVCS=8 $(NOC_RTL)
	verilator --lint-only -Wall --top-module noc_router_pnr $(BOARD_ROUTER_G) $(NOC_RTL) rtl/noc/pnr/noc_router_pnr.v

# config.mk's board profile as verilator -G options (tests/rtl/noc/test_noc_lint.sh)
.PHONY: board-router-params
board-router-params:
	@echo $(BOARD_ROUTER_G)

# Placement of one router in config.mk's board profile on an iCE40 UP5K (yosys synth_ice40,
# nextpnr-ice40 --up5k, seed 1, a 30 MHz constraint), coordinates as inputs as in a board:
# $(BUILD)/bench/router_ice40.json (lc_used, lc_total, ebr_used, fmax_mhz, ...).
BENCH_TARGETS += router-pnr
.PHONY: router-pnr
router-pnr:
	@OUT=$(BUILD)/bench ROUTER_PARAMS="DIMS=2 $(BOARD_ROUTER_PARAMS)" PNR_FREQ=30 PNR_SEED=1 \
	  rtl/noc/pnr/router_pnr.sh
