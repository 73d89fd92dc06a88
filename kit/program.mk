# SPDX-License-Identifier: ISC
# rvmesh application kit: a program is a folder of C files and a Makefile of a few lines,
# inside or outside the rvmesh tree:
#
#     RVMESH      := /path/to/rvmesh          # the folder that holds config.mk
#     COLLECTIVES := bcast allgather          # what the program calls (see below)
#     include $(RVMESH)/kit/program.mk
#
#     make run                 build the node image for SHAPE and run it on mesh-sim: exit 0
#                              only when every node exits 0
#     make run SHAPE=8x8t      the same on the 8x8 torus (8x8m: mesh; 3x3x3t: 3-D torus)
#     make report              run, and write $(OUT)/report.json and $(OUT)/junit.xml
#     make                     build only: $(OUT)/$(PROGRAM).elf
#     make info                the image's sections, the tables a node holds, the free RAM
#     make board-images        one flash image per node of SHAPE for the board flow (BOARD,
#                              config.mk's board profile): $(OUT)/board-$(BOARD)/image-X_Y.bin,
#                              each the same program with its node's own tables
#     make board-prog COORD=X,Y   write node X,Y's image to the board on USB (boards/README.md)
#     make board-sim SHAPE=2x2m   run those images on four simulated boards cabled as the 2x2
#                              mesh (2x2t: torus): the board path without the boards
#     make clean               remove build/
# docs/first-program.md walks through it; kit/README.md has every setting.
#
# Settings (set them above the include, or on the command line):
#   SHAPE        the machine: XxY or XxYxZ, then t (torus) or m (mesh)   default 4x4t
#   COLLECTIVES  COLL[:ALGO][@ROOT] ...: COLL one of bcast scatter gather allgather alltoall;
#                ALGO a schedgen algorithm (bcast-edst/8: 8 chunks per tree) or default (the
#                fastest measured for each block size); ROOT a node id for bcast, scatter and
#                gather (default 0; declare each root a program uses); row.COLL, col.COLL,
#                pil.COLL: the collective on every row (column; pillar, along z: 3-D
#                machines), ROOT a rank of the line (rvm_bcast_on ... rvm_alltoall_on;
#                rvm_allreduce_on on row.allgather [row.alltoall]: kit/README.md); pln.COLL:
#                on every XY plane of a 3-D machine (RVM_COMM_PLANE), ROOT x + X*y;
#                blkBXxBY.COLL: on every BXxBY block of a 2-D machine (RVM_COMM_BLOCK),
#                ROOT x % BX + BX*(y % BY)
#   SRCS         the program's C files                                    default *.c
#   PROGRAM      the image's name                                         default the folder's
#   CFLAGS       more compiler flags (-DN=64, -O3, ...); LDFLAGS, LDLIBS the same for the link
#   TIMEOUT      cycles a collective may go without progress before it fails  default 1000000
#   STACK_BYTES  the stack each node reserves                             default 4096
#   PRINTF       full, or integer (picolibc's printf without floating point: 13 KiB smaller)
#   MAX_CYCLES   mesh-sim stops a run after this many cycles (exit 125)   default 200000000
#   RUN_ARGS     more mesh-sim options (--trace, --progress 0, ...)
#   OUT          where the build goes                                     default build/$(SHAPE)
#   RVMESH_BUILD the rvmesh tree's build folder (schedgen, mesh-sim)      default $(RVMESH)/build
#   V            V=1: print the full commands

ifndef RVMESH
$(error RVMESH is not set: put `RVMESH := /path/to/rvmesh` (the folder with config.mk) above `include $$(RVMESH)/kit/program.mk` in your Makefile)
endif
KIT_ROOT := $(abspath $(RVMESH))
ifeq ($(wildcard $(KIT_ROOT)/config.mk),)
$(error RVMESH = $(RVMESH) is not an rvmesh tree (no config.mk there): set it to the folder you cloned rvmesh into)
endif

# the machine's configuration (RAM, ISA, flit width); the shape comes from SHAPE
include $(KIT_ROOT)/config.mk
include $(KIT_ROOT)/firmware/flags.mk

