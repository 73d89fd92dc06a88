# SPDX-License-Identifier: ISC
# Device drivers (firmware/drivers): linked into the programs that need them.
#
# A program in one of FW_DRIVER_DIRS is built like any firmware program (firmware.mk)
# plus -Ifirmware/drivers and every driver object:
#     make build/fw/tests/sim/mesh/progs/neighbours.elf
# Add a folder with FW_DRIVER_DIRS += path/to/folder (before this fragment's rules run).

FW_DRIVER_OBJS := $(BUILD)/fw/drivers/linkport.o
FW_DRIVER_HDRS := firmware/drivers/linkport.h
FW_DRIVER_DIRS += tests/sim/mesh/progs firmware/apps/mesh

$(FW_DRIVER_OBJS): $(BUILD)/fw/drivers/%.o: firmware/drivers/%.c $(FW_DRIVER_HDRS) $(FW_CONFIG_H)
	@mkdir -p $(dir $@)
	$(FW_CC) $(FW_CFLAGS) -Ifirmware/drivers -c $< -o $@

# The collectives (firmware/coll) and the portable schedule-table reader (sched.mk's core
# build) link into the same programs; -I for their headers on those programs only.
FW_COLL_OBJS := $(BUILD)/fw/coll/coll.o $(BUILD)/fw/coll/coll_msg.o $(BUILD)/fw/coll/coll_barrier.o \
                $(BUILD)/fw/coll/coll_plan.o $(BUILD)/fw/coll/coll_run.o $(BUILD)/fw/coll/coll_runner.o
FW_COLL_HDRS := $(wildcard firmware/coll/*.h) $(SCHED_NODE_HEADERS)
FW_COLL_INCS := -Ifirmware/drivers -Ifirmware/coll -Ifirmware/sched
$(FW_COLL_OBJS): $(BUILD)/fw/coll/%.o: firmware/coll/%.c $(FW_COLL_HDRS) $(FW_DRIVER_HDRS) $(FW_CONFIG_H)
	@mkdir -p $(dir $@)
	$(FW_CC) $(FW_CFLAGS) $(FW_COLL_INCS) -c $< -o $@
FW_DRIVER_OBJS += $(FW_COLL_OBJS) $(SCHED_CORE_OBJS)
$(foreach dir,$(FW_DRIVER_DIRS),$(BUILD)/fw/$(dir)/%.elf): FW_CFLAGS += $(FW_COLL_INCS)
# the collectives programs print integers only: picolibc's integer printf (13 KiB smaller)
$(BUILD)/fw/firmware/apps/mesh/%.elf $(BUILD)/fw/tests/sim/mesh/progs/coll_%.elf: \
    FW_LDFLAGS += -DPICOLIBC_INTEGER_PRINTF_SCANF
# firmware/apps/mesh/collectives.c fills the RAM with its buffers, so it is kept small: the
# jobs runner (filling and checking buffers between collectives, outside what is timed) is
# built for size, and the program reserves 3 KiB of stack instead of 4 (it uses 1.2 KiB,
# measured by painting the stack; gcc -fstack-usage puts its deepest chain at about 1.6 KiB)
$(BUILD)/fw/coll/coll_runner.o: FW_CFLAGS += -Os
$(BUILD)/fw/firmware/apps/mesh/%.elf: FW_LDFLAGS += -Wl,--defsym=__stack_size=3072

# $(call fw_driver_rule,DIR): programs DIR/*.c link the drivers (a longer pattern than
# firmware.mk's, so make prefers it)
define fw_driver_rule
$$(BUILD)/fw/$(1)/%.elf: $(1)/%.c $$(FW_RT_OBJS) $$(FW_DRIVER_OBJS) $$(FW_CONFIG_H) linker/node.ld
	@mkdir -p $$(dir $$@)
	$$(FW_CC) $$(FW_CFLAGS) -Ifirmware/drivers -MMD -MP -MT $$@ -MF $$(@:.elf=.d) -c $$< -o $$(@:.elf=.o)
	$$(FW_CC) -nostartfiles $$(FW_LDFLAGS) $$(FW_RT_OBJS) $$(FW_DRIVER_OBJS) $$(@:.elf=.o) -o $$@
endef
$(foreach dir,$(FW_DRIVER_DIRS),$(eval $(call fw_driver_rule,$(dir))))
