// SPDX-License-Identifier: ISC
// mesh_program: what mesh-sim does for any program, besides running it.
//
// - A program of the application kit (kit/program.mk) carries every node's tables in its
//   ELF (section .rvmesh_package, firmware/sched/sched_table.h). mesh_package_load checks
//   them against this machine before reset (the shape, the size of the image's area, every
//   area's and table's checksum) and gives each node's area, which mesh-sim writes into that
//   node's RAM at `rvmesh_tables`.
// - At the end, every node's region timers (`rvmesh_regions`, firmware/rt/rvmesh_rt.h) are
//   read from its RAM.
// - --report FILE.json and --junit FILE.xml: per node its exit status, cycles, instructions,
//   console and regions (with --job, the jobs' results too).
#ifndef RVMESH_MESH_PROGRAM_H
#define RVMESH_MESH_PROGRAM_H

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "elf32.h"
#include "mesh_jobs.h"
#include "sim_common.h"

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

struct NodeRegion {
    std::string name;
    uint64_t calls = 0, cycles = 0, first = 0, last = 0;
};

// The regions of one node's RAM (none when the table was never used or is damaged).
std::vector<NodeRegion> mesh_read_regions(const SimRam &ram, uint64_t ram_base, const Elf32Image &image);

struct NodeResult {
    std::string name;                  // "[x,y]"
    bool exited = false;
    uint64_t exit_code = 0;
    uint64_t exit_cycle = 0;
    uint64_t instret = 0;
    std::string console;               // every line it printed (capped: console_dropped counts the rest)
    uint64_t console_dropped = 0;
    std::vector<NodeRegion> regions;
};

struct RunResult {
    std::string shape;                 // "4x4 torus"
    std::string shape_id;              // "4x4t"
    std::string elf;
    int status = 0;                    // mesh-sim's exit status
    std::string reason;                // why the run failed, when mesh-sim says
    uint64_t cycles = 0, instret = 0, flits = 0;
    std::vector<NodeResult> nodes;
};

// The reports. jobs may be null (no --job). False with a message when a file cannot be written.
bool mesh_write_report(const std::string &path, const RunResult &run, const MeshJobs *jobs, std::string &error);
bool mesh_write_junit(const std::string &path, const RunResult &run, const MeshJobs *jobs, std::string &error);

// --dump FILE: every node's bytes of the program's symbol `rvmesh_dump`, read from its RAM
// after the run, in one file (firmware/apps/dynamic reads its delivery log this way). The
// format (little-endian words): "RVMDUMP1", then header bytes (64), nodes, bytes a node, dims,
// X, Y, Z, torus (1/0), cycles (two words, low first), mesh-sim's exit status, the symbol's
// address, two zero words; then per node in id order: exited (1/0), exit status, and its
// bytes, padded with zeros to a multiple of 4.
// mesh_check_dump: false with a message when the image has no such symbol inside RAM.
bool mesh_check_dump(const Elf32Image &image, uint64_t ram_base, uint64_t ram_bytes, std::string &error);
bool mesh_write_dump(const std::string &path, const RunResult &run, const MeshShape &shape,
                     const std::vector<SimRam> &rams, uint64_t ram_base, const Elf32Image &image, std::string &error);

#endif
