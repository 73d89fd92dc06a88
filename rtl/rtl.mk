# SPDX-License-Identifier: ISC
# RTL file lists and lint targets. Each part keeps its own lines below.

# ---- core (rtl/core): RV32IM core, node RAM, the node glue (node_core), single-node top -
CORE_RTL      := $(sort $(wildcard rtl/core/*.v))
# config.mk's memory map as Verilog parameters of node_top (RAM_BASE given as 0x... or decimal)
CORE_RAM_BASE_V := $(if $(filter 0x%,$(RAM_BASE)),32'h$(patsubst 0x%,%,$(RAM_BASE)),32'd$(RAM_BASE))
# config.mk's core configuration as Verilog parameters (of rv32_core and of every top that
# passes them on: node_top, tile, mesh_top); CORE_BOARD_PARAMS: the iCE40 board's values
CORE_PARAMS       := -GMUL_KIND=$(CORE_MUL_KIND) -GDIV_BITS=$(CORE_DIV_BITS) \
                     -GLOAD_BYPASS=$(CORE_LOAD_BYPASS) -GFAST_REDIRECT=$(CORE_FAST_REDIRECT) \
                     -GDSP_COUNTERS=$(CORE_DSP_COUNTERS)
CORE_BOARD_PARAMS := -GMUL_KIND=$(CORE_BOARD_MUL_KIND) -GDIV_BITS=$(CORE_BOARD_DIV_BITS) \
                     -GLOAD_BYPASS=$(CORE_BOARD_LOAD_BYPASS) -GFAST_REDIRECT=$(CORE_BOARD_FAST_REDIRECT) \
                     -GDSP_COUNTERS=$(CORE_BOARD_DSP_COUNTERS)
# the five values of CORE_BOARD_PARAMS, in that order, for rtl/core/pnr/core_pnr.sh
CORE_BOARD_VALUES := $(CORE_BOARD_MUL_KIND) $(CORE_BOARD_DIV_BITS) $(CORE_BOARD_LOAD_BYPASS) \
                     $(CORE_BOARD_FAST_REDIRECT) $(CORE_BOARD_DSP_COUNTERS)

# the SB_MAC16 model for simulating DSP_COUNTERS=1 (also included by boards/boards.mk)
include rtl/core/mac16.mk
NODE_TOP_PARAMS := -GRAM_BASE="$(CORE_RAM_BASE_V)" -GRAM_BYTES=$(RAM_BYTES) $(CORE_PARAMS)

LINT_TARGETS += lint-core
.PHONY: lint-core
lint-core: $(CORE_MAC16_MODEL)
	verilator --lint-only -Wall --top-module rv32_core $(CORE_RTL)
	verilator --lint-only -Wall --top-module rv32_core $(CORE_BOARD_PARAMS) $(CORE_RTL) $(CORE_MAC16_MODEL)
	verilator --lint-only -Wall --top-module node_top $(NODE_TOP_PARAMS) $(CORE_RTL)
	verilator --lint-only -Wall --top-module node_top $(NODE_TOP_PARAMS) -GMUL_KIND=0 -GDIV_BITS=2 -GBUS_WAIT_TEST=1 $(CORE_RTL)
	verilator --lint-only -Wall --top-module node_top $(NODE_TOP_PARAMS) $(CORE_BOARD_PARAMS) -GBUS_WAIT_TEST=1 $(CORE_RTL) $(CORE_MAC16_MODEL)
	verilator --lint-only -Wall --top-module node_core -GHAS_NI=1 -GHAS_FINISHER=1 -GLINE_WORDS=16 $(CORE_RTL)
	verilator --lint-only -Wall --top-module node_core -GHAS_NI=1 -GRAM_SP_BANKS=2 -GBOOT_BYTES=2048 -GIO_BYTES=4096 $(CORE_BOARD_PARAMS) $(CORE_RTL) $(CORE_MAC16_MODEL)
	verilator --lint-only -Wall --top-module core_pnr_top rtl/core/pnr/core_pnr_top.v rtl/core/pnr/core_pnr_ram.v $(CORE_RTL) $(CORE_MAC16_MODEL)

# yosys synth_ice40 of the core alone: cell counts in $(BUILD)/synth/core/rv32_core.stat
# (the simulated configuration, config.mk's CORE_*) and rv32_core_board.stat (the board's,
# CORE_BOARD_*, with -dsp: multiplier and counters in DSP blocks)
CORE_SYNTH_RTL        := $(filter rtl/core/rv32_%.v,$(CORE_RTL))
CORE_SYNTH_STAT       := $(BUILD)/synth/core/rv32_core.stat
CORE_SYNTH_BOARD_STAT := $(BUILD)/synth/core/rv32_core_board.stat
core_chparam = chparam -set MUL_KIND $(1) -set DIV_BITS $(2) -set LOAD_BYPASS $(3) -set FAST_REDIRECT $(4) -set DSP_COUNTERS $(5) rv32_core
.PHONY: core-synth core-synth-board
core-synth: $(CORE_SYNTH_STAT)
core-synth-board: $(CORE_SYNTH_BOARD_STAT)
$(CORE_SYNTH_STAT): $(CORE_SYNTH_RTL) config.mk
	@mkdir -p $(dir $@)
	yosys -q -l $(@:.stat=.log) -p "read_verilog $(CORE_SYNTH_RTL); $(call core_chparam,$(CORE_MUL_KIND),$(CORE_DIV_BITS),$(CORE_LOAD_BYPASS),$(CORE_FAST_REDIRECT),$(CORE_DSP_COUNTERS)); synth_ice40 -top rv32_core; tee -q -o $@.tmp stat"
	@mv $@.tmp $@
$(CORE_SYNTH_BOARD_STAT): $(CORE_SYNTH_RTL) config.mk
	@mkdir -p $(dir $@)
	yosys -q -l $(@:.stat=.log) -p "read_verilog $(CORE_SYNTH_RTL); $(call core_chparam,$(CORE_BOARD_MUL_KIND),$(CORE_BOARD_DIV_BITS),$(CORE_BOARD_LOAD_BYPASS),$(CORE_BOARD_FAST_REDIRECT),$(CORE_BOARD_DSP_COUNTERS)); synth_ice40 -dsp -top rv32_core; tee -q -o $@.tmp stat"
	@mv $@.tmp $@

# make core-pnr: the core in the board configuration placed and routed on an iCE40 UP5K
# (rtl/core/pnr: yosys synth_ice40 -dsp, nextpnr-ice40 --up5k, seed CORE_PNR_SEED, clock
# constraint CORE_PNR_MHZ) -> $(BUILD)/bench/core_ice40.json: lc_used, lc_total, ebr_used,
# dsp_used, fmax_mhz (the core's own cells, apart from the test wrapper's). Always runs.
CORE_PNR_JSON ?= $(BUILD)/bench/core_ice40.json
CORE_PNR_SEED ?= 1
CORE_PNR_MHZ  ?= 30
BENCH_TARGETS += core-pnr
.PHONY: core-pnr
core-pnr:
	@TARGET_MHZ=$(CORE_PNR_MHZ) PNR_SEED=$(CORE_PNR_SEED) rtl/core/pnr/core_pnr.sh $(CORE_PNR_JSON) \
	  $(BUILD)/pnr/core "$(CORE_BOARD_VALUES)" $(CORE_SYNTH_RTL)
	@echo "core-pnr: wrote $(CORE_PNR_JSON) (logs in $(BUILD)/pnr/core)"

# ---- network (rtl/noc): all-port wormhole router and the mesh/torus network -----------
NOC_RTL := $(sort $(wildcard rtl/noc/*.v))
# config.mk's board profile of the router, as noc_router parameters
ROUTER_BOARD_PARAMS := VCS=$(ROUTER_BOARD_VCS) BUF_DEPTH=$(ROUTER_BOARD_BUF_DEPTH) \
  INJ_DEPTH=$(ROUTER_BOARD_INJ_DEPTH) BUF_RAM=$(ROUTER_BOARD_BUF_RAM) \
  INJ_ANY_PORT=$(ROUTER_BOARD_INJ_ANY_PORT) PIPELINE=$(ROUTER_BOARD_PIPELINE) \
  SIDE_BITS=$(ROUTER_BOARD_SIDE_BITS)
ROUTER_BOARD_G := $(addprefix -G,$(ROUTER_BOARD_PARAMS))

# Lint every top in configurations that exercise different generate branches.
LINT_TARGETS += lint-noc
.PHONY: lint-noc
lint-noc:
	verilator --lint-only -Wall --top-module noc_router $(NOC_RTL)
	verilator --lint-only -Wall --top-module noc_router -GDIMS=3 -GBUF_DEPTH=3 -GINJ_DEPTH=2 $(NOC_RTL)
	verilator --lint-only -Wall --top-module noc_router $(ROUTER_BOARD_G) $(NOC_RTL)
	verilator --lint-only -Wall --top-module noc_router -GDIMS=3 -GVCS=4 -GBUF_RAM=1 -GPIPELINE=1 -GINJ_ANY_PORT=0 -GSIDE_BITS=2 $(NOC_RTL)
	verilator --lint-only -Wall --top-module noc_network -GFLIT_BITS=$(FLIT_BITS) $(NOC_RTL)
	verilator --lint-only -Wall --top-module noc_network -GTORUS=0 -GSIZE_X=8 -GSIZE_Y=4 $(NOC_RTL)
	verilator --lint-only -Wall --top-module noc_network -GTORUS=0 -GSIZE_X=1 -GSIZE_Y=8 $(NOC_RTL)
	verilator --lint-only -Wall --top-module noc_network -GDIMS=3 -GSIZE_X=3 -GSIZE_Y=3 -GSIZE_Z=3 $(NOC_RTL)
	verilator --lint-only -Wall --top-module noc_network -GSIZE_X=2 -GSIZE_Y=2 $(NOC_RTL)
	verilator --lint-only -Wall --top-module noc_network -GSIZE_X=4 -GSIZE_Y=4 -GVCS=4 $(NOC_RTL)
	verilator --lint-only -Wall --top-module noc_network -GTORUS=0 -GSIZE_X=2 -GSIZE_Y=2 $(ROUTER_BOARD_G) $(NOC_RTL)
	verilator --lint-only -Wall --top-module noc_router -GDIMS=3 -GVCS=8 $(NOC_RTL)
	verilator --lint-only -Wall --top-module noc_router_pnr $(ROUTER_BOARD_G) $(NOC_RTL) rtl/noc/pnr/noc_router_pnr.v

# config.mk's board profile as verilator -G options (tests/rtl/noc/test_noc_lint.sh)
.PHONY: board-router-params
board-router-params:
	@echo $(ROUTER_BOARD_G)

# make router-pnr: one 2-D router placed and routed on an iCE40 UP5K (yosys synth_ice40,
# nextpnr-ice40 --up5k, seed 1, a 30 MHz constraint; coordinates as inputs, as in a board),
# the default router (ROUTER_*) beside the lean one (ROUTER_BOARD_*):
# $(BUILD)/bench/router_ice40.json (lc_used, router_lc, ebr_used, fmax_mhz of each, ratios).
DEFAULT_ROUTER_PARAMS := VCS=$(ROUTER_VCS) BUF_DEPTH=$(ROUTER_BUF_DEPTH) INJ_DEPTH=$(ROUTER_INJ_DEPTH)
BENCH_TARGETS += router-pnr
.PHONY: router-pnr
router-pnr:
	@OUT=$(BUILD)/bench DEFAULT_PARAMS="DIMS=2 FLIT_BITS=$(FLIT_BITS) $(DEFAULT_ROUTER_PARAMS)" \
	  LEAN_PARAMS="DIMS=2 FLIT_BITS=$(FLIT_BITS) $(ROUTER_BOARD_PARAMS)" PNR_FREQ=30 PNR_SEED=1 \
	  rtl/noc/pnr/bench_router_pnr.sh

# make bench-link-guard: yosys synth_ice40 cost of one protected on-chip link (rtl/noc/
# link_guard_tx + link_guard_rx) at the board's router parameters; $(BUILD)/bench/link_guard.json
BENCH_TARGETS += bench-link-guard
.PHONY: bench-link-guard
bench-link-guard:
	@BUILD=$(BUILD) FLIT_BITS=$(FLIT_BITS) VCS=2 BUF_DEPTH=4 rtl/noc/bench_link_guard.sh
