# SPDX-License-Identifier: ISC
# The firmware's compiler and flags, from config.mk (RISCV_ARCH, RISCV_ABI, RAM_BASE,
# RAM_BYTES): one definition for the tree's programs (firmware/firmware.mk) and a user's
# program (kit/program.mk). No paths here: each includer adds its own -I and -T.

FW_CC      := riscv64-unknown-elf-gcc
FW_AR      := riscv64-unknown-elf-ar
FW_OBJDUMP := riscv64-unknown-elf-objdump
# Code is compiled for the ISA plus the CSR (zicsr) and fence.i (zifencei) extensions that
# ISA 2.2 still counted in I; links name the plain ISA, from which gcc 12 picks picolibc's
# multilib (it finds none for the longer string).
FW_ARCH    := -march=$(RISCV_ARCH)_zicsr_zifencei -mabi=$(RISCV_ABI)
FW_LD_ARCH := -march=$(RISCV_ARCH) -mabi=$(RISCV_ABI)
FW_BASE_CFLAGS  := $(FW_ARCH) -std=c11 -O2 -g -Wall -Wextra -Werror --specs=picolibc.specs \
                   -ffunction-sections -fdata-sections
FW_BASE_LDFLAGS := $(FW_LD_ARCH) --specs=picolibc.specs -Wl,--defsym=__ram_base=$(RAM_BASE) \
                   -Wl,--defsym=__ram_size=$(RAM_BYTES) -Wl,--gc-sections -Wl,--no-warn-rwx-segments

# $(call fw_config_h,FILE,DIMS,X,Y,Z,TORUS): a recipe that writes rvmesh_config.h (config.mk
# as C macros) for that machine, touching FILE only when a value changes
define fw_config_h
@mkdir -p $(dir $(1))
@{ echo "/* generated from config.mk: do not edit */"; \
	   echo "#define RVMESH_MESH_DIMS $(2)"; \
	   echo "#define RVMESH_MESH_X $(3)"; \
	   echo "#define RVMESH_MESH_Y $(4)"; \
	   echo "#define RVMESH_MESH_Z $(5)"; \
	   echo "#define RVMESH_MESH_TORUS $(6)"; \
	   echo "#define RVMESH_FLIT_BITS $(FLIT_BITS)"; \
	   echo "#define RVMESH_RAM_BASE $(RAM_BASE)u"; \
	   echo "#define RVMESH_RAM_BYTES $(RAM_BYTES)u"; } > $(1).tmp
@cmp -s $(1).tmp $(1) && rm -f $(1).tmp || mv $(1).tmp $(1)
endef
