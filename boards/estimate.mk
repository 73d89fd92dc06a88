# SPDX-License-Identifier: ISC
# make -C boards estimate: a yosys synthesis estimate (no place and route: none exists here
# for these devices) of the tile for larger boards: ECP5-85F (ULX3S; synth_ecp5) and
# Artix-7 100T (synth_xilinx), in config.mk's default configuration and in the board
# profile's (BOARD), with the tiles per device that the LUTs, the block RAM and the DSPs
# allow, in boards/build/estimate.json (boards/scripts/estimate.sh writes it).

ESTIMATE_JSON := $(BOARDS_DIR)/estimate.json
ESTIMATE_RTL  := $(BOARD_CORE_RTL) $(BOARD_NOC_RTL) $(BOARD_TILE_RTL)
# config.mk's default tile (the core's CORE_*), and the board's (its counters in logic:
# DSP_COUNTERS=1 instantiates the iCE40's SB_MAC16, which these families do not have; the
# LINK_* parameters are board_node's link PHYs, not the tile's)
ESTIMATE_DEFAULT := DIMS=$(MESH_DIMS) FLIT_BITS=$(FLIT_BITS) RAM_BYTES=$(RAM_BYTES) LINE_WORDS=$(LINE_WORDS) \
                    MUL_KIND=$(CORE_MUL_KIND) DIV_BITS=$(CORE_DIV_BITS) LOAD_BYPASS=$(CORE_LOAD_BYPASS) \
                    FAST_REDIRECT=$(CORE_FAST_REDIRECT) DSP_COUNTERS=$(CORE_DSP_COUNTERS)
ESTIMATE_BOARD   := $(filter-out DSP_COUNTERS=% LINK_%,$(BOARD_TILE_PARAMS)) DSP_COUNTERS=0
estimate: check-board $(BOOT_HEX)
	@mkdir -p $(BOARDS_DIR)/estimate
	@ESTIMATE_RTL="$(ESTIMATE_RTL)" RAM_BASE_DEC=$(BOARD_RAM_BASE_DEC) \
	  boards/scripts/estimate.sh $(BOARDS_DIR)/estimate $(ESTIMATE_JSON) \
	  "default" "$(ESTIMATE_DEFAULT)" \
	  "$(BOARD)" "$(ESTIMATE_BOARD) BOOT_INIT=\"$(abspath $(BOOT_HEX))\""
