# SPDX-License-Identifier: ISC
# Traffic test bench of the router network (rtl/noc): noc-sim, one Verilator model holding
# a network of every listed shape (the shape is chosen at run time with --shape/--torus).
#
#   make noc-sim            $(BUILD)/bin/noc-sim: the test shapes and config.mk's shape
#   make bench-router       $(BUILD)/bin/noc-sim-bench (8x8 mesh and torus), then sweeps:
#                           table on stdout, JSON and SVG under $(BUILD)/bench/
#   make noc-sim-guard      $(BUILD)/bin/noc-sim-guard: the same bench, every link protected
#                           (rtl/noc/link_guard_*), fault injection (--flip-rate, --dead-link);
#                           4x4 torus (NOC_GUARD_SHAPES), for the tests
#   make soak               >= 10^7 packets with bit flips (sim/noc/soak.sh) through
#                           $(BUILD)/bin/noc-sim-soak, the same on the 8x8 mesh and torus
#   make noc-sim NOC_EXTRA_SHAPES=6x6t   add a shape
#
# A shape is XxY[xZ], then m (mesh) or t (torus), then optionally the flit depth of each
# virtual-channel buffer (default NOC_BUF_DEPTH), vN, the VCs per link (1, 2, 4 or 8;
# default NOC_VCS), and b for the board profile (config.mk's ROUTER_BOARD_* router, whose
# depth and VCs are then the defaults): 8x8t16v4 is an 8x8 torus with four 16-flit VCs per
# link, 2x2mb a 2x2 mesh of board routers (sim/noc/noc_shapes.sh checks the list).

NOC_CONFIG_SHAPE  := $(MESH_X)x$(MESH_Y)$(if $(filter 3,$(MESH_DIMS)),x$(MESH_Z))$(if $(filter 1,$(MESH_TORUS)),t,m)
NOC_SHAPES        ?= 2x2m 4x4m 8x4m 4x4t 5x5t 3x3x3t 3x3x3m 1x8m 4x4t4v4 3x3m4v8 4x4t3 4x4m8 \
                     4x4t4v2h 3x3m4v1 2x2mb 4x4mb 2x2tb 4x4t4v2b
NOC_BENCH_SHAPES  ?= 8x8m 8x8t 8x8m16 8x8t16 8x8t4v4 8x8t16v4 8x8m16v4 8x8t16v8 8x8t32v8
NOC_GUARD_SHAPES  ?= 4x4t
NOC_SOAK_SHAPES   ?= 8x8m 8x8t
# the simulated machine's router (config.mk)
NOC_BUF_DEPTH     ?= $(ROUTER_BUF_DEPTH)
NOC_INJ_DEPTH     ?= $(ROUTER_INJ_DEPTH)
NOC_VCS           ?= $(ROUTER_VCS)

NOC_SIM       := $(BUILD)/bin/noc-sim
NOC_BENCH_SIM := $(BUILD)/bin/noc-sim-bench
NOC_GUARD_SIM := $(BUILD)/bin/noc-sim-guard
NOC_SOAK_SIM  := $(BUILD)/bin/noc-sim-soak
NOC_TB_SRCS   := sim/noc/noc_tb_top.v
NOC_CPP       := sim/noc/noc_bench.cpp

.PHONY: noc-sim noc-sim-bench noc-sim-guard noc-sim-soak bench-router FORCE
noc-sim: $(NOC_SIM)
noc-sim-bench: $(NOC_BENCH_SIM)
noc-sim-guard: $(NOC_GUARD_SIM)
noc-sim-soak: $(NOC_SOAK_SIM)

# $(call noc_shapes_rule,GENDIR,SHAPES): the shape list as a Verilog include and a C++
# header (sim/noc/noc_shapes.sh), rewritten only when it changes.
NOC_SHAPES_ENV = FLIT_BITS=$(FLIT_BITS) NOC_BUF_DEPTH=$(NOC_BUF_DEPTH) NOC_INJ_DEPTH=$(NOC_INJ_DEPTH) \
  NOC_VCS=$(NOC_VCS) ROUTER_BOARD_VCS=$(ROUTER_BOARD_VCS) ROUTER_BOARD_BUF_DEPTH=$(ROUTER_BOARD_BUF_DEPTH) \
  ROUTER_BOARD_INJ_DEPTH=$(ROUTER_BOARD_INJ_DEPTH) ROUTER_BOARD_BUF_RAM=$(ROUTER_BOARD_BUF_RAM) \
  ROUTER_BOARD_INJ_ANY_PORT=$(ROUTER_BOARD_INJ_ANY_PORT) ROUTER_BOARD_PIPELINE=$(ROUTER_BOARD_PIPELINE) \
  ROUTER_BOARD_SIDE_BITS=$(ROUTER_BOARD_SIDE_BITS)
