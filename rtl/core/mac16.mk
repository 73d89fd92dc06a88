# SPDX-License-Identifier: ISC
# Simulating DSP_COUNTERS=1 (the iCE40 DSP block SB_MAC16) needs yosys's model of the cell,
# extracted from its ice40/cells_sim.v (lint off: not our code) into $(CORE_MAC16_MODEL).
# Included by rtl/rtl.mk and boards/boards.mk (each with its own BUILD).
YOSYS_SHARE      := $(abspath $(dir $(shell command -v yosys 2>/dev/null))../share/yosys)
CORE_MAC16_MODEL := $(BUILD)/ice40/sb_mac16.v
$(CORE_MAC16_MODEL):
	@mkdir -p $(dir $@)
	@test -f $(YOSYS_SHARE)/ice40/cells_sim.v || { echo "$(YOSYS_SHARE)/ice40/cells_sim.v not found: yosys is needed to simulate the DSP counters (make deps)" >&2; exit 1; }
	@{ printf '`verilator_config\nlint_off -file "*sb_mac16.v"\n`verilog\n'; \
	  sed -n '/^module SB_MAC16/,/^endmodule/p' $(YOSYS_SHARE)/ice40/cells_sim.v; } >$@.tmp
	@grep -q '^module SB_MAC16' $@.tmp || { echo "no SB_MAC16 in $(YOSYS_SHARE)/ice40/cells_sim.v" >&2; exit 1; }
	@mv $@.tmp $@
