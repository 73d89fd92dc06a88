// What node-sim and mesh-sim share besides the ELF loader: command-line number parsing,
// the usage error, the check that an output file can be written, and the names of trap causes.
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
    // Finds the banks of the node_ram instance `scope` (e.g. "TOP.node_top.ram"); false with
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
