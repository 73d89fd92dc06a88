// SPDX-License-Identifier: ISC
// Fuzz harness: the ELF loader of node-sim and mesh-sim (sim/node/elf32.cpp), then what
// mesh-sim does with a loaded image before reset (sim/mesh/mesh_program.cpp: the program's
// tables in section .rvmesh_package, checked against the 4x4 torus of the tests). The input
// is the ELF file.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "elf32.h"
#include "mesh_program.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > (1u << 20)) return 0;
    const std::vector<uint8_t> bytes(data, data + size);
    Elf32Image image;
    std::string error;
    if (elf32_parse(bytes, "fuzz.elf", image, error) != ElfStatus::ok) return 0;
    // node-sim's and mesh-sim's checks: every segment in RAM (messages on stderr)
    if (elf32_check_program("fuzz", "RAM", "fuzz.elf", RVMESH_RAM_BASE, RVMESH_RAM_BYTES, true, image) != 0)
        return 0;
    MeshShape shape;
    shape.dims = 2;
    shape.size[0] = shape.size[1] = 4;
    shape.torus = true;
    shape.nodes = 16;
    shape.ports = 4;
    MeshPackage pkg;
    if (mesh_package_load(image, shape, "4x4 torus", RVMESH_RAM_BASE, RVMESH_RAM_BYTES, pkg, error)) {
        // what mesh-sim then writes into each node's RAM: every area within the reservation
        volatile uint32_t sum = 0;
        for (const std::vector<uint32_t> &area : pkg.areas)
            for (uint32_t w : area) sum += w;
        (void)sum;
    }
    return 0;
}