SHAPE        ?= 4x4t
COLLECTIVES  ?=
SRCS         ?= $(wildcard *.c)
PROGRAM      ?= $(notdir $(CURDIR))
TIMEOUT      ?= 1000000
STACK_BYTES  ?= 4096
PRINTF       ?= full
MAX_CYCLES   ?= 200000000
RUN_ARGS     ?=
OUT          ?= build/$(SHAPE)
RVMESH_BUILD ?= $(KIT_ROOT)/build
KIT_BUILD    := $(abspath $(RVMESH_BUILD))

# ---- the shape: 4x4t -> sides 4 4, torus
KIT_TOPO  := $(if $(filter %t,$(SHAPE)),torus,$(if $(filter %m,$(SHAPE)),mesh))
KIT_SIDES := $(subst x, ,$(patsubst %t,%,$(patsubst %m,%,$(SHAPE))))
KIT_DIMS  := $(words $(KIT_SIDES))
ifeq ($(KIT_TOPO),)
$(error SHAPE = $(SHAPE): end it with t (torus) or m (mesh), e.g. 4x4t, 8x8m, 3x3x3t)
endif
ifeq ($(filter 2 3,$(KIT_DIMS)),)
$(error SHAPE = $(SHAPE): give 2 or 3 sides joined by x, then t or m, e.g. 4x4t, 8x8m, 3x3x3t)
endif
ifneq ($(strip $(foreach s,$(KIT_SIDES),$(if $(filter-out 0 1 2 3 4 5 6 7 8 9,$(subst 0,0 ,$(subst 1,1 ,$(subst 2,2 ,$(subst 3,3 ,$(subst 4,4 ,$(subst 5,5 ,$(subst 6,6 ,$(subst 7,7 ,$(subst 8,8 ,$(subst 9,9 ,$(s)))))))))))),bad))),)
$(error SHAPE = $(SHAPE): the sides must be numbers, e.g. 4x4t, 8x8m, 3x3x3t)
endif
KIT_X := $(word 1,$(KIT_SIDES))
KIT_Y := $(word 2,$(KIT_SIDES))
KIT_Z := $(or $(word 3,$(KIT_SIDES)),1)
KIT_TORUS := $(if $(filter torus,$(KIT_TOPO)),1,0)
KIT_SHAPE_ARGS := --shape $(subst $(eval) ,x,$(strip $(KIT_SIDES))) --$(KIT_TOPO)

# ---- the tools, built in the rvmesh tree: schedgen, and mesh-sim for this shape (the tree's
# default binary when SHAPE is config.mk's machine, else mesh-sim-$(SHAPE))
KIT_DEFAULT_SHAPE := $(MESH_X)x$(MESH_Y)$(if $(filter 3,$(MESH_DIMS)),x$(MESH_Z))$(if $(filter 1,$(MESH_TORUS)),t,m)
KIT_SIM_NAME := $(if $(filter $(SHAPE),$(KIT_DEFAULT_SHAPE)),mesh-sim,mesh-sim-$(SHAPE))
SCHEDGEN := $(KIT_BUILD)/bin/schedgen
MESH_SIM := $(KIT_BUILD)/bin/$(KIT_SIM_NAME)
# a sub-make of the tree with nothing of this make's command line (SHAPE, CFLAGS, ...)
KIT_TREE_MAKE := $(MAKE) -s --no-print-directory -C $(KIT_ROOT) MAKEFLAGS= BUILD=$(KIT_BUILD)

# ---- sources of the libraries every image links
KIT_RT    := $(KIT_ROOT)/firmware/rt
KIT_COLL  := $(KIT_ROOT)/firmware/coll
KIT_DRV   := $(KIT_ROOT)/firmware/drivers
KIT_SCHED := $(KIT_ROOT)/firmware/sched
KIT_LIB_SRCS := $(KIT_DRV)/linkport.c $(KIT_COLL)/coll.c $(KIT_COLL)/coll_msg.c $(KIT_COLL)/coll_barrier.c $(KIT_COLL)/coll_plan.c \
                $(KIT_COLL)/coll_ring.c $(KIT_COLL)/coll_dbl.c $(KIT_COLL)/coll_run.c $(KIT_COLL)/coll_app.c \
                $(KIT_SCHED)/sched_shape.c $(KIT_SCHED)/sched_names.c $(KIT_SCHED)/sched_table.c \
                $(KIT_SCHED)/sched_pmnb.c $(KIT_SCHED)/sched_dyn.c
