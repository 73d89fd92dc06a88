# SPDX-License-Identifier: ISC
# mesh-sim: the whole-machine Verilator simulator (sim/mesh) of rtl/tile's mesh_top.
#   make mesh-sim          ->  $(BUILD)/bin/mesh-sim, config.mk's machine
#   make mesh-sim-5x5t     ->  $(BUILD)/bin/mesh-sim-5x5t, another shape (MESH_SIM_VARIANTS)
# One model per machine shape: the shape becomes mesh_top's parameters and the harness's
# -D flags; everything else (RAM, ISA, flit width) comes from config.mk for every variant.
# `make mesh-sim MESH_X=8 MESH_Y=8` still rebuilds the default binary for that shape.

MESH_SIM_SRCS := sim/mesh/mesh_sim.cpp sim/mesh/mesh_faults.cpp sim/mesh/mesh_jobs.cpp sim/mesh/mesh_program.cpp sim/mesh/mesh_view.cpp \
                 sim/node/elf32.cpp sim/node/sim_common.cpp sim/node/sim_verilated.cpp
# the replay viewer's page (sim/viewer/viewer.html) as a C++ string literal, compiled into mesh-sim
MESH_VIEW_INC := $(BUILD)/gen/mesh_view_html.inc
MESH_SIM_HDRS := sim/node/elf32.h sim/node/sim_common.h sim/node/sim_run.h sim/mesh/mesh_faults.h sim/mesh/mesh_jobs.h sim/mesh/mesh_program.h sim/mesh/mesh_view.h \
                 $(MESH_VIEW_INC) firmware/coll/coll_jobs.h $(SCHED_HEADERS)
$(MESH_VIEW_INC): sim/viewer/viewer.html
	@mkdir -p $(dir $@)
	@{ echo 'R"rvmeshviewer('; cat $<; echo ')rvmeshviewer"'; } >$@.tmp && mv $@.tmp $@
# Verilator configuration: one body of code shared by all the tiles (see the file); not for
# the multi-threaded models, which it made slower (4x4: 8,800 -> 6,200 cycles/s, measured before
# its shared variables became read-only public, 2026-11-26; not measured since)
MESH_SIM_VLT := sim/mesh/mesh_share.vlt
# the test bench reads schedule tables with the schedule library's host build
MESH_SIM_LIBS := $(SCHED_HOST_OBJS)

# Shapes built besides config.mk's: NAME:DIMS:X:Y:Z:TORUS[:THREADS[:xrand|guard|board]]. Tests use
# 4x4m, 5x5t, 3x3x3m, the two-thread 2x2t-mt beside 2x2t, 3x3x3t-xrand (every register starts random,
# --x-seed N: the 3x3x3 torus of the tests) and 4x4t-guard (every link protected, with
# fault injection: mesh_top GUARD = 1), 4x4m-board (the iCE40 board's tile); the benchmarks 8x8t, 8x8m and 8x8t-mt, and
# make bench-sim 2x2t to 16x16t, one thread and two.
MESH_SIM_VARIANTS := 4x4m:2:4:4:1:0 4x4t:2:4:4:1:1 5x5t:2:5:5:1:1 3x3x3t:3:3:3:3:1 3x3x3m:3:3:3:3:0 \
                     8x8t:2:8:8:1:1 8x8m:2:8:8:1:0 4x4t-mt:2:4:4:1:1:2 8x8t-mt:2:8:8:1:1:2 3x3x3t-xrand:3:3:3:3:1:1:xrand 4x4t-guard:2:4:4:1:1:1:guard \
                     4x4m-board:2:4:4:1:0:1:board \
                     2x2t:2:2:2:1:1 2x2t-mt:2:2:2:1:1:2 16x16t:2:16:16:1:1 16x16t-mt:2:16:16:1:1:2 \
                     8x8t-pgo:2:8:8:1:1:1:pgo 16x16t-pgo:2:16:16:1:1:1:pgo
