// SPDX-License-Identifier: ISC
// elf32: a small reader for 32-bit little-endian RISC-V ELF executables (no libelf).
#include "elf32.h"

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>

namespace {

const uint16_t kEmRiscv = 243;
const uint16_t kEtExec = 2, kEtDyn = 3;
const uint32_t kPtLoad = 1;
const uint32_t kShtSymtab = 2;

uint16_t rd16(const std::vector<uint8_t> &b, size_t at) {
    return static_cast<uint16_t>(b[at] | (b[at + 1] << 8));
}
uint32_t rd32(const std::vector<uint8_t> &b, size_t at) {
    return static_cast<uint32_t>(b[at]) | (static_cast<uint32_t>(b[at + 1]) << 8) |
           (static_cast<uint32_t>(b[at + 2]) << 16) | (static_cast<uint32_t>(b[at + 3]) << 24);
}
bool fits(const std::vector<uint8_t> &b, uint64_t off, uint64_t len) {
    return off <= b.size() && len <= b.size() - off;
}

}  // namespace

ElfStatus elf32_load(const std::string &path, Elf32Image &image, std::string &error)
{
    FILE *file = std::fopen(path.c_str(), "rb");
    if (!file) {
        error = "cannot open '" + path + "': " + std::strerror(errno);
        return ElfStatus::cannot_read;
    }
    std::vector<uint8_t> b;
    uint8_t chunk[65536];
    size_t got;
    while ((got = std::fread(chunk, 1, sizeof chunk, file)) > 0)
        b.insert(b.end(), chunk, chunk + got);
    bool read_error = std::ferror(file) != 0;
    std::fclose(file);
    if (read_error) {
        error = "cannot read '" + path + "': " + std::strerror(errno);
        return ElfStatus::cannot_read;
    }

    return elf32_parse(b, path, image, error);
}

