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
# The same four for an iCE40 UP5K board (the board profile passes these; `make core-pnr`
# places and routes the core with them, `make bench-core` measures their CPI): the
# multiplier in the UP5K's DSP blocks, and the short paths that reach its clock.
CORE_BOARD_MUL_KIND      ?= 2
CORE_BOARD_DIV_BITS      ?= 1
CORE_BOARD_LOAD_BYPASS   ?= 0
CORE_BOARD_FAST_REDIRECT ?= 0
CORE_BOARD_DSP_COUNTERS  ?= 1
