/* SPDX-License-Identifier: ISC */
// elf32: a small reader for 32-bit little-endian RISC-V ELF executables (no libelf).
#ifndef RVMESH_ELF32_H
#define RVMESH_ELF32_H

#include <cstdint>
#include <string>
#include <vector>

struct Elf32Segment {
    uint32_t paddr;               // load address
    uint32_t memsz;               // bytes in memory (filesz bytes from the file, then zeros)
    std::vector<uint8_t> bytes;   // the filesz bytes from the file
};

struct Elf32Image {
    uint32_t entry = 0;
    std::vector<Elf32Segment> segments;   // PT_LOAD segments with memsz > 0
    bool has_tohost = false;
    uint32_t tohost = 0;                  // address of the symbol `tohost`
    bool has_jobs = false;                // mesh-sim's jobs area (firmware/coll/coll_jobs.h)
    uint32_t jobs = 0, jobs_bytes = 0;    // address and size of the symbol `rvmesh_jobs`
    // a program of the application kit (kit/program.mk): every node's tables in the section
    // .rvmesh_package (not loaded; firmware/sched/sched_table.h), the area each node's are
    // written to (the symbol `rvmesh_tables`, its size), and the region timers
    // (`rvmesh_regions`, firmware/rt/rvmesh_rt.h)
    bool has_package = false;
    std::vector<uint8_t> package;
    bool has_tables = false;
    uint32_t tables = 0, tables_bytes = 0;
    bool has_regions = false;
    uint32_t regions = 0, regions_bytes = 0;
    // what a program asks mesh-sim --dump to write out of every node's RAM after the run
    // (the symbol `rvmesh_dump`, its size)
    bool has_dump = false;
    uint32_t dump = 0, dump_bytes = 0;
};

// Exit statuses of the simulators themselves (node-sim, mesh-sim); a program's own status
// is tohost >> 1.
enum SimStatus {
    kBadCommandLine = 120,
    kCannotRead = 121,
    kNotElf = 122,
    kWrongArch = 123,
    kTooBig = 124,
    kMaxCycles = 125,
    kCoreHalted = 126,
    kCheckFailed = 127,   // mesh-sim --job: a collective's delivery check failed
};

enum class ElfStatus { ok, cannot_read, not_elf, wrong_arch, malformed };

// Reads `path` into `image`. On failure returns the kind of failure and a message saying
// what is wrong in `error`.
ElfStatus elf32_load(const std::string &path, Elf32Image &image, std::string &error);

// The same for the bytes `b` of a file: `path` only names it in the messages (the fuzz
// harness, tests/fuzz, calls this one). `image` is cleared first.
ElfStatus elf32_parse(const std::vector<uint8_t> &b, const std::string &path, Elf32Image &image,
                      std::string &error);

// Loads the program of a simulator run: reads `path` into `image`, checks that every
// segment lies in RAM [ram_base, ram_base + ram_bytes) (`ram_name` names that RAM in the
// message) and, unless `quiet`, warns when there is no `tohost` symbol or the entry is not
// the reset pc ram_base. Problems are printed to stderr as "<tool>: ...". Returns 0, or the
// exit status for the problem (kCannotRead, kNotElf, kWrongArch, kTooBig).
int elf32_load_program(const char *tool, const char *ram_name, const std::string &path,
                       uint64_t ram_base, uint64_t ram_bytes, bool quiet, Elf32Image &image);

// The checks elf32_load_program makes on a loaded image (every segment in RAM; the
// warnings), with the same messages and statuses.
int elf32_check_program(const char *tool, const char *ram_name, const std::string &path,
                        uint64_t ram_base, uint64_t ram_bytes, bool quiet, const Elf32Image &image);

// The RAM image of a checked program (elf32_check_program): ram_words words, the loadable
// segments' bytes at their addresses from ram_base (little endian), zeros elsewhere.
std::vector<uint32_t> elf32_ram_image(const Elf32Image &image, uint64_t ram_base, size_t ram_words);

#endif
