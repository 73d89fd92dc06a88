# SPDX-License-Identifier: ISC
# rvmesh: RISC-V soft cores on an all-port wormhole mesh, simulated with Verilator.
#
# Start here:  make demo   (installs what is missing, builds, runs the main job)
#              make test   (installs what is missing, builds, runs every test)
#              make help   (every target)
#
# The machine is described once, in config.mk; override on the command line,
# e.g. `make demo MESH_X=5 MESH_Y=5`.

include config.mk

BUILD ?= build
export BUILD

# Fragments append to these lists; the top-level targets below run them.
BENCH_TARGETS :=
LINT_TARGETS  :=

.PHONY: help deps demo test bench lint layers clean
.DEFAULT_GOAL := help

help:
	@echo "rvmesh targets:"
	@echo "  make demo         install what is missing, build, run the main demo job"
	@echo "  make test         install what is missing, build, run every test (ends 'N passed, M failed, K skipped')"
	@echo "  make bench        slow sweeps and measurements; tables on stdout, JSON under $(BUILD)/bench/"
	@echo "  make fuzz         libFuzzer on the loaders and parsers, FUZZ_RUNS (10^6) each; $(BUILD)/bench/fuzz.json (tests/fuzz)"
	@echo "  make soak         10^7 packets (SOAK_PACKETS) over the 8x8 mesh and torus, protected links, bit flips; $(BUILD)/bench/soak.json"
	@echo "  make lint         verilator --lint-only -Wall on every RTL top, and make layers"
	@echo "  make layers       the C/C++ dependencies point one way: no cycle, none upward (tools/layers.sh --help)"
	@echo "  make deps         install the Debian packages rvmesh needs (as root), or say how, and the browser tests' npm package"
	@echo "  make node-sim     build the single-node simulator ($(BUILD)/bin/node-sim)"
	@echo "  make mesh-sim     build the whole-machine simulator ($(BUILD)/bin/mesh-sim) for config.mk's shape"
	@echo "  make view         a replay of one run in the browser, offline: $(BUILD)/view/view.html (VIEW_SHAPE, VIEW_JOBS, VIEW_ELF; sim/viewer/README.md)"
	@echo "  make mesh-sim-5x5t  the same for another shape: $(MESH_SIM_VARIANT_NAMES)"
	@echo "  make schedgen     build the schedule generator/checker ($(BUILD)/bin/schedgen)"
	@echo "  make bench-mesh   one benchmark of make bench (also: $(filter-out bench-mesh,$(BENCH_TARGETS)))"
	@echo "  make fw-all       build every firmware program and test program"
	@echo "  make new-program DIR=~/myprog  a program of your own from kit/template (docs/first-program.md)"
	@echo "  make clean        remove $(BUILD)/"
	@echo "  make test T=core  run only the test scripts whose path contains 'core'"
	@echo "  make -C boards BOARD=icebreaker   FPGA board bitstream, report.json, prog (make -C boards help)"
	@echo "Machine (config.mk): $(MESH_DIMS)-D $(MESH_X)x$(MESH_Y)$(if $(filter 3,$(MESH_DIMS)),x$(MESH_Z)) $(if $(filter 1,$(MESH_TORUS)),torus,mesh), $(RISCV_ARCH), RAM $(RAM_BYTES) bytes at $(RAM_BASE)"

deps:
	@tools/install-deps.sh

test: deps
	@tests/run.sh $(T)

bench: deps
	@mkdir -p $(BUILD)/bench
	@$(MAKE) --no-print-directory $(BENCH_TARGETS)
	@echo "bench results: $(BUILD)/bench/*.json"

# (the fragments included below fill LINT_TARGETS, so it is expanded in the recipe)
lint: deps
	@$(MAKE) --no-print-directory $(LINT_TARGETS)
	@echo "lint: $(LINT_TARGETS) clean"

# no include or call cycle, no dependency upward (host tools -> tables -> firmware; sim on top)
layers:
	@tools/layers.sh
LINT_TARGETS += layers

demo: deps
	@MESH_DIMS=$(MESH_DIMS) MESH_X=$(MESH_X) MESH_Y=$(MESH_Y) MESH_Z=$(MESH_Z) \
	  MESH_TORUS=$(MESH_TORUS) tools/demo.sh

clean:
	rm -rf $(BUILD)

# The parts of the build, each described beside the sources it builds.
include firmware/firmware.mk
include tools/sched/sched.mk
include rtl/rtl.mk
include rtl/tile/tile.mk
include rtl/link/link.mk
include sim/node/node.mk
include sim/noc/noc.mk
include sim/mesh/mesh.mk
include firmware/drivers/drivers.mk
include tests/firmware/firmware-tests.mk
include kit/kit.mk
include firmware/apps/dynamic/dynamic.mk
include tests/fuzz/fuzz.mk