KIT_HDRS := $(wildcard $(KIT_RT)/*.h $(KIT_COLL)/*.h $(KIT_DRV)/*.h $(KIT_SCHED)/*.h) $(KIT_ROOT)/boards/boot/board_regs.h

KIT_OBJ := $(OUT)/obj
KIT_INC := $(OUT)/include
KIT_CONFIG_H := $(KIT_INC)/rvmesh_config.h
KIT_INCLUDES := -I$(KIT_RT) -I$(KIT_COLL) -I$(KIT_DRV) -I$(KIT_SCHED) -I$(KIT_ROOT)/boards/boot -I$(KIT_INC) \
                -include rvmesh_config.h
KIT_CFLAGS := $(FW_BASE_CFLAGS) $(KIT_INCLUDES) -DRVM_TIMEOUT_CYCLES=$(TIMEOUT)u
KIT_LDFLAGS := $(FW_BASE_LDFLAGS) -T $(KIT_ROOT)/linker/node.ld -Wl,--defsym=__stack_size=$(STACK_BYTES) \
               $(if $(filter integer,$(PRINTF)),-DPICOLIBC_INTEGER_PRINTF_SCANF)
ifeq ($(filter full integer,$(PRINTF)),)
$(error PRINTF = $(PRINTF): full or integer)
endif

# make V=1: the full commands
Q := $(if $(V),,@)
say = $(if $(V),,@echo "  $(1)";)

KIT_ELF  := $(OUT)/$(PROGRAM).elf
KIT_LIB  := $(OUT)/obj/librvmesh.a
KIT_RT_OBJS := $(KIT_OBJ)/rt/crt0.o $(KIT_OBJ)/rt/rt.o
KIT_LIB_OBJS := $(patsubst $(KIT_ROOT)/firmware/%.c,$(KIT_OBJ)/%.o,$(KIT_LIB_SRCS))
KIT_APP_OBJS := $(patsubst %.c,$(KIT_OBJ)/app/%.o,$(SRCS))
KIT_PKG := $(OUT)/tables.pkg
KIT_TABLES_S := $(OUT)/tables.S
KIT_TABLES_O := $(OUT)/obj/tables.o
# a program that declares no collectives carries no tables
KIT_TABLES_OBJ := $(if $(strip $(COLLECTIVES)),$(KIT_TABLES_O))

ifeq ($(strip $(SRCS)),)
ifneq ($(filter-out clean help,$(or $(MAKECMDGOALS),all)),)
$(error no C files in $(CURDIR) (SRCS is empty): write main.c there, or set SRCS)
endif
endif

.PHONY: all run report info clean help kit-tools kit-schedgen kit-board-tool board-images board-prog board-sim FORCE
all: $(KIT_ELF)

help:
	@sed -n '2,/^$$/p' $(KIT_ROOT)/kit/program.mk | sed 's/^# \{0,1\}//'

# the tools: always asked of the tree's make (quick when they are up to date)
kit-tools:
	@$(KIT_TREE_MAKE) schedgen $(KIT_SIM_NAME) MESH_SIM_EXTRA=$(SHAPE) || \
	 { echo "rvmesh kit: could not build schedgen and $(KIT_SIM_NAME) in $(KIT_ROOT) (make deps installs what is missing)"; exit 1; }
kit-schedgen:
	@$(KIT_TREE_MAKE) schedgen || \
	 { echo "rvmesh kit: could not build schedgen in $(KIT_ROOT) (make deps installs what is missing)"; exit 1; }

# the compiler flags in a stamp: a change (CFLAGS, TIMEOUT, ...) rebuilds what they compile
$(OUT)/flags.stamp: FORCE
	@mkdir -p $(dir $@)
	@echo "$(KIT_CFLAGS) | $(CFLAGS)" > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

$(KIT_CONFIG_H): FORCE
	$(call fw_config_h,$@,$(KIT_DIMS),$(KIT_X),$(KIT_Y),$(KIT_Z),$(KIT_TORUS))

# the collectives: their tables for every node, regenerated when the declaration or the
# shape changes (the stamp holds both)
KIT_PKG_ARGS := $(KIT_SHAPE_ARGS) $(foreach c,$(COLLECTIVES),--coll $(c))
$(OUT)/tables.stamp: FORCE
	@mkdir -p $(dir $@)
	@echo "$(KIT_PKG_ARGS)" > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@
$(KIT_PKG) $(KIT_TABLES_S) &: $(OUT)/tables.stamp $(wildcard $(SCHEDGEN)) | kit-schedgen
	$(Q)$(SCHEDGEN) $(KIT_PKG_ARGS) --package $(abspath $(KIT_PKG)) --asm $(KIT_TABLES_S) $(if $(V),,--quiet)
	@echo "  TABLES  $(SHAPE): $(COLLECTIVES): a node holds $$(sed -n 's/^    .zero //p' $(KIT_TABLES_S)) bytes"
$(KIT_TABLES_O): $(KIT_TABLES_S) $(KIT_PKG)
	@mkdir -p $(dir $@)
	$(Q)$(FW_CC) $(FW_ARCH) -c $< -o $@

$(KIT_OBJ)/rt/crt0.o: $(KIT_RT)/crt0.S $(KIT_CONFIG_H)
	@mkdir -p $(dir $@)
	$(call say,CC      rvmesh runtime and libraries)
	$(Q)$(FW_CC) $(FW_ARCH) -g $(KIT_INCLUDES) -c $< -o $@
$(KIT_OBJ)/%.o: $(KIT_ROOT)/firmware/%.c $(KIT_HDRS) $(KIT_CONFIG_H) $(OUT)/flags.stamp
	@mkdir -p $(dir $@)
	$(Q)$(FW_CC) $(KIT_CFLAGS) -c $< -o $@
$(KIT_LIB): $(KIT_LIB_OBJS)
	@rm -f $@
	$(Q)$(FW_AR) rcs $@ $^

$(KIT_OBJ)/app/%.o: %.c $(KIT_CONFIG_H) $(OUT)/flags.stamp
	@mkdir -p $(dir $@)
	$(call say,CC      $<)
	$(Q)$(FW_CC) $(KIT_CFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@

$(KIT_ELF): $(KIT_RT_OBJS) $(KIT_APP_OBJS) $(KIT_TABLES_OBJ) $(KIT_LIB) $(KIT_ROOT)/linker/node.ld
	$(call say,LINK    $@)
	$(Q)$(FW_CC) -nostartfiles $(KIT_LDFLAGS) $(LDFLAGS) $(KIT_RT_OBJS) $(KIT_APP_OBJS) $(KIT_TABLES_OBJ) $(KIT_LIB) \
	    $(LDLIBS) -o $@

run: $(KIT_ELF) | kit-tools
	$(call say,RUN     $(KIT_ELF) on the $(SHAPE) ($(KIT_SIM_NAME)))
	$(Q)$(MESH_SIM) --elf $(KIT_ELF) --max-cycles $(MAX_CYCLES) $(RUN_ARGS)

report: $(KIT_ELF) | kit-tools
	$(call say,RUN     $(KIT_ELF) on the $(SHAPE) ($(KIT_SIM_NAME)): $(OUT)/report.json, $(OUT)/junit.xml)
	$(Q)$(MESH_SIM) --elf $(KIT_ELF) --max-cycles $(MAX_CYCLES) --report $(OUT)/report.json --junit $(OUT)/junit.xml \
	    $(RUN_ARGS)

info: $(KIT_ELF)
	@echo "$(KIT_ELF): $(SHAPE), RAM $(RAM_BYTES) bytes a node"
	@$(FW_CC:gcc=size) -A $(KIT_ELF) | awk '$$1 ~ /^\.(text|rodata|data|bss|rvmesh_tables|tdata|tbss|init_array)$$/ { printf "  %-16s %7d bytes\n", $$1, $$2 }'
	@s=$$($(FW_CC:gcc=nm) $(KIT_ELF) | sed -n 's/ [A-Za-z] __heap_start$$//p'); \
	 e=$$($(FW_CC:gcc=nm) $(KIT_ELF) | sed -n 's/ [A-Za-z] __heap_end$$//p'); \
	 echo "  free RAM (the collectives' workspace): $$((0x$$e - 0x$$s)) bytes"

# ---- boards: the image mesh-sim runs, as one flash image per node (boards/tools/board_image.c
# adds each node's own tables at rvmesh_tables, as mesh-sim does before reset)
kit_comma       := ,
KIT_BOARD_DIR   := $(OUT)/board-$(BOARD)
KIT_BOARD_IMAGE := $(KIT_ROOT)/boards/build/bin/board-image
KIT_BOARD_ARGS  := $(KIT_SHAPE_ARGS) --ram-base $(RAM_BASE) --ram-bytes $(RAM_BYTES) --slot $(BOARD_FLASH_SLOT)
kit-board-tool:
	@$(MAKE) -s --no-print-directory -C $(KIT_ROOT)/boards MAKEFLAGS= BOARD=$(BOARD) tool || \
	 { echo "rvmesh kit: could not build board-image in $(KIT_ROOT)/boards"; exit 1; }
board-images: $(KIT_ELF) | kit-board-tool
	@test -n "$(BOARD_FLASH_SLOT)" || { echo "rvmesh kit: BOARD = $(BOARD) has no profile in config.mk" >&2; exit 1; }
	@mkdir -p $(KIT_BOARD_DIR)
	$(Q)for z in $$(seq 0 $$(($(KIT_Z) - 1))); do for y in $$(seq 0 $$(($(KIT_Y) - 1))); do \
	  for x in $$(seq 0 $$(($(KIT_X) - 1))); do \
	    c=$$x,$$y$(if $(filter 3,$(KIT_DIMS)),$$(echo ,$$z)); \
	    $(KIT_BOARD_IMAGE) --coord $$c $(KIT_BOARD_ARGS) -o $(KIT_BOARD_DIR)/image-$$(echo $$c | tr , _).bin \
	      $(KIT_ELF) >$(KIT_BOARD_DIR)/image-$$(echo $$c | tr , _).log || \
	      { cat $(KIT_BOARD_DIR)/image-$$(echo $$c | tr , _).log; exit 1; }; \
	  done; done; done
	@echo "  IMAGES  $(KIT_BOARD_DIR)/image-*.bin: $(SHAPE) for $(BOARD) (make board-prog COORD=x,y writes one)"
board-prog: board-images
	@test -n "$(COORD)" || { echo "rvmesh kit: say which board: make board-prog COORD=x,y (its node)" >&2; exit 1; }
	@test -f $(KIT_BOARD_DIR)/image-$(subst $(kit_comma),_,$(COORD)).bin || \
	 { echo "rvmesh kit: no node $(COORD) in the $(SHAPE)" >&2; exit 1; }
	@$(KIT_ROOT)/boards/scripts/board_prog.sh - $(KIT_BOARD_DIR)/image-$(subst $(kit_comma),_,$(COORD)).bin $(BOARD_FLASH_OFFSET)

board-sim: board-images
	@test "$(KIT_SIDES)" = "2 2" || { echo "rvmesh kit: the simulated boards are a 2x2 machine: make board-sim SHAPE=2x2m (or 2x2t)" >&2; exit 1; }
	@$(MAKE) -s --no-print-directory -C $(KIT_ROOT)/boards MAKEFLAGS= BOARD=$(BOARD) board-mesh-sim || \
	 { echo "rvmesh kit: could not build the board simulator in $(KIT_ROOT)/boards"; exit 1; }
	$(call say,RUN     $(KIT_BOARD_DIR)/image-*.bin on four simulated $(BOARD) boards ($(SHAPE)))
	$(Q)$(KIT_ROOT)/boards/scripts/board_mesh_run.sh $(KIT_ROOT)/boards/build/$(BOARD)/mesh-sim/Vtb_board_mesh \
	    $(KIT_BOARD_DIR) $(if $(filter 1,$(KIT_TORUS)),--torus) $(RUN_ARGS)

clean:
	rm -rf build $(if $(filter-out build/%,$(OUT)),$(OUT))

-include $(patsubst %.o,%.d,$(KIT_APP_OBJS))
