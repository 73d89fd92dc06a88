# SPDX-License-Identifier: ISC
# rvmesh machine configuration: the single source of truth.
#
# Every part of the build reads these values: the RTL gets them as Verilator/yosys
# parameters, the firmware as -march/-mabi and -D defines (build/rvmesh_config.h),
# the schedule-table generator as its shape arguments. Override on the command line,
# e.g. `make demo MESH_X=5 MESH_Y=5`, never by editing copies elsewhere.

# Network shape: dimensions (2 or 3), side lengths, mesh (0) or torus (1).
MESH_DIMS  ?= 2
MESH_X     ?= 4
MESH_Y     ?= 4
MESH_Z     ?= 1
MESH_TORUS ?= 1

# Flit width of the network, in bits.
FLIT_BITS  ?= 32

# The router (rtl/noc; rtl/README.md "noc/"). The simulated machine's (noc-sim's default;
# the tile's parameters): virtual channels per link, flits per VC buffer, flits per
# injection buffer.
ROUTER_VCS       ?= 2
ROUTER_BUF_DEPTH ?= 4
ROUTER_INJ_DEPTH ?= 4
# The lean router for a board (iCE40 UP5K; `make router-pnr` places it beside the default
# one): 1 VC per link (a mesh, or a torus of sides <= 2), VC buffers of BUF_DEPTH flits in
# block RAM, injection channel j feeds link j only, route and allocation registered (a hop
# takes 4 cycles, the paths are short), coordinates of SIDE_BITS bits (sides of up to
# 2**SIDE_BITS boards). The board profiles' BOARD_TILE_PARAMS below use these, and so does
# mesh-sim-4x4m-board (the board's tile on the simulated machine).
ROUTER_BOARD_VCS          ?= 1
ROUTER_BOARD_BUF_DEPTH    ?= 16
ROUTER_BOARD_INJ_DEPTH    ?= 1
ROUTER_BOARD_BUF_RAM      ?= 1
ROUTER_BOARD_INJ_ANY_PORT ?= 0
ROUTER_BOARD_PIPELINE     ?= 1
ROUTER_BOARD_SIDE_BITS    ?= 3

# The board link PHY (rtl/link/README.md), on every port of a board with LINK_PHY=1:
# LINK_RETRY 1 gives flit frames sequence numbers and the link go-back-N retry (a damaged
# frame is refused and sent again; counted in the PHY's err_count and retry_count), 0 the
# fail-stop PHY (a damaged frame is a fault: the board resets its tile).
LINK_RETRY ?= 1

# The core: ISA string and ABI handed to gcc; the RTL implements RV32IM.
RISCV_ARCH ?= rv32im
RISCV_ABI  ?= ilp32

# Node memory: one on-chip RAM per node holding code, data and tables (128 KiB: the iCE40
# UP5K's SPRAM). LINE_WORDS: words its data port moves per access in a tile, as that many
# banks side by side (the NI's engines move whole lines: 16 words keep all ports of a 2-D or
# 3-D tile streaming a flit per cycle each way; 1 is a plain word-wide RAM).
RAM_BASE   ?= 0x80000000
RAM_BYTES  ?= 131072
LINE_WORDS ?= 16
# The NI (rtl/tile/README.md): NI_COMBINE 1 takes combining puts (the words of a put summed,
# and-ed, or-ed, xor-ed, min-ed or max-ed into the RAM's at the NI's RAM port: reductions
# without the core): the kit's rvm_allreduce runs on them on 2-D tori (firmware/coll/coll_ring.c;
# with 0 it combines in the core: a 16 KiB allreduce on the 8x8 torus 40,975 cycles instead of
# 4,451, build/bench/allreduce.json). They cost 3% of simulation speed; the board's NI leaves
# them out (NI_BOARD_COMBINE 0: area).
NI_COMBINE       ?= 1
NI_BOARD_COMBINE ?= 0

