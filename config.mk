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
