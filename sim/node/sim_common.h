/* SPDX-License-Identifier: ISC */
// What node-sim and mesh-sim share besides the ELF loader (elf32.h) and the cycle loop
// (sim_run.h): the command line (its parser, the options both take, number parsing, the
// usage error), the check that an output file can be written, trap bookkeeping and the
// names of trap causes.
#ifndef RVMESH_SIM_COMMON_H
#define RVMESH_SIM_COMMON_H

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

// Prints "<tool>: <message>", the usage text and a hint to stderr; returns kBadCommandLine.
int sim_usage_error(const char *tool, const char *usage, const std::string &message);
// A decimal count (digits only, no sign); zero only when allow_zero.
bool sim_parse_count(const char *text, uint64_t &value, bool allow_zero);
// Whether `path` can be written, found before any work is done: an existing file is opened
// for writing and left as it is, a new one is created and removed again (so a refusal
// later leaves nothing behind). False with "cannot write '<path>': <errno text>" in `error`.
bool sim_check_writable(const std::string &path, std::string &error);
// An output file opened for writing, or null with "cannot write '<path>': <errno text>" in
// `error`; and its close, which reports any write that failed on the way (disk full) the
// same way.
FILE *sim_open_output(const std::string &path, std::string &error);
bool sim_close_output(FILE *f, const std::string &path, std::string &error);
// mcause as words ("load access fault", ...).
const char *sim_cause_name(uint32_t cause);

// The command line, one argument at a time: "--name value" or "--name=value".
class SimArgs {
public:
    SimArgs(int argc, char **argv) : argc_(argc), argv_(argv) {}
    // the next argument (false at the end): its name, and its value if given inline
    bool next();
    const std::string &name() const { return name_; }
    bool has_inline() const { return has_inline_; }
    const char *raw() const { return argv_[i_]; }   // the argument as given
    // the value: the inline one, else the next argument (false: there is none)
    bool take_value();
    const std::string &value() const { return value_; }

private:
    int argc_;
    char **argv_;
    int i_ = 0;
    std::string name_, value_;
    bool has_inline_ = false;
};

// The options node-sim and mesh-sim both take (see their --help):
//   --elf FILE, --max-cycles N, --trace FILE.fst, --x-seed N (xrand models), --quiet
const uint64_t kSimDefaultMaxCycles = 100000000ull;
struct SimOptions {
    std::string elf_path, trace_path;
    uint64_t max_cycles = kSimDefaultMaxCycles;
    uint64_t x_seed = 1;
    bool quiet = false;
};
enum class SimOption { other, taken, bad };
// The current argument of `args` if it is one of those: taken (stored in `options`), bad
// (`error` says why; `xrand_target` names the make target of an xrand model for --x-seed),
// or other (not one of them: the tool's own).
SimOption sim_common_option(SimArgs &args, SimOptions &options, const char *xrand_target,
                            std::string &error);

// A core's traps as the harnesses follow them (trap_valid, trap_cause, trap_pc, trap_tval),
// for the message when it halts.
struct SimTraps {
    uint32_t last_cause = 0, last_pc = 0, last_tval = 0;   // the latest trap raised
    uint32_t prev_cause = 0, prev_pc = 0;                  // the one before it
    uint64_t count = 0;
    void record(uint32_t cause, uint32_t pc, uint32_t tval) {
        ++count;
        prev_cause = last_cause;
        prev_pc = last_pc;
        last_cause = cause;
        last_pc = pc;
        last_tval = tval;
    }
    // "core halted: the trap handler's first instruction at 0x... raised mcause N (...);
    // is mtvec set? (it was entered for mcause M (...) at pc 0x...)"
    std::string halt_reason() const;
};

// Models built with random initial values (Verilator --x-initial unique --x-assign unique,
// -DRVMESH_XRAND: node-sim-xrand, mesh-sim-*-xrand) start every register from a random value;
// the others from zero. (The harnesses then load RAM with the program and zeros, as a
// bitstream initialises block RAM.)
#ifdef RVMESH_XRAND
const bool sim_xrand_model = true;
#else
const bool sim_xrand_model = false;
#endif
class VerilatedContext;
// Before the model is built: in an xrand model, random initial values from `seed` (>= 1).
void sim_random_initial_values(VerilatedContext &context, uint64_t seed);

// A node's RAM as the harnesses see it: node_ram (rtl/core/node_ram.v) is LINE_WORDS banks
// of words interleaved by word index (word w in bank w % LINE_WORDS at w / LINE_WORDS), each
// a public array `mem` in scope <ram>.bank[k]. Word and byte access by RAM offset.
class SimRam {
public:
    // Finds the banks of the node_ram instance `scope` (e.g. "TOP.node_top.glue.ram"); false with
    // a message when they are missing or not words / line_words entries each.
    bool attach(VerilatedContext &context, const std::string &scope, size_t words, unsigned line_words,
                std::string &error);
    size_t words() const { return words_; }
    uint32_t word(size_t w) const { return banks_[w % line_][w / line_]; }
    void set_word(size_t w, uint32_t value) { banks_[w % line_][w / line_] = value; }
    // bytes [offset, offset + n) of the RAM (little endian words)
    void read_bytes(size_t offset, size_t n, uint8_t *out) const;
    // words [first, first + n) of the RAM, from an image of words
    void write_words(size_t first, const uint32_t *image, size_t n);

private:
    std::vector<uint32_t *> banks_;
    unsigned line_ = 1;
    size_t words_ = 0;
};

#endif