# Any other shape on request: make mesh-sim-6x6t MESH_SIM_EXTRA=6x6t (XxY or XxYxZ, then t for
# a torus or m for a mesh; the application kit, kit/program.mk, asks for its SHAPE this way)
MESH_SIM_EXTRA ?=
MESH_SIM_EXTRA += $(VIEW_SHAPE)
mesh_sim_sides = $(subst x, ,$(patsubst %t,%,$(patsubst %m,%,$(1))))
mesh_sim_spec = $(1):$(words $(call mesh_sim_sides,$(1))):$(word 1,$(call mesh_sim_sides,$(1))):$(word 2,$(call mesh_sim_sides,$(1))):$(or $(word 3,$(call mesh_sim_sides,$(1))),1):$(if $(filter %t,$(1)),1,0)
MESH_SIM_VARIANTS += $(foreach v,$(filter-out $(foreach w,$(MESH_SIM_VARIANTS),$(firstword $(subst :, ,$(w)))),$(MESH_SIM_EXTRA)),$(if $(and $(filter %t %m,$(v)),$(filter 2 3,$(words $(call mesh_sim_sides,$(v))))),$(call mesh_sim_spec,$(v)),$(error MESH_SIM_EXTRA: '$(v)' is not a shape like 6x6t, 4x8m or 3x3x3t)))

# The tile's parameters: config.mk's simulated machine, or (FLAG "board") the iCE40 board's
# router, core and one-word RAM lines (config.mk ROUTER_BOARD_*, CORE_BOARD_*; the 64-bit
# counters stay in logic: the SB_MAC16 model is not part of mesh-sim) on the simulated machine
MESH_DEFAULT_PARAMS := -GVCS=$(ROUTER_VCS) -GBUF_DEPTH=$(ROUTER_BUF_DEPTH) -GINJ_DEPTH=$(ROUTER_INJ_DEPTH) \
                       $(NODE_TOP_PARAMS) -GLINE_WORDS=$(LINE_WORDS) -GCOMBINE=$(NI_COMBINE)
MESH_BOARD_PARAMS   := -GVCS=$(ROUTER_BOARD_VCS) -GBUF_DEPTH=$(ROUTER_BOARD_BUF_DEPTH) \
                       -GINJ_DEPTH=$(ROUTER_BOARD_INJ_DEPTH) -GBUF_RAM=$(ROUTER_BOARD_BUF_RAM) \
                       -GINJ_ANY_PORT=$(ROUTER_BOARD_INJ_ANY_PORT) -GPIPELINE=$(ROUTER_BOARD_PIPELINE) \
                       -GSIDE_BITS=$(ROUTER_BOARD_SIDE_BITS) $(NODE_TOP_PARAMS) \
                       $(filter-out -GDSP_COUNTERS=%,$(CORE_BOARD_PARAMS)) -GLINE_WORDS=1 -GCOMBINE=$(NI_BOARD_COMBINE)

