# SPDX-License-Identifier: ISC
# Firmware: the node runtime (firmware/rt), programs (firmware/apps) and test programs
# (tests/firmware), cross-compiled for the core with the settings of config.mk.
#
# Any C or assembly file in the tree builds into an ELF under $(BUILD)/fw/ with the same
# path:   make build/fw/firmware/apps/hello.elf      (from firmware/apps/hello.c)
#         make build/fw/tests/firmware/isa/add.elf  (from tests/firmware/isa/add.S)
# A .c program is linked with crt0, the runtime and picolibc; a .S program is linked
# alone (it provides _start and tohost itself) with the same memory map.

include firmware/flags.mk
FW_CFLAGS  := $(FW_BASE_CFLAGS) -Ifirmware/rt -I$(BUILD)/include -include rvmesh_config.h
FW_ASFLAGS := $(FW_ARCH) -g -Ifirmware/rt -I$(BUILD)/include
FW_LDFLAGS := $(FW_BASE_LDFLAGS) -T linker/node.ld
FW_CONFIG_H := $(BUILD)/include/rvmesh_config.h
FW_RT_OBJS := $(BUILD)/fw/rt/crt0.o $(BUILD)/fw/rt/rt.o
FW_PROGRAMS := $(patsubst %.c,$(BUILD)/fw/%.elf,$(wildcard firmware/apps/*.c tests/firmware/programs/*.c))

.PHONY: fw-all FORCE
fw-all: $(FW_PROGRAMS)

# config.mk as a C header; rewritten only when a value changes (also from the command line).
$(FW_CONFIG_H): FORCE
	$(call fw_config_h,$@,$(MESH_DIMS),$(MESH_X),$(MESH_Y),$(MESH_Z),$(MESH_TORUS))

$(BUILD)/fw/rt/crt0.o: firmware/rt/crt0.S $(FW_CONFIG_H)
	@mkdir -p $(dir $@)
	$(FW_CC) $(FW_ASFLAGS) -c $< -o $@

$(BUILD)/fw/rt/rt.o: firmware/rt/rt.c firmware/rt/rvmesh_rt.h $(FW_CONFIG_H)
	@mkdir -p $(dir $@)
	$(FW_CC) $(FW_CFLAGS) -c $< -o $@

# C programs: crt0 + runtime + picolibc.
$(BUILD)/fw/%.elf: %.c $(FW_RT_OBJS) $(FW_CONFIG_H) linker/node.ld
	@mkdir -p $(dir $@)
	$(FW_CC) $(FW_CFLAGS) -MMD -MP -MT $@ -MF $(@:.elf=.d) -c $< -o $(@:.elf=.o)
	$(FW_CC) -nostartfiles $(FW_LDFLAGS) $(FW_RT_OBJS) $(@:.elf=.o) -o $@

# Assembly programs: alone, with the same memory map (they define _start and tohost).
$(BUILD)/fw/%.elf: %.S $(FW_CONFIG_H) linker/node.ld
	@mkdir -p $(dir $@)
	$(FW_CC) $(FW_ASFLAGS) -MMD -MP -MT $@ -MF $(@:.elf=.d) -c $< -o $(@:.elf=.o)
	$(FW_CC) -nostdlib -nostartfiles $(FW_LDFLAGS) $(@:.elf=.o) -o $@

# Disassembly beside any ELF: make build/fw/firmware/apps/hello.dis
$(BUILD)/fw/%.dis: $(BUILD)/fw/%.elf
	$(FW_OBJDUMP) -d $< > $@

-include $(shell find $(BUILD)/fw -name '*.d' 2>/dev/null)
