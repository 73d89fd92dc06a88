# SPDX-License-Identifier: ISC
# node-sim: the single-node Verilator simulator (sim/node) of rtl/core's node_top.
#   make node-sim          ->  $(BUILD)/bin/node-sim --elf FILE [--max-cycles N] [--trace F.fst]
#   make node-sim-stress   ->  $(BUILD)/bin/node-sim-stress, for tests: the core with its
#                              iterative multiplier (MUL_KIND=0) and 2-bit divider steps
#                              (DIV_BITS=2) on a data bus with pseudo-random wait states
#                              (node_top BUS_WAIT_TEST=1)
#   make node-sim-xrand    ->  $(BUILD)/bin/node-sim-xrand, for tests: every register starts
#                              random (--x-seed N), so one missing from reset shows
#   make node-sim-board    ->  $(BUILD)/bin/node-sim-board: the core in the iCE40 board's
#                              configuration (config.mk's CORE_BOARD_*)

NODE_SIM_SRCS   := sim/node/node_sim.cpp sim/node/elf32.cpp sim/node/sim_common.cpp sim/node/sim_verilated.cpp
NODE_SIM_HDRS   := sim/node/elf32.h sim/node/sim_common.h sim/node/sim_run.h
NODE_SIM_VFLAGS := --cc --exe --build -j 2 -O3 --trace-fst \
                   --top-module node_top $(NODE_TOP_PARAMS) -Wno-fatal \
                   -MAKEFLAGS "OPT_FAST=-O2 OPT_SLOW=-O0 OPT_GLOBAL=-O2"
NODE_SIM_CFLAGS := -std=c++14 -Wall -Wextra -DRVMESH_RAM_BASE=$(RAM_BASE)ull \
                   -DRVMESH_RAM_BYTES=$(RAM_BYTES)ull -I$(CURDIR)/sim/node

# Initial values: zero (Verilator's default reset value), or random from --x-seed in the
# xrand models (the harness sets the context's random reset before building the model).
SIM_X_FAST  := --x-assign fast
SIM_X_RAND  := --x-assign unique --x-initial unique

# $(call node_sim_rule,NAME,EXTRA_VERILATOR_FLAGS[,EXTRA_CFLAGS]): builds $(BUILD)/bin/NAME in
# $(BUILD)/NAME/. NAME's config.stamp holds the flags (with config.mk's memory map) and is
# rewritten only when they change, so that a flag change rebuilds and nothing else does.
define node_sim_rule
.PHONY: $(1) $(1)-config-check
$(1): $(BUILD)/bin/$(1)
$(1)-config-check:
	@mkdir -p $(BUILD)/$(1)
	@echo "$$(subst ',,$$(subst ",,$(NODE_SIM_VFLAGS) $(2) $(NODE_SIM_CFLAGS) $(3)))" > $(BUILD)/$(1)/config.stamp.tmp
	@cmp -s $(BUILD)/$(1)/config.stamp.tmp $(BUILD)/$(1)/config.stamp && rm -f $(BUILD)/$(1)/config.stamp.tmp || \
	  mv $(BUILD)/$(1)/config.stamp.tmp $(BUILD)/$(1)/config.stamp
$(BUILD)/$(1)/config.stamp: $(1)-config-check ;
$(BUILD)/bin/$(1): $(CORE_RTL) $(NODE_SIM_SRCS) $(NODE_SIM_HDRS) $(BUILD)/$(1)/config.stamp
	@n=$$$$(($(RAM_BYTES))); b=$$$$(($(RAM_BASE))); \
	  if [ $$$$n -lt 1024 ] || [ $$$$((n & (n - 1))) -ne 0 ] || [ $$$$((b % n)) -ne 0 ]; then \
	    echo "node-sim: RAM_BYTES=$(RAM_BYTES) must be a power of two (at least 1024) and RAM_BASE=$(RAM_BASE) a multiple of it (config.mk)" >&2; exit 1; fi
	@mkdir -p $$(dir $$@)
	verilator $(NODE_SIM_VFLAGS) $(2) -Mdir $(BUILD)/$(1)/obj -o $(1) \
	  -CFLAGS "$(NODE_SIM_CFLAGS) $(3)" $(CORE_RTL) $(abspath $(NODE_SIM_SRCS)) >$(BUILD)/$(1)/build.log 2>&1 \
	  || { tail -n 40 $(BUILD)/$(1)/build.log; exit 1; }
	cp $(BUILD)/$(1)/obj/$(1) $$@.tmp && mv -f $$@.tmp $$@
endef

NODE_SIM := $(BUILD)/bin/node-sim
$(eval $(call node_sim_rule,node-sim,$(SIM_X_FAST)))
$(eval $(call node_sim_rule,node-sim-stress,$(SIM_X_FAST) -GBUS_WAIT_TEST=1 -GMUL_KIND=0 -GDIV_BITS=2))
$(eval $(call node_sim_rule,node-sim-xrand,$(SIM_X_RAND),-DRVMESH_XRAND))
$(eval $(call node_sim_rule,node-sim-board,$(SIM_X_FAST) $(CORE_BOARD_PARAMS) $(abspath $(CORE_MAC16_MODEL))))
$(BUILD)/bin/node-sim-board: $(CORE_MAC16_MODEL)

# make bench-core: CPI of every C test program on node-sim and on node-sim-board (the board
# configuration) side by side, node-sim speed, core cell counts in both (yosys)
CORE_BENCH_ELFS := $(patsubst %.c,$(BUILD)/fw/%.elf,$(wildcard tests/firmware/programs/*.c))
CORE_BENCH_SYNTH := $(if $(shell command -v yosys 2>/dev/null),$(CORE_SYNTH_STAT) $(CORE_SYNTH_BOARD_STAT))
BENCH_TARGETS += bench-core
.PHONY: bench-core
bench-core: $(NODE_SIM) $(BUILD)/bin/node-sim-board $(CORE_BENCH_ELFS) $(CORE_BENCH_SYNTH)
	@sim/node/bench_core.sh $(NODE_SIM) $(BUILD)/bin/node-sim-board $(BUILD)/bench/core.json \
	  $(or $(CORE_BENCH_SYNTH),- -) $(CORE_BENCH_ELFS)
