# SPDX-License-Identifier: ISC
# Board builds: `make -C boards [BOARD=icebreaker] [target]` (boards/Makefile runs this file
# from the repository root). config.mk's board profile (BOARD_*) is the one source of the
# board's settings; outputs go to boards/build/<board>/.
#
#   (default) / report   synth -> place and route -> bitstream; report.json
#   prog                 write bitstream and firmware image to the board's flash
#   prog-image           write only the firmware image (another node's, another program)
#   image                the firmware image alone (FW=..., COORD=..., MESH_* for the shape)
#   boot                 the boot ROM ($(BOARD_BUILD)/boot.hex)
#   estimate             yosys synthesis estimate for ECP5-85F and Artix-7 100T
#   board-mesh-sim       the simulator of four boards cabled as a 2x2 mesh or torus
#   help                 this list with the current settings

include config.mk

BOARDS_DIR   := boards/build
BOARD_BUILD  := $(BOARDS_DIR)/$(BOARD)
BOARD_PLL    := $(BOARD_BUILD)/pll.txt
# the firmware rules of firmware.mk build into the board's own tree (its config header too)
BUILD        := $(BOARD_BUILD)/build
export BUILD
include firmware/firmware.mk
# yosys's SB_MAC16 model, for simulating a core with DSP_COUNTERS=1 ($(BUILD)/ice40/sb_mac16.v)
include rtl/core/mac16.mk
ifdef BOARD_DATA_BASE
FW_LDFLAGS += -Wl,--section-start=.rodata=$(BOARD_DATA_BASE)
endif

.PHONY: all report bitstream synth pnr boot image prog prog-image estimate help clean check-board \
        params tool netlist print-rtl board-mesh-sim
.DEFAULT_GOAL := all
all: report

check-board:
	@test -n "$(BOARD_DEVICE)" || { echo "boards: unknown BOARD '$(BOARD)': config.mk has a profile for: icebreaker" >&2; exit 1; }

