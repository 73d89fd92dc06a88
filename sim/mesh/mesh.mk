# mesh-sim: the whole-machine Verilator simulator (sim/mesh) of rtl/tile's mesh_top.
#   make mesh-sim   ->  $(BUILD)/bin/mesh-sim --elf FILE [--max-cycles N] [--trace F.fst]
# One model per machine shape: config.mk's MESH_DIMS/X/Y/Z/TORUS become mesh_top's
# parameters (make mesh-sim MESH_X=8 MESH_Y=8 rebuilds for that shape).

MESH_SIM_SIZE_Z := $(if $(filter 3,$(MESH_DIMS)),$(MESH_Z),1)
MESH_SIM_SRCS   := sim/mesh/mesh_sim.cpp sim/node/elf32.cpp
MESH_SIM_HDRS   := sim/node/elf32.h
MESH_SIM_VFLAGS := --cc --exe --build -j 2 -O3 --x-assign fast --trace-fst \
                   --top-module mesh_top $(MESH_TOP_PARAMS) -Wno-fatal \
                   -MAKEFLAGS "OPT_FAST=-O2 OPT_GLOBAL=-O2"
MESH_SIM_CFLAGS := -O2 -std=c++14 -Wall -Wextra -DRVMESH_RAM_BASE=$(RAM_BASE)ull \
                   -DRVMESH_RAM_BYTES=$(RAM_BYTES)ull -DMESH_DIMS=$(MESH_DIMS) \
                   -DMESH_SIZE_X=$(MESH_X) -DMESH_SIZE_Y=$(MESH_Y) \
                   -DMESH_SIZE_Z=$(MESH_SIM_SIZE_Z) -DMESH_TORUS=$(MESH_TORUS) \
                   -I$(CURDIR)/sim/node
MESH_SIM := $(BUILD)/bin/mesh-sim

.PHONY: mesh-sim mesh-sim-config-check
mesh-sim: $(MESH_SIM)
# the flags (shape, memory map) in a stamp rewritten only when they change
mesh-sim-config-check:
	@mkdir -p $(BUILD)/mesh-sim
	@echo "$(subst ',,$(subst ",,$(MESH_SIM_VFLAGS) $(MESH_SIM_CFLAGS)))" > $(BUILD)/mesh-sim/config.stamp.tmp
	@cmp -s $(BUILD)/mesh-sim/config.stamp.tmp $(BUILD)/mesh-sim/config.stamp && rm -f $(BUILD)/mesh-sim/config.stamp.tmp || \
	  mv $(BUILD)/mesh-sim/config.stamp.tmp $(BUILD)/mesh-sim/config.stamp
$(BUILD)/mesh-sim/config.stamp: mesh-sim-config-check ;
$(MESH_SIM): $(TILE_RTL) $(MESH_SIM_SRCS) $(MESH_SIM_HDRS) $(BUILD)/mesh-sim/config.stamp
	@mkdir -p $(dir $@)
	verilator $(MESH_SIM_VFLAGS) -Mdir $(BUILD)/mesh-sim/obj -o mesh-sim \
	  -CFLAGS "$(MESH_SIM_CFLAGS)" $(TILE_RTL) $(abspath $(MESH_SIM_SRCS)) >$(BUILD)/mesh-sim/build.log 2>&1 \
	  || { tail -n 40 $(BUILD)/mesh-sim/build.log; exit 1; }
	cp $(BUILD)/mesh-sim/obj/mesh-sim $@.tmp && mv -f $@.tmp $@