ElfStatus elf32_parse(const std::vector<uint8_t> &b, const std::string &path, Elf32Image &image,
                      std::string &error)
{
    image = Elf32Image();
    const std::string size_text = std::to_string(b.size()) + " bytes";
    const char *const kBuild = "build it for the node with riscv64-unknown-elf-gcc -march=rv32im "
                               "-mabi=ilp32 (make fw-all)";
    const char *const kRebuild = "build it again (make fw-all)";
    const char *const kDamaged = "truncated or damaged: build it again (make fw-all)";
    if (b.empty()) {
        error = "'" + path + "' is empty (0 bytes), not an ELF file; give an RV32 ELF executable "
                "built for the node (make fw-all)";
        return ElfStatus::not_elf;
    }
    if (b.size() < 4 || std::memcmp(b.data(), "\x7f" "ELF", 4) != 0) {
        error = "'" + path + "' is not an ELF file (no \\x7fELF magic); give an RV32 ELF "
                "executable built for the node (make fw-all)";
        return ElfStatus::not_elf;
    }
    // Everything below reads the 52-byte header: a shorter file is refused first, whatever
    // its e_ident says.
    if (b.size() < 52) {
        error = "'" + path + "' is truncated: " + size_text +
                ", shorter than the 52-byte ELF32 header; " + kRebuild;
        return ElfStatus::malformed;
    }
    if (b[4] != 1 && b[4] != 2) {
        error = "'" + path + "' has an invalid ELF class " + std::to_string(b[4]) +
                " (e_ident[4] must be 1 for 32-bit): the file is damaged; " + kRebuild;
        return ElfStatus::malformed;
    }
    if (b[4] != 1) {
        error = "'" + path + "' is a 64-bit ELF; the nodes run 32-bit RISC-V (RV32IM) programs: " +
                kBuild;
        return ElfStatus::wrong_arch;
    }
    if (b[5] == 2) {
        error = "'" + path + "' is a big-endian ELF (e_ident[5] = 2); the nodes run little-endian "
                "RV32 programs: " + kBuild;
        return ElfStatus::wrong_arch;
    }
    if (b[5] != 1) {
        error = "'" + path + "' has an invalid ELF data encoding " + std::to_string(b[5]) +
                " (e_ident[5] must be 1, little-endian): the file is damaged; " + kRebuild;
        return ElfStatus::malformed;
    }
    uint16_t machine = rd16(b, 18);
    if (machine != kEmRiscv) {
        error = "'" + path + "' is an ELF for machine " + std::to_string(machine) +
                ", not RISC-V (243); " + kBuild;
        return ElfStatus::wrong_arch;
    }
    uint16_t type = rd16(b, 16);
    if (type != kEtExec && type != kEtDyn) {
        error = "'" + path + "' is not an executable (e_type " + std::to_string(type) +
                (type == 1 ? ", a relocatable object file: link it" : "") +
                "); give an RV32 ELF executable built for the node (make fw-all)";
        return ElfStatus::malformed;
    }
    image.entry = rd32(b, 24);
    uint32_t phoff = rd32(b, 28), shoff = rd32(b, 32);
    uint16_t phentsize = rd16(b, 42), phnum = rd16(b, 44);
    uint16_t shentsize = rd16(b, 46), shnum = rd16(b, 48);

    if (phnum && phentsize < 32) {
        error = "'" + path + "': program header entries of " + std::to_string(phentsize) +
                " bytes (e_phentsize), smaller than ELF32's 32: the file is damaged; " + kRebuild;
        return ElfStatus::malformed;
    }
    if (phnum && !fits(b, phoff, uint64_t(phentsize) * phnum)) {
        error = "'" + path + "': the program header table (" + std::to_string(phnum) +
                " entries at offset " + std::to_string(phoff) + ") lies outside the file (" +
                size_text + "): " + kDamaged;
        return ElfStatus::malformed;
    }
    for (unsigned i = 0; i < phnum; ++i) {
        size_t at = phoff + size_t(i) * phentsize;
        if (rd32(b, at) != kPtLoad) continue;
        uint32_t offset = rd32(b, at + 4), paddr = rd32(b, at + 12);
        uint32_t filesz = rd32(b, at + 16), memsz = rd32(b, at + 20);
        if (memsz == 0) continue;
        if (filesz > memsz) {
            error = "'" + path + "': program header " + std::to_string(i) + " (PT_LOAD) has " +
                    std::to_string(filesz) + " bytes in the file but only " +
                    std::to_string(memsz) + " in memory: the file is damaged; " + kRebuild;
            return ElfStatus::malformed;
        }
        if (!fits(b, offset, filesz)) {
            error = "'" + path + "': segment of program header " + std::to_string(i) +
                    " (" + std::to_string(filesz) + " bytes at offset " + std::to_string(offset) +
                    ") lies outside the file (" + size_text + "): " + kDamaged;
            return ElfStatus::malformed;
        }
        Elf32Segment seg;
        seg.paddr = paddr;
        seg.memsz = memsz;
        seg.bytes.assign(b.begin() + offset, b.begin() + offset + filesz);
        image.segments.push_back(std::move(seg));
    }
    if (image.segments.empty()) {
        error = "'" + path + "' has no loadable segment (no PT_LOAD program header with bytes): "
                "nothing to run; give an RV32 ELF executable built for the node (make fw-all)";
        return ElfStatus::malformed;
    }

    // symbol table: look for `tohost`, `rvmesh_jobs`, `rvmesh_tables`, `rvmesh_regions`,
    // `rvmesh_dump`; the section .rvmesh_package
    if (shnum && shentsize >= 40 && fits(b, shoff, uint64_t(shentsize) * shnum)) {
        uint16_t shstrndx = rd16(b, 50);
        if (shstrndx < shnum) {
            size_t names_sh = shoff + size_t(shstrndx) * shentsize;
            uint32_t names_off = rd32(b, names_sh + 16), names_size = rd32(b, names_sh + 20);
            static const char kPackage[] = ".rvmesh_package";
            for (unsigned i = 0; i < shnum && fits(b, names_off, names_size); ++i) {
                size_t sh = shoff + size_t(i) * shentsize;
                uint32_t name = rd32(b, sh);
                if (name >= names_size || names_size - name < sizeof kPackage ||
                    std::memcmp(&b[names_off + name], kPackage, sizeof kPackage) != 0)
                    continue;
                uint32_t off = rd32(b, sh + 16), size = rd32(b, sh + 20);
                if (rd32(b, sh + 4) == 8 /* SHT_NOBITS */ || !fits(b, off, size)) {
                    error = "'" + path + "': its section .rvmesh_package (the program's tables) lies outside the "
                            "file: " + kDamaged;
                    return ElfStatus::malformed;
                }
                image.has_package = true;
                image.package.assign(b.begin() + off, b.begin() + off + size);
            }
        }
        for (unsigned i = 0; i < shnum; ++i) {
            size_t sh = shoff + size_t(i) * shentsize;
            if (rd32(b, sh + 4) != kShtSymtab) continue;
            uint32_t sym_off = rd32(b, sh + 16), sym_size = rd32(b, sh + 20);
            uint32_t link = rd32(b, sh + 24), entsize = rd32(b, sh + 36);
            if (link >= shnum || entsize < 16 || !fits(b, sym_off, sym_size)) continue;
            size_t str_sh = shoff + size_t(link) * shentsize;
            uint32_t str_off = rd32(b, str_sh + 16), str_size = rd32(b, str_sh + 20);
            if (!fits(b, str_off, str_size)) continue;
            for (uint32_t s = 0; s + entsize <= sym_size; s += entsize) {
                uint32_t name = rd32(b, sym_off + s);
                if (name >= str_size) continue;
                const char *sym_name = reinterpret_cast<const char *>(&b[str_off + name]);
                size_t max_len = str_size - name;
                size_t len = strnlen(sym_name, max_len);
                if (len == 6 && std::memcmp(sym_name, "tohost", 6) == 0) {
                    image.has_tohost = true;
                    image.tohost = rd32(b, sym_off + s + 4);
                } else if (len == 11 && std::memcmp(sym_name, "rvmesh_jobs", 11) == 0) {
                    image.has_jobs = true;
                    image.jobs = rd32(b, sym_off + s + 4);
                    image.jobs_bytes = rd32(b, sym_off + s + 8);
                } else if (len == 13 && std::memcmp(sym_name, "rvmesh_tables", 13) == 0) {
                    image.has_tables = true;
                    image.tables = rd32(b, sym_off + s + 4);
                    image.tables_bytes = rd32(b, sym_off + s + 8);
                } else if (len == 14 && std::memcmp(sym_name, "rvmesh_regions", 14) == 0) {
                    image.has_regions = true;
                    image.regions = rd32(b, sym_off + s + 4);
                    image.regions_bytes = rd32(b, sym_off + s + 8);
                } else if (len == 11 && std::memcmp(sym_name, "rvmesh_dump", 11) == 0) {
                    image.has_dump = true;
                    image.dump = rd32(b, sym_off + s + 4);
                    image.dump_bytes = rd32(b, sym_off + s + 8);
                }
            }
        }
    }
    return ElfStatus::ok;
}

