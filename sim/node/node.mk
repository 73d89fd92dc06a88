# node-sim: the single-node Verilator simulator (sim/node) of rtl/core's node_top.
#   make node-sim   ->  $(BUILD)/bin/node-sim --elf FILE [--max-cycles N] [--trace F.fst]

NODE_SIM        := $(BUILD)/bin/node-sim
NODE_SIM_DIR    := $(BUILD)/node-sim
NODE_SIM_SRCS   := sim/node/node_sim.cpp sim/node/elf32.cpp
NODE_SIM_HDRS   := sim/node/elf32.h
# holds the build flags (with config.mk's memory map); rewritten only when they change
NODE_SIM_CONFIG := $(NODE_SIM_DIR)/config.stamp
NODE_SIM_VFLAGS := --cc --exe --build -j 2 -O3 --x-assign fast --trace-fst \
                   --top-module node_top $(NODE_TOP_PARAMS) -Wno-fatal
NODE_SIM_CFLAGS := -O2 -std=c++14 -Wall -Wextra -DRVMESH_RAM_BASE=$(RAM_BASE)ull \
                   -DRVMESH_RAM_BYTES=$(RAM_BYTES)ull -I$(CURDIR)/sim/node

.PHONY: node-sim node-sim-config-check
node-sim: $(NODE_SIM)

node-sim-config-check:
	@mkdir -p $(NODE_SIM_DIR)
	@echo "$(subst ',,$(subst ",,$(NODE_SIM_VFLAGS) $(NODE_SIM_CFLAGS)))" > $(NODE_SIM_CONFIG).tmp
	@cmp -s $(NODE_SIM_CONFIG).tmp $(NODE_SIM_CONFIG) && rm -f $(NODE_SIM_CONFIG).tmp || \
	  mv $(NODE_SIM_CONFIG).tmp $(NODE_SIM_CONFIG)
$(NODE_SIM_CONFIG): node-sim-config-check ;

$(NODE_SIM): $(CORE_RTL) $(NODE_SIM_SRCS) $(NODE_SIM_HDRS) $(NODE_SIM_CONFIG)
	@mkdir -p $(dir $@)
	verilator $(NODE_SIM_VFLAGS) -Mdir $(NODE_SIM_DIR)/obj -o node-sim \
	  -CFLAGS "$(NODE_SIM_CFLAGS)" $(CORE_RTL) $(abspath $(NODE_SIM_SRCS)) >$(NODE_SIM_DIR)/build.log 2>&1 \
	  || { tail -n 40 $(NODE_SIM_DIR)/build.log; exit 1; }
	cp $(NODE_SIM_DIR)/obj/node-sim $@

# make bench-core: CPI of every C test program, node-sim speed, core cell counts (yosys)
CORE_BENCH_ELFS := $(patsubst %.c,$(BUILD)/fw/%.elf,$(wildcard tests/firmware/programs/*.c))
CORE_BENCH_SYNTH := $(if $(shell command -v yosys 2>/dev/null),$(CORE_SYNTH_STAT))
BENCH_TARGETS += bench-core
.PHONY: bench-core
bench-core: $(NODE_SIM) $(CORE_BENCH_ELFS) $(CORE_BENCH_SYNTH)
	@sim/node/bench_core.sh $(NODE_SIM) $(BUILD)/bench/core.json $(or $(CORE_BENCH_SYNTH),-) $(CORE_BENCH_ELFS)
