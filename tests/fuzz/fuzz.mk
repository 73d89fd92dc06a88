# SPDX-License-Identifier: ISC
# Fuzzing (tests/fuzz, README.md there): libFuzzer harnesses of the loaders and parsers.
#   make fuzz            build every harness and run each for FUZZ_RUNS executions (1,000,000):
#                        a table on stdout, $(BUILD)/bench/fuzz.json (a benchmark, not a test)
#   make fuzz-build      the harnesses only: $(BUILD)/fuzz/bin/fuzz-NAME (libFuzzer) and
#                        $(BUILD)/fuzz/bin/replay-NAME (the same code with a plain main that
#                        replays files: tests/fuzz/test_fuzz_regressions.sh)
#   make fuzz-seeds      regenerate the seed corpora tests/fuzz/seeds/ with schedgen and the
#                        firmware toolchain (they are kept in git)
# Needs Debian's clang and its runtime (tools/install-deps.sh installs clang, libclang-rt-dev).

FUZZ_CC       ?= clang
FUZZ_CXX      ?= clang++
FUZZ_RUNS     ?= 1000000
FUZZ_HARNESSES := sched_table elf job_spec schedgen_args
FUZZ_SAN      := -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_COMMON   := -g -O1 -fno-omit-frame-pointer -Wall -Wextra -Werror
FUZZ_CFLAGS   := -std=c11 $(FUZZ_COMMON) -I$(SCHED_DIR)
FUZZ_CXXFLAGS := -std=c++14 $(FUZZ_COMMON) -Isim/node -Isim/mesh -I. \
                 -DRVMESH_RAM_BASE=$(RAM_BASE)ull -DRVMESH_RAM_BYTES=$(RAM_BYTES)ull
# the schedule library, portable and host parts (firmware/sched/sched.mk)
FUZZ_SCHED_C  := $(patsubst %,$(SCHED_DIR)/%.c,$(SCHED_PORTABLE) $(SCHED_HOSTONLY))

# The sources of each harness (.c compiled as C11, .cpp as C++14; schedgen.c's main is renamed)
FUZZ_SRC_sched_table   := tests/fuzz/fuzz_sched_table.c $(FUZZ_SCHED_C)
FUZZ_SRC_elf           := tests/fuzz/fuzz_elf.cpp sim/node/elf32.cpp sim/mesh/mesh_program.cpp sim/mesh/mesh_jobs.cpp \
                          sim/node/sim_common.cpp $(FUZZ_SCHED_C)
FUZZ_SRC_job_spec      := tests/fuzz/fuzz_job_spec.cpp sim/mesh/mesh_jobs.cpp sim/node/sim_common.cpp \
                          $(FUZZ_SCHED_C)
FUZZ_SRC_schedgen_args := tests/fuzz/fuzz_schedgen_args.c $(SCHED_DIR)/schedgen.c $(FUZZ_SCHED_C)
FUZZ_HDRS := $(SCHED_HEADERS) $(wildcard sim/node/*.h sim/mesh/*.h) firmware/coll/coll_jobs.h

# objects: $(BUILD)/fuzz/{fuzz,replay}/<source path>.o (fuzz: with libFuzzer's coverage)
fuzz_objs = $(patsubst %,$(BUILD)/fuzz/$(2)/%.o,$(FUZZ_SRC_$(1)))
$(BUILD)/fuzz/fuzz/%.c.o: %.c $(FUZZ_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer-no-link $(if $(filter %/schedgen.c,$<),-Dmain=schedgen_main) -c $< -o $@
$(BUILD)/fuzz/replay/%.c.o: %.c $(FUZZ_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_SAN) $(if $(filter %/schedgen.c,$<),-Dmain=schedgen_main) -c $< -o $@
$(BUILD)/fuzz/fuzz/%.cpp.o: %.cpp $(FUZZ_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CXX) $(FUZZ_CXXFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer-no-link -c $< -o $@
$(BUILD)/fuzz/replay/%.cpp.o: %.cpp $(FUZZ_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CXX) $(FUZZ_CXXFLAGS) $(FUZZ_SAN) -c $< -o $@

define fuzz_harness
$(BUILD)/fuzz/bin/fuzz-$(1): $(call fuzz_objs,$(1),fuzz)
	@mkdir -p $$(dir $$@)
	$(FUZZ_CXX) $(FUZZ_SAN) -fsanitize=fuzzer $$^ -o $$@
$(BUILD)/fuzz/bin/replay-$(1): $(call fuzz_objs,$(1),replay) $(BUILD)/fuzz/replay/tests/fuzz/replay_main.c.o
	@mkdir -p $$(dir $$@)
	$(FUZZ_CXX) $(FUZZ_SAN) $$^ -o $$@
endef
$(foreach h,$(FUZZ_HARNESSES),$(eval $(call fuzz_harness,$(h))))

FUZZ_BINS := $(foreach h,$(FUZZ_HARNESSES),$(BUILD)/fuzz/bin/fuzz-$(h))
FUZZ_REPLAY_BINS := $(foreach h,$(FUZZ_HARNESSES),$(BUILD)/fuzz/bin/replay-$(h))

.PHONY: fuzz fuzz-build fuzz-replay-build fuzz-seeds fuzz-check-clang
fuzz-check-clang:
	@command -v $(FUZZ_CC) >/dev/null 2>&1 || { echo "make fuzz: $(FUZZ_CC) not found; install Debian's clang and libclang-rt-dev (make deps)" >&2; exit 1; }
fuzz-build: fuzz-check-clang
	@$(MAKE) --no-print-directory $(FUZZ_BINS) $(FUZZ_REPLAY_BINS)
fuzz-replay-build: fuzz-check-clang
	@$(MAKE) --no-print-directory $(FUZZ_REPLAY_BINS)
fuzz: deps fuzz-build
	@mkdir -p $(BUILD)/bench
	@BUILD=$(BUILD) FUZZ_RUNS=$(FUZZ_RUNS) tests/fuzz/run_fuzz.sh $(FUZZ_HARNESSES)
fuzz-seeds: $(BUILD)/bin/schedgen
	@BUILD=$(BUILD) tests/fuzz/make_seeds.sh
