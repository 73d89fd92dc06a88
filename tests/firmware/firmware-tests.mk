# SPDX-License-Identifier: ISC
# Test programs of the core (tests/firmware/): ISA tests, C programs, differential test.
# Included by the top-level Makefile; the ELFs of isa/*.S and programs/*.c are built by
# the generic rules of firmware/firmware.mk (build/fw/<path>.elf).
#
#   make fw-isa-tests        every tests/firmware/isa/*.S as an ELF
#   make fw-test-programs    every tests/firmware/programs/*.c as an ELF (-O2)
#   make diff-gen            the random program generator ($(BUILD)/bin/rvdiff-gen)
#   make diff-elfs DIFF_FIRST=1 DIFF_COUNT=50
#                            generated programs $(BUILD)/diff/seed_<n>.{S,elf}
#   make bench-diff          thousands of seeds against qemu: $(BUILD)/bench/diff.json

FWT_ISA_ELFS  := $(patsubst %.S,$(BUILD)/fw/%.elf,$(wildcard tests/firmware/isa/*.S))
FWT_PROG_ELFS := $(patsubst %.c,$(BUILD)/fw/%.elf,$(wildcard tests/firmware/programs/*.c))

.PHONY: fw-isa-tests fw-test-programs diff-gen diff-elfs bench-diff
fw-isa-tests: $(FWT_ISA_ELFS)
fw-test-programs: $(FWT_PROG_ELFS)

# ---------------------------------------------------------------- differential test
DIFF_HOST_CC     ?= cc
DIFF_HOST_CFLAGS := -std=c11 -O2 -Wall -Wextra -Werror
DIFF_GEN         := $(BUILD)/bin/rvdiff-gen
# Instructions of random stream per generated program.
DIFF_LENGTH      ?= 3000
DIFF_FIRST       ?= 1
DIFF_COUNT       ?= 50
# make bench: seeds DIFF_BENCH_FIRST .. DIFF_BENCH_FIRST+DIFF_BENCH_COUNT-1
DIFF_BENCH_FIRST ?= 100000
DIFF_BENCH_COUNT ?= 2000

diff-gen: $(DIFF_GEN)

$(DIFF_GEN): tests/firmware/diff/rvdiff_gen.c
	@mkdir -p $(dir $@)
	$(DIFF_HOST_CC) $(DIFF_HOST_CFLAGS) $< -o $@

# One program per seed; the length is part of the file name's directory so that a change
# of DIFF_LENGTH never reuses stale programs.
DIFF_DIR  := $(BUILD)/diff/len$(DIFF_LENGTH)
DIFF_ELFS := $(foreach s,$(shell seq $(DIFF_FIRST) $$(($(DIFF_FIRST) + $(DIFF_COUNT) - 1))),$(DIFF_DIR)/seed_$(s).elf)

diff-elfs: $(DIFF_ELFS)

# keep the generated sources: a failing seed is read from them
.PRECIOUS: $(DIFF_DIR)/seed_%.S

$(DIFF_DIR)/seed_%.S: $(DIFF_GEN)
	@mkdir -p $(dir $@)
	@$(DIFF_GEN) --seed $* --length $(DIFF_LENGTH) --ram-base $(RAM_BASE) > $@.tmp && mv $@.tmp $@

$(DIFF_DIR)/seed_%.elf: $(DIFF_DIR)/seed_%.S $(FW_CONFIG_H) linker/node.ld
	@$(FW_CC) $(FW_ASFLAGS) -c $< -o $(@:.elf=.o)
	@$(FW_CC) -nostdlib -nostartfiles $(FW_LDFLAGS) $(@:.elf=.o) -o $@
	@rm -f $(@:.elf=.o)

bench-diff: $(DIFF_GEN)
	@DIFF_LENGTH=$(DIFF_LENGTH) tests/firmware/diff/diff_bench.sh $(DIFF_BENCH_FIRST) $(DIFF_BENCH_COUNT)

BENCH_TARGETS += bench-diff
