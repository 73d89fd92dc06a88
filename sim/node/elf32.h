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
};

enum class ElfStatus { ok, cannot_read, not_elf, wrong_arch, malformed };

// Reads `path` into `image`. On failure returns the kind of failure and a message saying
// what is wrong in `error`.
ElfStatus elf32_load(const std::string &path, Elf32Image &image, std::string &error);

#endif
