# SPDX-License-Identifier: ISC
# The tile (rtl/tile): core + RAM + NI + router, and mesh_top, the machine of tiles.
#   make lint-tile     verilator --lint-only -Wall on tile_ni, tile and mesh_top (2-D/3-D,
#                      mesh/torus, config.mk's shape)
#   make tile-synth    yosys synth_ice40 of one tile (4 KiB RAM): $(BUILD)/synth/tile/tile.stat

TILE_RTL := $(CORE_RTL) $(filter-out rtl/noc/noc_network.v,$(NOC_RTL)) \
            rtl/tile/ni_tx_engine.v rtl/tile/ni_rx_engine.v rtl/tile/tile_ni.v rtl/tile/tile.v \
            rtl/tile/mesh_top.v
TILE_NI_RTL := rtl/tile/tile_ni.v rtl/tile/ni_tx_engine.v rtl/tile/ni_rx_engine.v rtl/noc/noc_rr_arbiter.v
# config.mk's machine as mesh_top parameters
MESH_TOP_PARAMS := -GDIMS=$(MESH_DIMS) -GSIZE_X=$(MESH_X) -GSIZE_Y=$(MESH_Y) \
                   -GSIZE_Z=$(if $(filter 3,$(MESH_DIMS)),$(MESH_Z),1) -GTORUS=$(MESH_TORUS) \
                   -GFLIT_BITS=$(FLIT_BITS) $(NODE_TOP_PARAMS) -GLINE_WORDS=$(LINE_WORDS)

LINT_TARGETS += lint-tile
.PHONY: lint-tile tile-synth
lint-tile:
	verilator --lint-only -Wall --top-module tile_ni $(TILE_NI_RTL)
	verilator --lint-only -Wall --top-module tile_ni -GDIMS=3 $(TILE_NI_RTL)
	verilator --lint-only -Wall --top-module tile_ni -GLINE_WORDS=1 -GRAM_BYTES=4096 $(TILE_NI_RTL)
	verilator --lint-only -Wall --top-module tile $(NODE_TOP_PARAMS) $(TILE_RTL)
	verilator --lint-only -Wall --top-module mesh_top $(MESH_TOP_PARAMS) $(TILE_RTL)
	verilator --lint-only -Wall --top-module mesh_top -GTORUS=0 -GSIZE_X=3 -GSIZE_Y=2 $(TILE_RTL)
	verilator --lint-only -Wall --top-module mesh_top -GDIMS=3 -GSIZE_X=2 -GSIZE_Y=2 -GSIZE_Z=2 $(TILE_RTL)
	verilator --lint-only -Wall --top-module mesh_top -GGUARD=1 $(TILE_RTL)

TILE_SYNTH_STAT := $(BUILD)/synth/tile/tile.stat
tile-synth: $(TILE_SYNTH_STAT)
$(TILE_SYNTH_STAT): $(filter-out rtl/tile/mesh_top.v,$(TILE_RTL))
	@mkdir -p $(dir $@)
	yosys -q -l $(@:.stat=.log) -p "read_verilog $^; chparam -set RAM_BYTES 4096 -set LINE_WORDS 1 tile; synth_ice40 -top tile; tee -q -o $@.tmp stat"
	@mv $@.tmp $@
