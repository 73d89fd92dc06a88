# SPDX-License-Identifier: ISC
# The schedule library. What a node runs is in firmware/sched (portable C11, no allocation:
# shapes, names, the table reader, the run-time rules); the host side is here, in tools/sched,
# by job: base (growing a schedule), check (the checker, portable too), the algorithm families
# bcast, exchange, baseline and dynamic, gen (one dispatcher from name to generator, and the
# bounds), out (dump, tables, SVG) and schedgen (the command-line tool and the benchmarks).
#
#   make schedgen        $(BUILD)/bin/schedgen
#   make sched-rv32      the portable part (node + checker) compiled for $(RISCV_ARCH)/$(RISCV_ABI)
#                        (objects only), and the host part too (it must stay portable C11)
#   make bench-sched     sweeps; JSON in $(BUILD)/bench/schedules.json
#   make sched-tables    tables for the machine of config.mk, under $(BUILD)/sched/tables/
#                        (every algorithm that applies to the shape and needs no source set)

SCHED_DIR      := firmware/sched
SCHED_TOOLS    := tools/sched
SCHED_HOST_CC  ?= gcc
# node headers by name ("sched.h"), host headers by folder ("gen/sched_gen.h")
SCHED_INCS     := -I$(SCHED_DIR) -I$(SCHED_TOOLS)
SCHED_CFLAGS   := -std=c11 -O2 -Wall -Wextra -Werror $(SCHED_INCS)
SCHED_HEADERS  := $(wildcard $(SCHED_DIR)/*.h $(SCHED_TOOLS)/*/*.h)
SCHED_NODE_HEADERS := $(wildcard $(SCHED_DIR)/*.h)
# What the firmware links (firmware/sched): no allocation.
SCHED_PORTABLE := sched_shape sched_names sched_table sched_pmnb sched_dyn
# The checker (tools/sched/check): portable as well; the on-core tests link it.
SCHED_CHECKER  := check/sched_check check/sched_check_coll
# The host part (tools/sched/<folder>/<file>): generators and writers; they allocate.
SCHED_HOSTONLY := base/sched_base base/sched_args \
                  bcast/sched_tw bcast/sched_cw bcast/sched_saf bcast/sched_scatter bcast/sched_edst \
                  exchange/sched_mnb_rule exchange/sched_te exchange/sched_pe exchange/sched_pg \
                  exchange/sched_mnb_opt exchange/sched_exchange_bounds \
                  baseline/sched_baseline dynamic/sched_dyn_sim fault/sched_ft \
                  gen/sched_gen gen/sched_gen_coll out/sched_out
SCHED_HOST_OBJS := $(patsubst %,$(BUILD)/sched/host/%.o,$(SCHED_PORTABLE) $(SCHED_CHECKER) $(SCHED_HOSTONLY))
SCHED_RV32_OBJS := $(patsubst %,$(BUILD)/sched/rv32/%.o,$(SCHED_PORTABLE) $(SCHED_CHECKER) $(SCHED_HOSTONLY))
SCHED_RV32_CFLAGS := -march=$(RISCV_ARCH) -mabi=$(RISCV_ABI) -Os --specs=picolibc.specs \
                     -std=c11 -Wall -Wextra -Werror $(SCHED_INCS)
# every source file of the library, for tools that take them all (tests/fuzz)
SCHED_ALL_C := $(patsubst %,$(SCHED_DIR)/%.c,$(SCHED_PORTABLE)) \
               $(patsubst %,$(SCHED_TOOLS)/%.c,$(SCHED_CHECKER) $(SCHED_HOSTONLY))

.PHONY: schedgen sched-rv32 bench-sched sched-test-bin
schedgen: $(BUILD)/bin/schedgen
sched-rv32: $(SCHED_RV32_OBJS)
sched-test-bin: $(BUILD)/sched/sched_test $(BUILD)/bin/schedgen

$(BUILD)/sched/host/%.o: $(SCHED_DIR)/%.c $(SCHED_HEADERS)
	@mkdir -p $(dir $@)
	$(SCHED_HOST_CC) $(SCHED_CFLAGS) -c $< -o $@

$(BUILD)/sched/host/%.o: $(SCHED_TOOLS)/%.c $(SCHED_HEADERS)
	@mkdir -p $(dir $@)
	$(SCHED_HOST_CC) $(SCHED_CFLAGS) -c $< -o $@

$(BUILD)/sched/rv32/%.o: $(SCHED_DIR)/%.c $(SCHED_HEADERS)
	@mkdir -p $(dir $@)
	$(FW_CC) $(SCHED_RV32_CFLAGS) -c $< -o $@

$(BUILD)/sched/rv32/%.o: $(SCHED_TOOLS)/%.c $(SCHED_HEADERS)
	@mkdir -p $(dir $@)
	$(FW_CC) $(SCHED_RV32_CFLAGS) -c $< -o $@

SCHEDGEN_SRCS := $(SCHED_TOOLS)/schedgen/schedgen.c $(SCHED_TOOLS)/schedgen/schedgen_args.c
$(BUILD)/bin/schedgen: $(SCHEDGEN_SRCS) $(SCHED_HOST_OBJS)
	@mkdir -p $(dir $@)
	$(SCHED_HOST_CC) $(SCHED_CFLAGS) $^ -o $@

$(BUILD)/sched/sched_test: tests/tools/sched/sched_test.c $(SCHED_HOST_OBJS)
	@mkdir -p $(dir $@)
	$(SCHED_HOST_CC) $(SCHED_CFLAGS) $^ -o $@

$(BUILD)/sched/sched_bench: $(SCHED_TOOLS)/schedgen/sched_bench.c $(SCHED_HOST_OBJS)
	@mkdir -p $(dir $@)
	$(SCHED_HOST_CC) $(SCHED_CFLAGS) $^ -o $@

# Tables for the machine in config.mk, root at node 0:
# $(BUILD)/sched/tables/<shape>-<torus|mesh>/<algo>.tbl
# (and <algo>.txt, the dump). Algorithms that do not apply to the shape are left out.
SCHED_SHAPE := $(MESH_X)x$(MESH_Y)$(if $(filter 3,$(MESH_DIMS)),x$(MESH_Z))
SCHED_TOPO  := $(if $(filter 1,$(MESH_TORUS)),--torus,--mesh)
SCHED_EQUAL := $(and $(filter $(MESH_X),$(MESH_Y)),$(if $(filter 3,$(MESH_DIMS)),$(filter $(MESH_X),$(MESH_Z)),ok))
SCHED_POW2  := $(and $(filter 2,$(MESH_DIMS)),$(SCHED_EQUAL),$(filter $(MESH_X),2 4 8 16 32 64))
# some side even (a mesh has a Hamiltonian cycle for allgather-ring only then)
SCHED_SIDES := $(MESH_X) $(MESH_Y) $(if $(filter 3,$(MESH_DIMS)),$(MESH_Z))
SCHED_EVEN  := $(filter 0,$(foreach side,$(SCHED_SIDES),$(shell expr $(side) % 2)))
SCHED_ALGOS := saf-bcast scatter gather bcast-edst bcast-binomial alltoall-pairwise \
               $(if $(and $(filter 1,$(MESH_TORUS)),$(SCHED_EQUAL)),tsay-wang) \
               $(if $(SCHED_POW2),cang-wu cang-wu-dp) \
               $(if $(filter 1,$(MESH_TORUS)),mnb-opt allgather-ring,$(if $(SCHED_EVEN),allgather-ring))
SCHED_TABLE_DIR := $(BUILD)/sched/tables/$(SCHED_SHAPE)-$(if $(filter 1,$(MESH_TORUS)),torus,mesh)
SCHED_TABLES := $(patsubst %,$(SCHED_TABLE_DIR)/%.tbl,$(SCHED_ALGOS))
.PHONY: sched-tables
sched-tables: $(SCHED_TABLES)

$(SCHED_TABLE_DIR)/%.tbl: $(BUILD)/bin/schedgen $(FW_CONFIG_H)
	@mkdir -p $(dir $@)
	$(BUILD)/bin/schedgen --shape $(SCHED_SHAPE) $(SCHED_TOPO) --algo $* --check --quiet \
	    --tables $@.tmp --dump $(@:.tbl=.txt)
	@mv $@.tmp $@

# On-core test image: the portable part linked with the node runtime, plus two tables files
# (4x4 torus: tsay-wang broadcast, scatter from node 5) embedded with .incbin.
SCHED_CORE_DIR  := $(BUILD)/sched/core
SCHED_CORE_OBJS := $(patsubst %,$(SCHED_CORE_DIR)/%.o,$(SCHED_PORTABLE))
# the checker for the core, linked by the on-core tests only
SCHED_CORE_CHECK_OBJS := $(patsubst %,$(SCHED_CORE_DIR)/%.o,$(SCHED_CHECKER))
.PHONY: sched-core-test
sched-core-test: $(SCHED_CORE_DIR)/sched_core_test.elf

SCHED_CORE_CFLAGS := $(FW_ARCH) -std=c11 -O2 -Wall -Wextra -Werror --specs=picolibc.specs -ffunction-sections \
                     -fdata-sections $(SCHED_INCS)
$(SCHED_CORE_DIR)/%.o: $(SCHED_DIR)/%.c $(SCHED_HEADERS)
	@mkdir -p $(dir $@)
	$(FW_CC) $(SCHED_CORE_CFLAGS) -c $< -o $@

$(SCHED_CORE_DIR)/%.o: $(SCHED_TOOLS)/%.c $(SCHED_HEADERS)
	@mkdir -p $(dir $@)
	$(FW_CC) $(SCHED_CORE_CFLAGS) -c $< -o $@

$(SCHED_CORE_DIR)/tw.tbl: $(BUILD)/bin/schedgen
	@mkdir -p $(dir $@)
	$(BUILD)/bin/schedgen --shape 4x4 --torus --algo tsay-wang --root 2,1 --quiet --tables $@

$(SCHED_CORE_DIR)/sc.tbl: $(BUILD)/bin/schedgen
	@mkdir -p $(dir $@)
	$(BUILD)/bin/schedgen --shape 4x4 --torus --algo scatter --root 1,1 --quiet --tables $@

$(SCHED_CORE_DIR)/blob.o: tests/firmware/sched/sched_core_blob.S $(SCHED_CORE_DIR)/tw.tbl $(SCHED_CORE_DIR)/sc.tbl
	$(FW_CC) $(FW_ASFLAGS) -DSCHED_TW_TABLES='"$(SCHED_CORE_DIR)/tw.tbl"' \
	    -DSCHED_SC_TABLES='"$(SCHED_CORE_DIR)/sc.tbl"' -c $< -o $@

$(SCHED_CORE_DIR)/sched_core_test.elf: tests/firmware/sched/sched_core_test.c $(SCHED_CORE_OBJS) $(SCHED_CORE_CHECK_OBJS) \
        $(SCHED_CORE_DIR)/blob.o $(FW_RT_OBJS) $(FW_CONFIG_H) linker/node.ld
	$(FW_CC) $(FW_CFLAGS) $(SCHED_INCS) -c $< -o $(@:.elf=.o)
	$(FW_CC) -nostartfiles $(FW_LDFLAGS) $(FW_RT_OBJS) $(@:.elf=.o) $(SCHED_CORE_OBJS) $(SCHED_CORE_CHECK_OBJS) \
	    $(SCHED_CORE_DIR)/blob.o -o $@

bench-sched: $(BUILD)/sched/sched_bench
	@mkdir -p $(BUILD)/bench
	$(BUILD)/sched/sched_bench $(BUILD)/bench/schedules.json

BENCH_TARGETS += bench-sched
LINT_TARGETS += sched-rv32

# ---- issue 5: allgather / alltoall / partial MNB (driver and benchmark) ----
#   make sched-coll-test-bin   $(BUILD)/sched/coll_test (tests/tools/sched/test_coll_*.sh)
#   make bench-sched-exchange  slots vs lower bounds; JSON in $(BUILD)/bench/schedules-exchange.json
.PHONY: sched-coll-test-bin bench-sched-exchange
sched-coll-test-bin: $(BUILD)/sched/coll_test

$(BUILD)/sched/coll_test: tests/tools/sched/coll_test.c $(SCHED_HOST_OBJS)
	@mkdir -p $(dir $@)
	$(SCHED_HOST_CC) $(SCHED_CFLAGS) $^ -o $@

$(BUILD)/sched/sched_coll_bench: $(SCHED_TOOLS)/schedgen/sched_coll_bench.c $(SCHED_HOST_OBJS)
	@mkdir -p $(dir $@)
	$(SCHED_HOST_CC) $(SCHED_CFLAGS) $^ -o $@

bench-sched-exchange: $(BUILD)/sched/sched_coll_bench
	@mkdir -p $(BUILD)/bench
	$(BUILD)/sched/sched_coll_bench $(BUILD)/bench/schedules-exchange.json $(BUILD)/bench/dynamic-broadcast.svg

BENCH_TARGETS += bench-sched-exchange

# mnb-opt, bcast-edst and the baselines: test driver (tests/tools/sched/test_coll_opt.sh)
.PHONY: sched-opt-test-bin
sched-opt-test-bin: $(BUILD)/sched/opt_test

$(BUILD)/sched/opt_test: tests/tools/sched/opt_test.c $(SCHED_HOST_OBJS)
	@mkdir -p $(dir $@)
	$(SCHED_HOST_CC) $(SCHED_CFLAGS) $^ -o $@

# On-core test of the issue-5 rules (partial MNB, STAR) and checker path: static buffers only.
.PHONY: sched-coll-core-test
sched-coll-core-test: $(SCHED_CORE_DIR)/coll_core_test.elf

$(SCHED_CORE_DIR)/coll_core_test.elf: tests/firmware/sched/coll_core_test.c $(SCHED_CORE_OBJS) $(SCHED_CORE_CHECK_OBJS) \
        $(FW_RT_OBJS) $(FW_CONFIG_H) linker/node.ld
	$(FW_CC) $(FW_CFLAGS) $(SCHED_INCS) -c $< -o $(@:.elf=.o)
	$(FW_CC) -nostartfiles $(FW_LDFLAGS) $(FW_RT_OBJS) $(@:.elf=.o) $(SCHED_CORE_OBJS) $(SCHED_CORE_CHECK_OBJS) -o $@
