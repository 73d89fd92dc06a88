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
# injection buffer. 4 x 8 saturates the 8x8 torus at 66% of its bisection limit (2 x 4:
# 44%; make bench-router).
ROUTER_VCS       ?= 4
ROUTER_BUF_DEPTH ?= 8
ROUTER_INJ_DEPTH ?= 4
# A board's router (iCE40 UP5K, boards/; `make router-pnr` places it): 1 VC per link (a
# mesh, or a torus of sides <= 2), VC buffers of BUF_DEPTH flits in block RAM, injection
# channel j feeds link j only, route and allocation registered (fmax over 30 MHz; a hop
# takes 4 cycles), coordinates of SIDE_BITS bits (sides of up to 2**SIDE_BITS boards).
BOARD_ROUTER_VCS          ?= 1
BOARD_ROUTER_BUF_DEPTH    ?= 16
BOARD_ROUTER_INJ_DEPTH    ?= 1
BOARD_ROUTER_BUF_RAM      ?= 1
BOARD_ROUTER_INJ_ANY_PORT ?= 0
BOARD_ROUTER_PIPELINE     ?= 1
BOARD_ROUTER_SIDE_BITS    ?= 3

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
