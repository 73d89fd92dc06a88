// What node-sim and mesh-sim share besides the ELF loader: command-line number parsing,
// the usage error, the check that an output file can be written, and the names of trap causes.
#ifndef RVMESH_SIM_COMMON_H
#define RVMESH_SIM_COMMON_H

#include <cstdint>
#include <string>

// Prints "<tool>: <message>", the usage text and a hint to stderr; returns kBadCommandLine.
int sim_usage_error(const char *tool, const char *usage, const std::string &message);
// A decimal count (digits only, no sign); zero only when allow_zero.
bool sim_parse_count(const char *text, uint64_t &value, bool allow_zero);
// Whether `path` can be written, found before any work is done: an existing file is opened
// for writing and left as it is, a new one is created and removed again (so a refusal
// later leaves nothing behind). False with "cannot write '<path>': <errno text>" in `error`.
bool sim_check_writable(const std::string &path, std::string &error);
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

#endif