# ---- RTL --------------------------------------------------------------------------------
BOARD_CORE_RTL := $(sort $(wildcard rtl/core/*.v))
BOARD_NOC_RTL  := $(filter-out rtl/noc/noc_network.v,$(sort $(wildcard rtl/noc/*.v)))
BOARD_TILE_RTL := rtl/tile/tile_ni.v rtl/tile/ni_tx_engine.v rtl/tile/ni_rx_engine.v rtl/tile/tile.v
BOARD_LINK_RTL := rtl/link/link_add.v rtl/link/link_crc.v rtl/link/link_tx.v rtl/link/link_rx.v rtl/link/link_phy.v
BOARD_NODE_RTL := $(BOARD_CORE_RTL) $(BOARD_NOC_RTL) $(BOARD_TILE_RTL) $(BOARD_LINK_RTL) \
                  boards/rtl/board_node.v boards/rtl/board_io.v boards/rtl/board_leds.v \
                  boards/rtl/board_uart_tx.v boards/rtl/board_spi_master.v
BOARD_TOP      := board_$(BOARD)
BOARD_TOP_RTL  := boards/rtl/$(BOARD_TOP).v

# config.mk's RAM_BASE as a number yosys takes
BOARD_RAM_BASE_DEC := $(shell printf '%d' $(RAM_BASE))
# BOARD_TILE_PARAMS (NAME=VALUE ...) as yosys chparam options and a Verilog override list
BOARD_CHPARAM := $(foreach p,$(BOARD_TILE_PARAMS),-set $(subst =, ,$(p))) -set RAM_BASE $(BOARD_RAM_BASE_DEC)
BOARD_BOOT_BYTES := $(patsubst BOOT_BYTES=%,%,$(filter BOOT_BYTES=%,$(BOARD_TILE_PARAMS)))
BOARD_PARAMS_VH := $(BOARD_BUILD)/board_params.vh
$(BOARD_PARAMS_VH): config.mk FORCE
	@mkdir -p $(dir $@)
	@{ echo "// generated from config.mk's board profile ($(BOARD)): do not edit"; \
	   $(foreach p,$(BOARD_TILE_PARAMS),echo "        .$(word 1,$(subst =, ,$(p)))($(word 2,$(subst =, ,$(p)))),";) \
	   echo "        .RAM_BASE(32'd$(BOARD_RAM_BASE_DEC)),"; } > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

params: check-board $(BOARD_PARAMS_VH) $(CORE_MAC16_MODEL)

# ---- boot ROM ---------------------------------------------------------------------------
BOOT_CFLAGS := -march=$(RISCV_ARCH)_zicsr -mabi=$(RISCV_ABI) -Os -std=c11 -Wall -Wextra -Werror \
               -ffreestanding -fno-builtin -nostdlib -msmall-data-limit=0 \
               -DBOOT_FLASH_OFFSET=$(BOARD_FLASH_OFFSET)u -DBOOT_FLASH_SLOT=$(BOARD_FLASH_SLOT)u \
               -DBOOT_RAM_BASE=$(RAM_BASE)u -DBOOT_RAM_BYTES=$(RAM_BYTES)u
BOOT_ELF := $(BOARD_BUILD)/boot.elf
BOOT_HEX := $(BOARD_BUILD)/boot.hex
boot: check-board $(BOOT_HEX)
$(BOOT_ELF): boards/boot/boot.c boards/boot/boot_start.S boards/boot/boot.ld \
             boards/boot/board_image.h boards/boot/board_regs.h config.mk
	@mkdir -p $(dir $@)
	$(FW_CC) $(BOOT_CFLAGS) -c boards/boot/boot.c -o $(BOARD_BUILD)/boot.o
	$(FW_CC) -march=$(RISCV_ARCH)_zicsr -mabi=$(RISCV_ABI) -c boards/boot/boot_start.S -o $(BOARD_BUILD)/boot_start.o
	$(FW_CC) $(FW_LD_ARCH) -nostdlib -nostartfiles -T boards/boot/boot.ld \
	  -Wl,--defsym=__boot_base=0x1000 -Wl,--defsym=__boot_bytes=$(BOARD_BOOT_BYTES) \
	  -Wl,--defsym=__ram_base=$(RAM_BASE) -Wl,--defsym=__ram_size=$(RAM_BYTES) \
	  -Wl,--no-warn-rwx-segments $(BOARD_BUILD)/boot_start.o $(BOARD_BUILD)/boot.o -lgcc -o $@
# one 32-bit word per line for $readmemh (od prints host-order words: this host is little-endian),
# padded with zeros to the ROM's size (node_rom wants a word for every address)
$(BOOT_HEX): $(BOOT_ELF)
	riscv64-unknown-elf-objcopy -O binary $< $(@:.hex=.bin)
	@test "$$(stat -c %s $(@:.hex=.bin))" -le $(BOARD_BOOT_BYTES) || { echo "boards: the boot ROM is larger than BOOT_BYTES=$(BOARD_BOOT_BYTES)" >&2; exit 1; }
	@cp $(@:.hex=.bin) $(@:.hex=.pad) && truncate -s $(BOARD_BOOT_BYTES) $(@:.hex=.pad)
	od -An -tx4 -v -w4 $(@:.hex=.pad) | tr -d ' ' > $@.tmp
	@test "$$(printf '\001\000\000\000' | od -An -tx4 | tr -d ' ')" = 00000001 || { echo "boards: od is not little-endian here" >&2; exit 1; }
	@mv $@.tmp $@
	@echo "boot ROM: $$(stat -c %s $(@:.hex=.bin)) of $(BOARD_BOOT_BYTES) bytes"

# ---- host tool --------------------------------------------------------------------------
BOARD_IMAGE_TOOL := $(BOARDS_DIR)/bin/board-image
tool: $(BOARD_IMAGE_TOOL)
$(BOARD_IMAGE_TOOL): boards/tools/board_image.c boards/boot/board_image.h firmware/sched/sched_table.c \
                     firmware/sched/sched_table.h firmware/sched/sched_shape.c firmware/sched/sched_names.c firmware/sched/sched.h
	@mkdir -p $(dir $@)
	gcc -std=c11 -O2 -Wall -Wextra -Werror -Ifirmware/sched -o $@ $< firmware/sched/sched_table.c firmware/sched/sched_shape.c firmware/sched/sched_names.c

# ---- firmware image ---------------------------------------------------------------------
# FW: the program (a .c or .S file of the tree); COORD: this board's node; the machine's
# shape is config.mk's MESH_* (e.g. make -C boards prog MESH_X=2 MESH_Y=2 COORD=1,0).
FW     ?= firmware/apps/hello.c
COORD  ?= $(if $(filter 3,$(MESH_DIMS)),0$(comma)0$(comma)0,0$(comma)0)
comma  := ,
BOARD_SHAPE := $(MESH_X)x$(MESH_Y)$(if $(filter 3,$(MESH_DIMS)),x$(MESH_Z))
FW_ELF := $(BUILD)/fw/$(basename $(FW)).elf
BOARD_IMAGE := $(BOARD_BUILD)/image-$(subst $(comma),_,$(COORD)).bin
image: check-board $(BOARD_IMAGE)
$(BOARD_IMAGE): $(FW_ELF) $(BOARD_IMAGE_TOOL) FORCE
	$(BOARD_IMAGE_TOOL) --coord $(COORD) --shape $(BOARD_SHAPE) \
	  $(if $(filter 1,$(MESH_TORUS)),--torus,--mesh) --ram-base $(RAM_BASE) \
	  --ram-bytes $(RAM_BYTES) --slot $(BOARD_FLASH_SLOT) -o $@ $<

# ---- bitstream --------------------------------------------------------------------------
BOARD_JSON  := $(BOARD_BUILD)/$(BOARD_TOP).json
BOARD_ASC   := $(BOARD_BUILD)/$(BOARD_TOP).asc
BOARD_BIN   := $(BOARD_BUILD)/$(BOARD_TOP).bin
BOARD_PNR   := $(BOARD_BUILD)/pnr.json
REPORT_JSON := $(BOARD_BUILD)/report.json

# the PLL settings for BOARD_TARGET_MHZ from the oscillator (icepll, fpga-icestorm)
$(BOARD_PLL): config.mk
	@mkdir -p $(dir $@)
	icepll -i $(BOARD_OSC_MHZ) -o $(BOARD_TARGET_MHZ) > $@.log
	@awk '/^DIVR:/{r=$$2} /^DIVF:/{f=$$2} /^DIVQ:/{q=$$2} /^FILTER_RANGE:/{fr=$$2} \
	      /achieved/{hz=int($$2*1000000+0.5)} \
	      END{print "-set PLL_DIVR " r " -set PLL_DIVF " f " -set PLL_DIVQ " q " -set PLL_FILTER " fr " -set CLK_HZ " hz}' \
	      $@.log > $@.tmp && mv $@.tmp $@

synth: check-board $(BOARD_JSON)
$(BOARD_JSON): $(BOARD_NODE_RTL) $(BOARD_TOP_RTL) $(BOOT_HEX) $(BOARD_PLL) config.mk
	@echo "yosys synth_$(BOARD_FAMILY) $(BOARD_SYNTH_FLAGS) of $(BOARD_TOP) ($(BOARD_TILE_PARAMS)) ..."
	@yosys -q -l $(BOARD_BUILD)/synth.log -p "read_verilog $(BOARD_NODE_RTL) $(BOARD_TOP_RTL); \
	  chparam $(BOARD_CHPARAM) -set BOOT_INIT \"$(abspath $(BOOT_HEX))\" board_node; \
	  chparam $$(cat $(BOARD_PLL)) $(BOARD_TOP); \
	  synth_$(BOARD_FAMILY) $(BOARD_SYNTH_FLAGS) -top $(BOARD_TOP) -json $@.tmp; \
	  tee -q -o $(BOARD_BUILD)/synth.stat stat" >/dev/null
	@mv $@.tmp $@

# the same netlist as Verilog with yosys's cell names, for simulation (tests/boards/
# test_board_netlist.sh runs it against the RTL with yosys's iCE40 cell models); its buses
# split into single bits, which Verilator needs to see no false combinational loops
BOARD_NETLIST := $(BOARD_BUILD)/$(BOARD_TOP)_netlist.v
netlist: check-board $(BOARD_NETLIST)
$(BOARD_NETLIST): $(BOARD_JSON)
	@echo "yosys write_verilog $@"
	@yosys -q -p "read_json $<; splitnets; write_verilog -noattr $@.tmp" >/dev/null
	@mv $@.tmp $@

# the RTL files of board_node, for the testbenches (tests/boards, boards/scripts)
print-rtl:
	@echo $(BOARD_NODE_RTL)

# nextpnr; its status is kept (pnr.status) rather than ending the build, so that the
# report says how far the design got: a design too large for the device fails here
pnr: check-board $(BOARD_PNR)
$(BOARD_PNR): $(BOARD_JSON) boards/$(BOARD).pcf
	@echo "nextpnr-$(BOARD_FAMILY) --$(BOARD_DEVICE) --package $(BOARD_PACKAGE) --freq $(BOARD_TARGET_MHZ) --seed $(BOARD_PNR_SEED) ..."
	@rm -f $(BOARD_ASC) $@
	@nextpnr-$(BOARD_FAMILY) --$(BOARD_DEVICE) --package $(BOARD_PACKAGE) --json $< \
	  --pcf boards/$(BOARD).pcf --asc $(BOARD_ASC) --freq $(BOARD_TARGET_MHZ) \
	  --seed $(BOARD_PNR_SEED) --timing-allow-fail --report $@.tmp \
	  -l $(BOARD_BUILD)/pnr.log >/dev/null 2>&1; echo $$? > $(BOARD_BUILD)/pnr.status
	@if [ -f $@.tmp ]; then mv $@.tmp $@; else echo '{}' > $@; fi
	@rm -f $(BOARD_BIN)
	@if [ "$$(cat $(BOARD_BUILD)/pnr.status)" = 0 ] && [ -f $(BOARD_ASC) ]; then \
	  echo "icepack $(BOARD_ASC) $(BOARD_BIN)"; icepack $(BOARD_ASC) $(BOARD_BIN); fi

# the verdict runs every time (an up-to-date report of a design that does not fit still fails)
report: check-board $(REPORT_JSON)
	@cat $(REPORT_JSON)
	@boards/scripts/board_report.sh --verdict $(BOARD_BUILD) $(REPORT_JSON)
$(REPORT_JSON): $(BOARD_PNR) boards/scripts/board_report.sh
	@boards/scripts/board_report.sh $(BOARD_BUILD) "$(BOARD_DEVICE_NAME)" \
	  $(BOARD_LC_TOTAL) $(BOARD_TARGET_MHZ) > $@.tmp && mv $@.tmp $@ || { rm -f $@.tmp; exit 1; }

bitstream: report
	@test -f $(BOARD_BIN) || { echo "boards: no bitstream: see $(REPORT_JSON) and $(BOARD_BUILD)/pnr.log" >&2; exit 1; }

# ---- programming ------------------------------------------------------------------------
prog: check-board bitstream $(BOARD_IMAGE)
	@boards/scripts/board_prog.sh $(BOARD_BIN) $(BOARD_IMAGE) $(BOARD_FLASH_OFFSET)
prog-image: check-board $(BOARD_IMAGE)
	@boards/scripts/board_prog.sh - $(BOARD_IMAGE) $(BOARD_FLASH_OFFSET)

# ---- CPI on the board's tile (SPRAM banks) against a dual-ported RAM: build/bench/board_cpi.json
.PHONY: bench-cpi
bench-cpi: check-board $(BOOT_HEX) $(BOARD_PARAMS_VH) $(CORE_MAC16_MODEL) $(BOARD_IMAGE_TOOL)
	@BOARD=$(BOARD) BENCH_DIR=build/bench boards/scripts/board_cpi.sh

# ---- four boards cabled as a 2x2 machine, in simulation -------------------------------------
# tests/boards/tb_board_mesh.v: four board tops from RTL with their own oscillators, flash
# models and UARTs, PMOD pins cabled as boards/link-pinout.md. boards/scripts/board_mesh_run.sh
# runs it on four flash images (a kit program's `make board-sim` does both).
BOARD_MESH_SIM_DIR := $(BOARD_BUILD)/mesh-sim
BOARD_MESH_SIM     := $(BOARD_MESH_SIM_DIR)/Vtb_board_mesh
BOARD_MESH_TB      := tests/boards/tb_board_mesh.v tests/boards/uart_rx_model.v tests/boards/spi_flash_model.v \
                      tests/boards/sb_pll40_pad_model.v
board-mesh-sim: check-board $(BOARD_MESH_SIM)
$(BOARD_MESH_SIM): $(BOARD_MESH_TB) $(BOARD_TOP_RTL) $(BOARD_NODE_RTL) $(BOOT_HEX) $(BOARD_PARAMS_VH) $(CORE_MAC16_MODEL)
	@echo "verilator $(BOARD_TOP) x 4 (tb_board_mesh) -> $@ (log: $(BOARD_MESH_SIM_DIR)/build.log)"
	@mkdir -p $(BOARD_MESH_SIM_DIR)
	@verilator --binary --timing -j 2 -Wno-fatal -Wno-lint -Wno-style --top-module tb_board_mesh \
	  -I$(BOARD_BUILD) -DBOOT_HEX="\"$(abspath $(BOOT_HEX))\"" -DBOARD_NODE_PARAMS \
	  -GFLASH_BASE=$(shell printf '%d' $(BOARD_FLASH_OFFSET)) -Mdir $(BOARD_MESH_SIM_DIR)/obj \
	  $(BOARD_MESH_TB) $(BOARD_TOP_RTL) $(BOARD_NODE_RTL) $(CORE_MAC16_MODEL) > $(BOARD_MESH_SIM_DIR)/build.log 2>&1 || \
	  { echo "boards: verilator failed: see $(BOARD_MESH_SIM_DIR)/build.log" >&2; exit 1; }
	@cp $(BOARD_MESH_SIM_DIR)/obj/Vtb_board_mesh $@

# ---- estimates for larger devices ---------------------------------------------------------
include boards/estimate.mk

help:
	@echo "rvmesh boards (make -C boards [BOARD=$(BOARD)] TARGET; settings from config.mk):"
	@echo "  (default)      yosys -> nextpnr-$(BOARD_FAMILY) -> icepack: $(BOARD_BUILD)/report.json, $(BOARD_TOP).bin"
	@echo "  prog           write the bitstream and the firmware image (FW=$(FW), COORD=$(COORD)) to the board"
	@echo "  prog-image     write only the firmware image (e.g. another node: COORD=1,0)"
	@echo "  image          build the firmware image: $(BOARD_IMAGE)"
	@echo "  boot           build the boot ROM: $(BOOT_HEX)"
	@echo "  netlist        the synthesised netlist as Verilog, for simulation: $(BOARD_NETLIST)"
	@echo "  bench-cpi      CPI of the C test programs on the board's tile vs a dual-ported RAM: build/bench/board_cpi.json"
	@echo "  estimate       yosys synthesis estimate for ECP5-85F and Artix-7 100T: $(BOARDS_DIR)/estimate.json"
	@echo "  board-mesh-sim four boards cabled as a 2x2 machine, simulated: $(BOARD_BUILD)/mesh-sim/ (make board-sim in a kit program)"
	@echo "  clean          remove $(BOARDS_DIR)/"
	@echo "Board $(BOARD): $(BOARD_DEVICE)-$(BOARD_PACKAGE), $(BOARD_TARGET_MHZ) MHz target, tile $(BOARD_TILE_PARAMS)"
	@echo "Machine: $(BOARD_SHAPE) $(if $(filter 1,$(MESH_TORUS)),torus,mesh); image at flash $(BOARD_FLASH_OFFSET), slot $(BOARD_FLASH_SLOT) bytes"

clean:
	rm -rf $(BOARDS_DIR)
