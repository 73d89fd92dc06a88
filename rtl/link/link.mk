# SPDX-License-Identifier: ISC
# The board link PHY (rtl/link): link_phy carries one router link between two boards.
#   make lint-link    verilator --lint-only -Wall on link_phy (several configurations,
#                     config.mk's FLIT_BITS and RETRY 0 among them) and link_cost_top
#   make link-synth   yosys synth_ice40 of one link_phy: $(BUILD)/synth/link/link_phy.stat
#   make bench-link   cost on the iCEBreaker (yosys + nextpnr-ice40 --up5k: logic cells per
#                     port, block RAMs, fmax) and the simulated latency and throughput:
#                     a table, and $(BUILD)/bench/link.json
# Tests: tests/rtl/link/.

LINK_RTL := rtl/link/link_add.v rtl/link/link_crc.v rtl/link/link_tx.v rtl/link/link_rx.v rtl/link/link_phy.v

LINT_TARGETS += lint-link
.PHONY: lint-link link-synth bench-link
lint-link:
	verilator --lint-only -Wall --top-module link_phy $(LINK_RTL)
	verilator --lint-only -Wall --top-module link_phy -GFLIT_BITS=$(FLIT_BITS) $(LINK_RTL)
	verilator --lint-only -Wall --top-module link_phy -GTAG_RAM=0 -GLANES=1 -GOVERSAMPLE=4 $(LINK_RTL)
	verilator --lint-only -Wall --top-module link_phy -GVCS=8 -GBUF_DEPTH=2 -GLANES=4 -GOVERSAMPLE=5 $(LINK_RTL)
	verilator --lint-only -Wall --top-module link_phy -GRETRY=0 $(LINK_RTL)
	verilator --lint-only -Wall --top-module link_cost_top $(LINK_RTL) rtl/link/link_cost_top.v

LINK_SYNTH_STAT := $(BUILD)/synth/link/link_phy.stat
link-synth: $(LINK_SYNTH_STAT)
$(LINK_SYNTH_STAT): $(LINK_RTL)
	@mkdir -p $(dir $@)
	yosys -q -l $(@:.stat=.log) -p "read_verilog $(LINK_RTL); chparam -set FLIT_BITS $(FLIT_BITS) link_phy; synth_ice40 -top link_phy; tee -q -o $@.tmp stat"
	@mv $@.tmp $@

BENCH_TARGETS += bench-link
bench-link:
	@BUILD=$(BUILD) rtl/link/bench_link.sh