# The core (rtl/core/README.md): MUL_KIND (1 single-cycle multiplier in logic, 2 operands
# registered into DSP blocks (2 cycles), 0 iterative, 9 cycles), DIV_BITS (quotient bits
# per divider step: 4, 2 or 1), LOAD_BYPASS (1 load data forwarded to the next
# instruction; 0 a load-use pair waits a cycle), FAST_REDIRECT (1 a mispredicted branch,
# jalr, trap, mret or fence.i costs one bubble; 0 two, with the new fetch address
# registered), DSP_COUNTERS (1 the 64-bit counters mcycle and minstret in four iCE40 UP5K
# DSP blocks, 0 in logic). These are the simulated machine's (node-sim, mesh-sim).
CORE_MUL_KIND      ?= 1
CORE_DIV_BITS      ?= 4
CORE_LOAD_BYPASS   ?= 1
CORE_FAST_REDIRECT ?= 1
CORE_DSP_COUNTERS  ?= 0
# The same five for an iCE40 UP5K board (the icebreaker profile's BOARD_TILE_PARAMS below
# passes these to the core; `make core-pnr` places and routes the core alone with them,
# `make bench-core` measures their CPI beside the simulated ones): the multiplier and the
# counters in the UP5K's DSP blocks, and the short paths that reach its clock.
CORE_BOARD_MUL_KIND      ?= 2
CORE_BOARD_DIV_BITS      ?= 1
CORE_BOARD_LOAD_BYPASS   ?= 0
CORE_BOARD_FAST_REDIRECT ?= 0
CORE_BOARD_DSP_COUNTERS  ?= 1

# ---- Board profiles: what `make -C boards BOARD=<name>` builds (boards/README.md) ---------
# One list per board. BOARD_TILE_PARAMS are parameters of boards/rtl/board_node.v, i.e. the
# tile's parameters on that board (handed to yosys as chparam and to verilator as -G); a
# tile parameter not listed keeps its default. The machine's shape is not among them: the
# boot ROM reads it, and the node's coordinates, from the flash image (one bitstream for
# every board of a machine). When the tile gains a parameter (a lean core, router or NI
# setting), it is added to board_node.v and set here.
BOARD ?= icebreaker
ifeq ($(BOARD),icebreaker)
BOARD_FAMILY      := ice40
BOARD_DEVICE_NAME := iCE40UP5K-SG48
BOARD_DEVICE      := up5k
BOARD_PACKAGE     := sg48
BOARD_LC_TOTAL    := 5280
BOARD_OSC_MHZ     := 12
BOARD_TARGET_MHZ  := 24
BOARD_PNR_SEED    := 1
# synth_ice40 options: the multiplier on the SB_MAC16 DSPs, the node RAM on the SPRAMs
BOARD_SYNTH_FLAGS := -dsp -spram
# SPI flash: the firmware image's slot (past the ~104 KiB bitstream at 0)
BOARD_FLASH_OFFSET := 0x100000
BOARD_FLASH_SLOT   := 0x20000
BOARD_TILE_PARAMS := DIMS=$(MESH_DIMS) FLIT_BITS=$(FLIT_BITS) VCS=$(ROUTER_BOARD_VCS) \
                     BUF_DEPTH=$(ROUTER_BOARD_BUF_DEPTH) INJ_DEPTH=$(ROUTER_BOARD_INJ_DEPTH) \
                     BUF_RAM=$(ROUTER_BOARD_BUF_RAM) INJ_ANY_PORT=$(ROUTER_BOARD_INJ_ANY_PORT) \
                     PIPELINE=$(ROUTER_BOARD_PIPELINE) SIDE_BITS=$(ROUTER_BOARD_SIDE_BITS) \
                     RAM_BYTES=$(RAM_BYTES) LINE_WORDS=1 COMBINE=$(NI_BOARD_COMBINE) RAM_SP_BANKS=2 BOOT_BYTES=2048 \
                     MUL_KIND=$(CORE_BOARD_MUL_KIND) DIV_BITS=$(CORE_BOARD_DIV_BITS) \
                     LOAD_BYPASS=$(CORE_BOARD_LOAD_BYPASS) FAST_REDIRECT=$(CORE_BOARD_FAST_REDIRECT) \
                     DSP_COUNTERS=$(CORE_BOARD_DSP_COUNTERS) LINK_PHY=1 \
                     LINK_RETRY=$(LINK_RETRY) LINK_TAG_RAM=0
# the data (everything but .text) in the second SPRAM bank: no fetch/data collisions
BOARD_DATA_BASE   := 0x80010000
endif