# $(call mesh_sim_build,TARGET,DIR,DIMS,X,Y,Z,TORUS,THREADS,TRACE,FLAG): the rules of one
# binary (TRACE "yes": with --trace-fst, which the variants leave out: it costs a third of the
# build; FLAG "xrand": random initial values, see node.mk; "guard": protected links, mesh_top
# GUARD = 1; "board": the board's tile, above). DIR/build.time: the last build's
# wall-clock milliseconds and the load average then (make bench-sim reports them).
# -O2 goes in OPT_FAST, not in the C flags: those reach every file, and the model's cold
# code (__Slow: construction and the first settle, run once) builds fastest at -O0.
# FLAG "pgo": built twice, the second time with the profile of a training run in between
# (gcc -fprofile-generate / -fprofile-use): a broadcast of 1 KiB (saf-bcast, any shape) by
# collectives.elf from reset to the end, not the job make bench-sim times.
MESH_PGO_DEPS := $(BUILD)/bin/schedgen $(BUILD)/fw/firmware/apps/mesh/collectives.elf
mesh_pgo_gen = -fprofile-generate=$(abspath $(1))/profile -fprofile-update=single
mesh_pgo_use = -fprofile-use=$(abspath $(1))/profile -fprofile-partial-training -Wno-missing-profile
# $(call mesh_sim_pgo,DIR,SHAPE,TORUS,CFLAGS): the training run, then the build with its profile
mesh_sim_pgo = rm -rf $(1)/profile && \
	$(BUILD)/bin/schedgen --shape $(2) $(if $(filter 1,$(3)),--torus,--mesh) --algo saf-bcast --quiet --tables $(1)/train.tbl >$(1)/train.log 2>&1 && \
	$(1)/obj/mesh-sim --elf $(BUILD)/fw/firmware/apps/mesh/collectives.elf --job $(1)/train.tbl:1024 --progress 0 >>$(1)/train.log 2>&1 \
	  || { echo "mesh-sim: the profile's training run failed ($(1)/train.log)"; tail -n 5 $(1)/train.log; false; } && \
	rm -f $(1)/obj/*.o $(1)/obj/*.a $(1)/obj/mesh-sim && \
	$(MAKE) -s -C $(1)/obj -f Vmesh_top.mk -j 2 OPT_FAST=-O2 OPT_SLOW=-O0 OPT_GLOBAL=-O2 \
	  VM_USER_CFLAGS="$(4) $(call mesh_pgo_use,$(1))" mesh-sim >>$(1)/build.log 2>&1 \
	  || { tail -n 40 $(1)/build.log; false; }
define mesh_sim_build
$(2)/vflags := --cc --exe --build -j 2 -O3 -fno-table $(if $(filter xrand,$(10)),$(SIM_X_RAND),$(SIM_X_FAST)) $(if $(9),--trace-fst) $(if $(filter-out 1,$(8)),--threads $(8)) \
    --top-module mesh_top -GDIMS=$(3) -GSIZE_X=$(4) -GSIZE_Y=$(5) -GSIZE_Z=$(6) -GTORUS=$(7) \
    -GFLIT_BITS=$(FLIT_BITS) $(if $(filter board,$(10)),$(MESH_BOARD_PARAMS),$(MESH_DEFAULT_PARAMS)) \
    $(if $(filter guard,$(10)),-GGUARD=1) -Wno-fatal -MAKEFLAGS "OPT_FAST=-O2 OPT_SLOW=-O0 OPT_GLOBAL=-O2"
$(2)/cflags := -std=c++14 -Wall -Wextra -DRVMESH_RAM_BASE=$(RAM_BASE)ull \
    -DRVMESH_RAM_BYTES=$(RAM_BYTES)ull -DRVMESH_LINE_WORDS=$(if $(filter board,$(10)),1,$(LINE_WORDS)) -DMESH_DIMS=$(3) -DMESH_SIZE_X=$(4) -DMESH_SIZE_Y=$(5) \
    -DMESH_SIZE_Z=$(6) -DMESH_TORUS=$(7) -DMESH_VCS=$(if $(filter board,$(10)),$(ROUTER_BOARD_VCS),$(ROUTER_VCS)) -DMESH_SIM_THREADS=$(8) $(if $(filter xrand,$(10)),-DRVMESH_XRAND) -DMESH_GUARD=$(if $(filter guard,$(10)),1,0) \
    -I$(CURDIR)/sim/node -I$(CURDIR)/sim/mesh -I$(CURDIR) -I$(abspath $(dir $(MESH_VIEW_INC)))
# the flags in a stamp rewritten only when they change (a new shape or memory map rebuilds)
$(2)/config.stamp: FORCE
	@mkdir -p $(2)
	@echo "$$(subst ',,$$(subst ",,$$($(2)/vflags) $$($(2)/cflags)))" > $$@.tmp
	@cmp -s $$@.tmp $$@ && rm -f $$@.tmp || mv $$@.tmp $$@
$(1): $(TILE_RTL) $(MESH_SIM_SRCS) $(MESH_SIM_HDRS) $(MESH_SIM_LIBS) $(MESH_SIM_VLT) $(2)/config.stamp $(if $(filter pgo,$(10)),$(MESH_PGO_DEPS))
	@mkdir -p $$(dir $$@)
	@echo "verilator mesh_top ($(4)x$(5)x$(6), torus=$(7), threads=$(8)) -> $$@ (log: $(2)/build.log)"
	@t0=$$$$(date +%s%N); \
	verilator $$($(2)/vflags) -Mdir $(2)/obj -o mesh-sim -CFLAGS "$$($(2)/cflags)$(if $(filter pgo,$(10)), $(call mesh_pgo_gen,$(2)))" \
	  $(if $(filter pgo,$(10)),-LDFLAGS "$(call mesh_pgo_gen,$(2))") \
	  $(if $(filter-out 1,$(8)),,$(MESH_SIM_VLT)) $(TILE_RTL) $(abspath $(MESH_SIM_SRCS) $(MESH_SIM_LIBS)) >$(2)/build.log 2>&1 \
	  || { tail -n 40 $(2)/build.log; exit 1; }; \
	$(if $(filter pgo,$(10)),$(call mesh_sim_pgo,$(2),$(4)x$(5)$(if $(filter-out 1,$(6)),x$(6)),$(7),$$($(2)/cflags)) || exit 1;) \
	echo "$$$$(( ($$$$(date +%s%N) - t0) / 1000000 )) $$$$(cut -d' ' -f1 /proc/loadavg)" >$(2)/build.time
	@cp $(2)/obj/mesh-sim $$@.tmp && mv -f $$@.tmp $$@
endef

MESH_SIM := $(BUILD)/bin/mesh-sim
MESH_SIM_Z := $(if $(filter 3,$(MESH_DIMS)),$(MESH_Z),1)
$(eval $(call mesh_sim_build,$(MESH_SIM),$(BUILD)/mesh-sim,$(MESH_DIMS),$(MESH_X),$(MESH_Y),$(MESH_SIM_Z),$(MESH_TORUS),1,yes))

mesh_sim_field = $(word $(2),$(subst :, ,$(1)))
$(foreach v,$(MESH_SIM_VARIANTS),$(eval $(call mesh_sim_build,$(BUILD)/bin/mesh-sim-$(call mesh_sim_field,$(v),1),$(BUILD)/mesh-sim-$(call mesh_sim_field,$(v),1),$(call mesh_sim_field,$(v),2),$(call mesh_sim_field,$(v),3),$(call mesh_sim_field,$(v),4),$(call mesh_sim_field,$(v),5),$(call mesh_sim_field,$(v),6),$(or $(call mesh_sim_field,$(v),7),1),,$(call mesh_sim_field,$(v),8))))

MESH_SIM_VARIANT_NAMES := $(foreach v,$(MESH_SIM_VARIANTS),mesh-sim-$(call mesh_sim_field,$(v),1))
.PHONY: mesh-sim $(MESH_SIM_VARIANT_NAMES)
mesh-sim: $(MESH_SIM)
$(MESH_SIM_VARIANT_NAMES): mesh-sim-%: $(BUILD)/bin/mesh-sim-%

# make bench-mesh: collectives on the 4x4 and 8x8 tori (sim/mesh/bench_mesh.sh)
BENCH_TARGETS += bench-mesh
.PHONY: bench-mesh
bench-mesh:
	BUILD=$(BUILD) sim/mesh/bench_mesh.sh

# make bench-sim: the simulator's own speed, 2x2 to 16x16 tori, one thread and two
# (sim/mesh/bench_sim.sh): $(BUILD)/bench/sim.json and sim.svg
BENCH_TARGETS += bench-sim
.PHONY: bench-sim
bench-sim:
	BUILD=$(BUILD) sim/mesh/bench_sim.sh

# make bench-coll: every collective and schedule against the baselines, 4x4 and 8x8 tori and
# the 8x8 mesh, blocks from 16 bytes to the largest that fits (sim/mesh/bench_coll.sh)
BENCH_TARGETS += bench-coll
.PHONY: bench-coll
bench-coll:
	BUILD=$(BUILD) sim/mesh/bench_coll.sh

# make view: a replay of one run in the viewer page (sim/viewer/README.md):
#   make view                                   allgather (mnb-opt) of 256-byte blocks on
#                                               config.mk's machine -> $(BUILD)/view/view.html
#   make view VIEW_JOBS="tsay-wang:0,0:1024 te-a3:-:64"   these collectives (ALGO:ROOT:BYTES)
#   make view VIEW_SHAPE=8x8t                   on another machine (builds mesh-sim-8x8t)
#   make view VIEW_ELF=prog.elf VIEW_JOBS=      any program, no --job
#   VIEW_OUT=FILE.html, VIEW_ARGS="--max-cycles N ..." (more mesh-sim arguments)
VIEW_SHAPE ?=
VIEW_JOBS ?= mnb-opt:1,1:256
VIEW_ELF ?= $(BUILD)/fw/firmware/apps/mesh/collectives.elf
VIEW_OUT ?= $(BUILD)/view/view.html
VIEW_ARGS ?=
VIEW_SIM := $(if $(VIEW_SHAPE),$(BUILD)/bin/mesh-sim-$(VIEW_SHAPE),$(MESH_SIM))
.PHONY: view
view: $(VIEW_SIM) schedgen $(VIEW_ELF)
	@BUILD=$(BUILD) SIM=$(VIEW_SIM) SHAPE=$(or $(VIEW_SHAPE),$(MESH_X)x$(MESH_Y)$(if $(filter 3,$(MESH_DIMS)),x$(MESH_Z))$(if $(filter 1,$(MESH_TORUS)),t,m)) \
	  ELF=$(VIEW_ELF) JOBS="$(VIEW_JOBS)" OUT=$(VIEW_OUT) ARGS="$(VIEW_ARGS)" sim/viewer/view.sh