define noc_shapes_rule
$(1)/noc_shapes.vh: FORCE
	@$(NOC_SHAPES_ENV) NOC_GUARD=$(if $(3),1,0) sim/noc/noc_shapes.sh $(1) "$(2)"
$(1)/noc_shapes.h: $(1)/noc_shapes.vh
endef

# $(call noc_sim_rule,BINARY,OBJDIR,SHAPES[,GUARD]): GUARD non-empty: protected links
define noc_sim_rule
$(eval $(call noc_shapes_rule,$(2)/gen,$(3),$(4)))
# (No -G options: Verilator 5.006 would pass them into the hierarchical router blocks and
# override their per-instance parameters; the sizes come from noc_shapes.vh instead.)
$(1): $(NOC_RTL) $(NOC_TB_SRCS) $(NOC_CPP) $(2)/gen/noc_shapes.vh $(2)/gen/noc_shapes.h sim/noc/noc.mk sim/noc/noc_shapes.sh
	@mkdir -p $$(dir $$@) $(2)/obj
	@echo "verilator: building $$(notdir $$@) ($(3)); a few minutes"
	@verilator --cc --exe --build --hierarchical -j 2 -Wno-UNOPTFLAT --x-assign fast --x-initial fast \
	  --trace-fst -O3 --top-module noc_tb_top -Mdir $(2)/obj -I$(2)/gen -Irtl/noc \
	  -CFLAGS "-std=c++14 -O1 -Wall -Wextra -DNOC_FLIT_BITS=$(FLIT_BITS) -I$(abspath $(2)/gen)" \
	  -MAKEFLAGS "OPT_FAST=-O1 OPT_SLOW=-O1 OPT_GLOBAL=-O1" \
	  $(NOC_TB_SRCS) $(NOC_RTL) $(abspath $(NOC_CPP)) -o $$(notdir $$@) >$(2)/build.log 2>&1 \
	  || { tail -n 30 $(2)/build.log; exit 1; }
	@cp $(2)/obj/$$(notdir $$@) $$@
endef

$(eval $(call noc_sim_rule,$(NOC_SIM),$(BUILD)/noc/test,$(sort $(NOC_SHAPES) $(NOC_CONFIG_SHAPE) $(NOC_EXTRA_SHAPES))))
$(eval $(call noc_sim_rule,$(NOC_BENCH_SIM),$(BUILD)/noc/bench,$(NOC_BENCH_SHAPES)))
$(eval $(call noc_sim_rule,$(NOC_GUARD_SIM),$(BUILD)/noc/guard,$(NOC_GUARD_SHAPES),1))
$(eval $(call noc_sim_rule,$(NOC_SOAK_SIM),$(BUILD)/noc/soak,$(NOC_SOAK_SHAPES),1))

# Benchmark: latency vs offered load of uniform random traffic on 8x8 mesh and torus,
# saturation throughput against the bisection limit, cycles per hop, iCE40 cost per router.
BENCH_TARGETS += bench-router
bench-router: $(NOC_BENCH_SIM) $(NOC_SIM)
	@BUILD=$(BUILD) FLIT_BITS=$(FLIT_BITS) NOC_BUF_DEPTH=$(NOC_BUF_DEPTH) sim/noc/bench_router.sh

# Soak (not part of make test or make bench): SOAK_PACKETS (10^7) packets over the 8x8
# mesh and torus, mixed patterns, bit flips at SOAK_FLIP_RATE (1e-6) per flit, every link
# protected; $(BUILD)/bench/soak.json. The guarded 8x8 networks simulate at about 650-1600
# cycles/s: 1.26 million packets took 793 s of one core on the shared 2-core machine, so the
# full 10^7 takes about 1.75 hours of one core; the 8 runs go SOAK_JOBS at a time (default:
# every core): 2,350 s there for 10,317,809 packets (SOAK_PACKETS=1200000 for a few minutes).
.PHONY: soak
soak: $(NOC_SOAK_SIM)
	@BUILD=$(BUILD) sim/noc/soak.sh
