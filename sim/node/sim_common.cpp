// SPDX-License-Identifier: ISC
// See sim_common.h.
#include "sim_common.h"

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>

#include "elf32.h"

int sim_usage_error(const char *tool, const char *usage, const std::string &message) {
    std::fprintf(stderr, "%s: %s\n%sTry '%s --help'.\n", tool, message.c_str(), usage, tool);
    return kBadCommandLine;
}

bool sim_parse_count(const char *text, uint64_t &value, bool allow_zero) {
    if (!*text) return false;
    for (const char *p = text; *p; ++p)
        if (*p < '0' || *p > '9') return false;
    errno = 0;
    char *end = nullptr;
    value = std::strtoull(text, &end, 10);
    return errno == 0 && *end == '\0' && (allow_zero || value > 0);
}

const char *sim_cause_name(uint32_t cause) {
    switch (cause) {
    case 0: return "instruction address misaligned";
    case 1: return "instruction access fault";
    case 2: return "illegal instruction";
    case 3: return "breakpoint";
    case 4: return "load address misaligned";
    case 5: return "load access fault";
    case 6: return "store address misaligned";
    case 7: return "store access fault";
    case 11: return "environment call from M-mode";
    case 0x80000007u: return "machine timer interrupt";
    case 0x8000000bu: return "machine external interrupt";
    default: return "unknown cause";
    }
}

FILE *sim_open_output(const std::string &path, std::string &error) {
    FILE *f = std::fopen(path.c_str(), "w");
    if (!f) error = "cannot write '" + path + "': " + std::strerror(errno);
    return f;
}

bool sim_close_output(FILE *f, const std::string &path, std::string &error) {
    bool ok = !std::ferror(f);
    int err = errno;
    if (std::fclose(f) != 0 || !ok) {
        if (ok) err = errno;
        error = "cannot write '" + path + "': " + std::strerror(err ? err : EIO);
        return false;
    }
    return true;
}

bool sim_check_writable(const std::string &path, std::string &error) {
    int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0666);
    if (fd >= 0) {                       // it did not exist: leave nothing behind
        close(fd);
        unlink(path.c_str());
        return true;
    }
    if (errno == EEXIST && (fd = open(path.c_str(), O_WRONLY)) >= 0) {   // kept as it is
        close(fd);
        return true;
    }
    error = "cannot write '" + path + "': " + std::strerror(errno);
    return false;
}

void SimRam::read_bytes(size_t offset, size_t n, uint8_t *out) const {
    for (size_t i = 0; i < n; ++i) {
        size_t at = offset + i;
        out[i] = uint8_t(word(at / 4) >> (8 * (at % 4)));
    }
}

void SimRam::write_words(size_t first, const uint32_t *image, size_t n) {
    for (size_t i = 0; i < n; ++i) set_word(first + i, image[i]);
}

bool SimArgs::next() {
    if (++i_ >= argc_) return false;
    name_ = argv_[i_];
    value_.clear();
    has_inline_ = false;
    size_t eq = name_.find('=');
    if (name_.rfind("--", 0) == 0 && eq != std::string::npos) {
        value_ = name_.substr(eq + 1);
        name_ = name_.substr(0, eq);
        has_inline_ = true;
    }
    return true;
}

bool SimArgs::take_value() {
    if (has_inline_) return true;
    if (i_ + 1 >= argc_) return false;
    value_ = argv_[++i_];
    return true;
}

SimOption sim_common_option(SimArgs &args, SimOptions &options, const char *xrand_target,
                            std::string &error) {
    const std::string &arg = args.name();
    if (arg == "--quiet" && !args.has_inline()) {
        options.quiet = true;
    } else if (arg == "--elf") {
        if (!args.take_value() || args.value().empty()) {
            error = "--elf needs a file name: --elf FILE";
            return SimOption::bad;
        }
        options.elf_path = args.value();
    } else if (arg == "--trace") {
        if (!args.take_value() || args.value().empty()) {
            error = "--trace needs a file name: --trace FILE.fst";
            return SimOption::bad;
        }
        options.trace_path = args.value();
    } else if (arg == "--x-seed") {
        if (!sim_xrand_model) {
            error = std::string("--x-seed needs a model built with random initial values: make ") + xrand_target;
            return SimOption::bad;
        }
        if (!args.take_value() || !sim_parse_count(args.value().c_str(), options.x_seed, false) ||
            options.x_seed > 0x7fffffffu) {
            error = "--x-seed takes a number 1..2147483647, not '" + args.value() + "'";
            return SimOption::bad;
        }
    } else if (arg == "--max-cycles") {
        if (!args.take_value()) {
            error = "--max-cycles needs a number: --max-cycles N";
            return SimOption::bad;
        }
        if (!sim_parse_count(args.value().c_str(), options.max_cycles, false)) {
            error = "--max-cycles takes a positive decimal number, not '" + args.value() + "'";
            return SimOption::bad;
        }
    } else {
        return SimOption::other;
    }
    return SimOption::taken;
}

std::string SimTraps::halt_reason() const {
    char text[400];
    std::snprintf(text, sizeof text,
                  "core halted: the trap handler's first instruction at 0x%08" PRIx32
                  " raised mcause %" PRIu32 " (%s, mtval 0x%08" PRIx32 "); is mtvec set?",
                  last_pc, last_cause, sim_cause_name(last_cause), last_tval);
    std::string reason = text;
    if (count >= 2) {
        std::snprintf(text, sizeof text,
                      " (it was entered for mcause %" PRIu32 " (%s) at pc 0x%08" PRIx32 ")",
                      prev_cause, sim_cause_name(prev_cause), prev_pc);
        reason += text;
    }
    return reason;
}