int elf32_load_program(const char *tool, const char *ram_name, const std::string &path,
                       uint64_t ram_base, uint64_t ram_bytes, bool quiet, Elf32Image &image) {
    std::string error;
    switch (elf32_load(path, image, error)) {
    case ElfStatus::ok: break;
    case ElfStatus::cannot_read:
        std::fprintf(stderr, "%s: %s\n", tool, error.c_str());
        return kCannotRead;
    case ElfStatus::not_elf:
    case ElfStatus::malformed:
        std::fprintf(stderr, "%s: %s\n", tool, error.c_str());
        return kNotElf;
    case ElfStatus::wrong_arch:
        std::fprintf(stderr, "%s: %s\n", tool, error.c_str());
        return kWrongArch;
    }
    return elf32_check_program(tool, ram_name, path, ram_base, ram_bytes, quiet, image);
}

int elf32_check_program(const char *tool, const char *ram_name, const std::string &path,
                        uint64_t ram_base, uint64_t ram_bytes, bool quiet, const Elf32Image &image) {
    for (size_t i = 0; i < image.segments.size(); ++i) {
        const Elf32Segment &seg = image.segments[i];
        uint64_t start = seg.paddr, end = uint64_t(seg.paddr) + seg.memsz;
        if (end > (1ull << 32)) {
            std::fprintf(stderr,
                         "%s: %s: segment %zu at 0x%08" PRIx64 " (%" PRIu32
                         " bytes) runs past the end of the 32-bit address space (its end "
                         "0x%" PRIx64 " wraps around 2^32); the ELF is damaged: build it again "
                         "(make fw-all)\n",
                         tool, path.c_str(), i, start, seg.memsz, end);
            return kTooBig;
        }
        // Placed wrong (wholly or partly below RAM, or wholly above it), or larger than RAM
        // (which a segment reaching past both ends is).
        const bool below = start < ram_base && end <= ram_base + ram_bytes;
        const bool above = start >= ram_base + ram_bytes;
        if (below || above) {
            std::fprintf(stderr,
                         "%s: %s: segment %zu [0x%08" PRIx64 ", 0x%08" PRIx64
                         ") %s %s [0x%08" PRIx64 ", 0x%08" PRIx64
                         "); link the program at RAM_BASE 0x%08" PRIx64
                         " (linker/node.ld, make fw-all)\n",
                         tool, path.c_str(), i, start, end,
                         below ? "starts below" : "lies past the end of", ram_name, ram_base,
                         ram_base + ram_bytes, ram_base);
            return kTooBig;
        }
        if (start < ram_base || end > ram_base + ram_bytes) {
            std::fprintf(stderr,
                         "%s: %s: segment %zu [0x%08" PRIx64 ", 0x%08" PRIx64
                         ") (%" PRIu32 " bytes) does not fit in %s [0x%08" PRIx64
                         ", 0x%08" PRIx64 ") (RAM_BYTES=%" PRIu64
                         " in config.mk); make the program smaller or RAM larger\n",
                         tool, path.c_str(), i, start, end, seg.memsz, ram_name, ram_base,
                         ram_base + ram_bytes, ram_bytes);
            return kTooBig;
        }
    }
    if (!quiet && !image.has_tohost)
        std::fprintf(stderr, "%s: warning: %s has no `tohost` symbol; the run ends "
                             "only at --max-cycles\n", tool, path.c_str());
    if (!quiet && image.entry != ram_base)
        std::fprintf(stderr, "%s: warning: ELF entry 0x%08" PRIx32 " is not the reset "
                             "pc 0x%08" PRIx64 "; execution starts at the reset pc\n",
                     tool, image.entry, ram_base);
    return 0;
}

std::vector<uint32_t> elf32_ram_image(const Elf32Image &image, uint64_t ram_base, size_t ram_words) {
    std::vector<uint32_t> ram(ram_words, 0);
    for (const Elf32Segment &seg : image.segments) {
        for (size_t k = 0; k < seg.bytes.size(); ++k) {
            uint64_t offset = seg.paddr - ram_base + k;
            uint32_t &word = ram[offset / 4];
            unsigned shift = unsigned(offset % 4) * 8;
            word = (word & ~(0xffu << shift)) | (uint32_t(seg.bytes[k]) << shift);
        }
    }
    return ram;
}
