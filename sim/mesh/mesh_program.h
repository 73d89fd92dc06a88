// SPDX-License-Identifier: ISC
// mesh_program: what mesh-sim does for any program, besides running it.
//
// - A program of the application kit (kit/program.mk) carries every node's tables in its
//   ELF (section .rvmesh_package, firmware/sched/sched_table.h). mesh_package_load checks
//   them against this machine before reset (the shape, the size of the image's area, every
//   area's and table's checksum) and gives each node's area, which mesh-sim writes into that
//   node's RAM at `rvmesh_tables`.
#ifndef RVMESH_MESH_PROGRAM_H
#define RVMESH_MESH_PROGRAM_H

#include <cstdint>
#include <string>
#include <vector>

#include "elf32.h"
#include "mesh_jobs.h"

struct MeshPackage {
    bool present = false;
    uint32_t area_word = 0;                    // (rvmesh_tables - RAM base) / 4
    uint32_t area_bytes = 0;                   // the image's reservation
    uint32_t largest = 0;                      // the largest node's area
    uint32_t entries = 0;                      // tables per node
    std::vector<std::vector<uint32_t>> areas;  // per node, as words
};

// Checks the image's package against this machine; true with pkg filled (pkg.present false
// when the image has none), or false with a message saying what to do (nothing is loaded).
bool mesh_package_load(const Elf32Image &image, const MeshShape &shape, const std::string &shape_name,
                       uint64_t ram_base, uint64_t ram_bytes, MeshPackage &pkg, std::string &error);

#endif
