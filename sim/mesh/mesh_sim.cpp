// SPDX-License-Identifier: ISC
// mesh-sim: a whole rvmesh machine (rtl/tile/mesh_top: tiles of core + RAM + NI + router)
// simulated by Verilator.
//
// Loads one RV32IM ELF into every node's RAM, runs all nodes from reset, prints each node's
// console output line by line prefixed with its coordinates, and stops when every node has
// stored (status << 1) | 1 to its `tohost` word. See `mesh-sim --help` and sim/mesh/README.md.
#include <verilated.h>

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

#include "Vmesh_top.h"
#include "verilated_syms.h"
#include "elf32.h"
#include "sim_common.h"
#include "sim_run.h"
#include "mesh_jobs.h"
#include "mesh_faults.h"
#include "mesh_program.h"
#include "mesh_view.h"

#if !defined(RVMESH_RAM_BASE) || !defined(MESH_SIZE_X) || !defined(MESH_DIMS) || !defined(MESH_VCS) || \
    !defined(MESH_GUARD)
#error "build with -DRVMESH_RAM_BASE, -DRVMESH_RAM_BYTES, -DMESH_DIMS, -DMESH_SIZE_X/Y/Z, -DMESH_TORUS, -DMESH_VCS, -DMESH_GUARD (sim/mesh/mesh.mk)"
#endif

namespace {

const uint64_t kRamBase = RVMESH_RAM_BASE;
const uint64_t kRamBytes = RVMESH_RAM_BYTES;
const unsigned kLineWords = RVMESH_LINE_WORDS;   // the RAM's banks (node_ram LINE_WORDS)
const int kDims = MESH_DIMS;
const int kSize[3] = {MESH_SIZE_X, MESH_SIZE_Y, MESH_SIZE_Z};
const bool kTorus = MESH_TORUS != 0;
const int kNodes = MESH_SIZE_X * MESH_SIZE_Y * MESH_SIZE_Z;
const int kPorts = 2 * MESH_DIMS;
const int kVcs = MESH_VCS;            // virtual channels per link (mesh_top's VCS)
const int kVcBits = kVcs <= 2 ? 1 : kVcs <= 4 ? 2 : 3;   // mesh_top's link_vc bits per link
const bool kGuard = MESH_GUARD != 0;  // every link protected (mesh_top GUARD = 1)
const int kLinkStalled = 128;         // exit status: --link-timeout found a stalled link (or a flit was dropped)
const int kNodeStopped = 129;         // exit status: a node --stop-node stopped never exited
// --stop-node: with a node stopped, a machine where no flit moves and no node exits for this
// many cycles waits for it for ever (longer than the collectives' own timeout, about 100,000
// cycles, so that the nodes that wait on it name their port first)
const uint64_t kStopQuiet = 200000;
const size_t kMaxDeadLinks = 16;
const uint64_t kDefaultProgress = 10000000ull;
// cycles per step and per flit of the collectives firmware (sim/mesh/README.md, "Model")
const CostModel kDefaultModel = {413.0, 118.0, 0.98};

const char kUsage[] =
    "usage: mesh-sim --elf FILE [--job TABLES:BYTES[:SEED]]... [--report FILE.json] [--junit FILE.xml]\n"
    "                [--dump FILE] [--link-svg FILE.svg] [--model A,W,F] [--no-bounds] [--max-cycles N]\n"
    "                [--x-seed N]\n"
    "                [--trace FILE.fst] [--progress N] [--links] [--pc-trace N:FILE] [--quiet]\n"
    "                [--shape XxY[xZ]] [--torus|--mesh] [--help]\n"
    "                [--view FILE.html] [--view-trace FILE.json] [--view-hops N]\n"
    "                [--dead-link X,Y[,Z]:P[@CYCLE]]... [--link-timeout N] [--flip-rate P] [--fault-seed N]\n"
    "                [--drop-flit X,Y[,Z]:P@CYCLE]... [--stall-link X,Y[,Z]:P@CYCLE[+N]]...\n"
    "                [--stop-node X,Y[,Z]@CYCLE]...\n";

std::string shape_name() {
    char text[80];
    if (kDims == 3)
        std::snprintf(text, sizeof text, "%dx%dx%d %s", kSize[0], kSize[1], kSize[2],
                      kTorus ? "torus" : "mesh");
    else
        std::snprintf(text, sizeof text, "%dx%d %s", kSize[0], kSize[1],
                      kTorus ? "torus" : "mesh");
    return text;
}

std::string node_name(int n) {
    char text[40];
    int x = n % kSize[0], y = (n / kSize[0]) % kSize[1], z = n / (kSize[0] * kSize[1]);
    if (kDims == 3)
        std::snprintf(text, sizeof text, "[%d,%d,%d]", x, y, z);
    else
        std::snprintf(text, sizeof text, "[%d,%d]", x, y);
    return text;
}

// "1,2" (schedgen's form of a node)
std::string coord_list(int n) {
    std::string name = node_name(n);
    return name.substr(1, name.size() - 2);
}

// "[1,2]+y": output link k of node n
std::string link_name(int n, int k) {
    static const char *const kDir[] = {"+x", "-x", "+y", "-y", "+z", "-z"};
    return node_name(n) + kDir[k];
}

// "[1,1]+x (into port 1 of [2,1])": the wire into port `port` of `node`, fed by `peer`
std::string wire_name(const DeadLink &f) {
    return link_name(f.peer, f.port ^ 1) + " (into port " + std::to_string(f.port) + " of " + node_name(f.node) + ")";
}

void print_help() {
    std::printf(
        "%s"
        "\n"
        "Simulates the rvmesh machine built into this binary: a %s of %d tiles\n"
        "(RV32IM core, %" PRIu64 " bytes of RAM at 0x%08" PRIx64 ", network interface, router),\n"
        "every node running the ELF program FILE from reset.\n"
        "\n"
        "  --elf FILE        RV32 ELF executable; its PT_LOAD segments go into every node's RAM. A\n"
        "                    program of the application kit (kit/program.mk) also carries every\n"
        "                    node's tables: checked against this machine before reset (a program\n"
        "                    built for another shape is refused), each node's written into its RAM\n"
        "  --max-cycles N    stop after N clock cycles (default %" PRIu64 ")\n"
        "  --trace FILE.fst  write an FST waveform of the whole run (view with gtkwave)\n"
        "  --progress N      a progress line on stderr every N cycles (default %" PRIu64
        "; 0: none)\n"
        "  --links           print the flits carried by every link at the end (stdout)\n"
        "  --pc-trace N:FILE write \"cycle pc\" (decimal, hex) to FILE for every instruction node N\n"
        "                    retires: a profile of its firmware (addr2line -f -e the ELF)\n"
        "  --job T:BYTES[:SEED]  run a collective: T is a `schedgen --tables` file for this\n"
        "                    shape, BYTES the message (block) size; repeat for more jobs, run in\n"
        "                    order. The program must define rvmesh_jobs (firmware/coll/coll_jobs.h,\n"
        "                    e.g. firmware/apps/mesh/collectives.c). After each job every node's\n"
        "                    result buffer is checked byte for byte; a table of cycles follows\n"
        "  --report FILE.json  the run: per node its exit status, cycles, instructions, console\n"
        "                    and region timers; with --job also the jobs' results (cycles, model,\n"
        "                    lower bound, flits per link)\n"
        "  --junit FILE.xml  the run as JUnit XML for a CI: a test case per node (failed: a non-zero\n"
        "                    exit, or no exit), and one per --job\n"
        "  --link-svg FILE.svg flits per link of every job, one panel per job\n"
        "  --dump FILE       after the run, every node's bytes of the program's symbol rvmesh_dump\n"
        "                    (read from its RAM) in one file (format: sim/mesh/mesh_program.h)\n"
        "  --model A,W,F     cost model: a step costs A cycles + W per worm + F per flit of its\n"
        "                    busiest node (default %.0f,%.0f,%.2f, fitted by make bench-mesh)\n"
        "  --no-bounds       do not fail a job that took fewer cycles than its all-port or RAM-port\n"
        "                    bound (by default such a job fails: the bound or the measurement is\n"
        "                    wrong); to look at the results of a run whose timing is known to be off\n"
        "  --x-seed N        (mesh-sim-*-xrand only) every register of every tile starts from a\n"
        "                    random value drawn from seed N (1..2147483647) instead of zero, so one\n"
        "                    missing from reset shows (RAM holds the program and zeros); default 1\n"
        "  --quiet           no summary, progress or warnings on stderr\n"
        "  --shape XxY[xZ], --torus, --mesh  the machine wanted: this binary's shape goes on;\n"
        "                    another runs mesh-sim-<XxY[xZ]><t|m> from this binary's folder\n"
        "                    (make mesh-sim-5x5t, ...), or says how to build it\n"
        "  --view FILE.html  a replay of the run: one self-contained page (no network access) that\n"
        "                    draws the machine, its links coloured by load and its worms moving,\n"
        "                    cycle by cycle, with the schedule step, a heat map of link load over\n"
        "                    time and every node's counters (sim/mesh/README.md, \"Replay viewer\")\n"
        "  --view-trace FILE.json  the same trace alone, as JSON\n"
        "  --view-hops N     worm hops the view records at most (default 2000000); past them it\n"
        "                    keeps the flits per link only\n"
        "  --dead-link X,Y[,Z]:P[@CYCLE]  pull a cable: the one leaving node X,Y[,Z] by port P (2 x\n"
        "                    dimension, + 1 for the - side), both ways, from CYCLE on (default 0:\n"
        "                    from reset); its wires read 0 (no flit, no credit). Repeatable (16).\n"
        "                    schedgen --dead-link X,Y:P writes schedules that avoid it\n"
        "  --link-timeout N  watch every link's credits: a link whose flits wait N cycles for a\n"
        "                    credit (a dead cable's never get one) ends the run, naming the link\n"
        "                    and the schedgen option that avoids it (exit 128). 0 (default): off;\n"
        "                    on a healthy machine credits come back within a few hundred cycles\n"
        "                    in the collectives measured (sim/mesh/README.md, \"Link faults\")\n"
        "  --flip-rate P     (a model with protected links: make mesh-sim-4x4t-guard) damage each\n"
        "                    flit on a link with probability P (0 <= P < 1, e.g. 1e-4); the links\n"
        "                    detect it (CRC-8, sequence number) and send it again (go-back-N).\n"
        "                    The summary adds link-errors= retries= flips= (all links)\n"
        "  --fault-seed N    the seed of the damage (default 1): the same seed, the same run\n"
        "  --drop-flit X,Y[,Z]:P@CYCLE  the first flit on the wire into port P of node X,Y[,Z] at or\n"
        "                    after CYCLE vanishes. Plain links: lost (a worm damaged, a credit gone);\n"
        "                    the run fails naming it (exit 128 if nothing else failed). Protected\n"
        "                    links (mesh-sim-4x4t-guard): the guard sees the gap and sends it again.\n"
        "                    Repeatable (16)\n"
        "  --stall-link X,Y[,Z]:P@CYCLE[+N]  from CYCLE, for N cycles (without +N: for ever), the\n"
        "                    credits port P of node X,Y[,Z] returns to the sender on that wire are\n"
        "                    held back, then released (none lost): the sender's flits wait.\n"
        "                    --link-timeout names a link stalled for good, its port and VCs.\n"
        "                    Repeatable (16)\n"
        "  --stop-node X,Y[,Z]@CYCLE  node X,Y[,Z]'s core stops at its first load or store from\n"
        "                    CYCLE on, as a hung program's (its NI and router go on). The run\n"
        "                    ends when every other node has exited, or no flit has moved and no\n"
        "                    node exited for 200000 cycles, naming it (exit 129).\n"
        "                    Repeatable (16)\n"
        "  --help            this text\n"
        "\n"
        "Console output (byte stores to 0x10000000) goes to stdout, one line at a time,\n"
        "prefixed with the node's coordinates: [x,y] text. A node ends by storing\n"
        "(status << 1) | 1 to its `tohost` symbol; the run ends when every node has. stderr\n"
        "then gets\n"
        "  mesh-sim: <shape>: <n> nodes exit=<status> cycles=<C> instret=<I> flits=<F> ...\n"
        "\n"
        "Exit status:\n"
        "  0        every node exited with status 0\n"
        "  1..119   the status of the first node that exited non-zero (named on stderr)\n"
        "  120      bad command line, also: a --job whose BYTES or SEED is not a decimal\n"
        "           number (or BYTES is 0), a tables file that is not one (damaged: its\n"
        "           checksum does not match; truncated; empty) or is for another shape,\n"
        "           --link-svg without --job, a program built for another shape (its\n"
        "           tables say which) or whose tables are damaged\n"
        "  121      cannot open or read the ELF file, or cannot write an output file\n"
        "           (--report, --junit, --link-svg, --pc-trace, --trace: all checked before the run)\n"
        "  122      not an ELF file, or a malformed one (empty, truncated, headers or a\n"
        "           segment beyond the end of the file, no loadable segment)\n"
        "  123      ELF for another architecture (not 32-bit little-endian RISC-V)\n"
        "  124      a segment does not fit in a node's RAM (too big, below RAM_BASE or\n"
        "           above RAM, or wrapping around 2^32)\n"
        "  125      ran past --max-cycles (stderr names the nodes still running)\n"
        "  126      a core halted: a trap was raised by the first instruction of the\n"
        "           trap handler (e.g. a trap while mtvec is 0)\n"
        "  127      --job: a collective's delivery check failed, a job took fewer cycles than\n"
        "           one of its bounds, or a job never ended\n"
        "  128      --link-timeout: a link's flits waited that long for a credit (stderr names\n"
        "           the link, port and VCs); or a flit --drop-flit dropped on links that are not\n"
        "           protected, in a run that otherwise ended well (it was lost)\n"
        "  129      --stop-node: a stopped node never exited (the others did, or the run\n"
        "           ended otherwise: stderr names it)\n",
        kUsage, shape_name().c_str(), kNodes, kRamBytes, kRamBase, kSimDefaultMaxCycles,
        kDefaultProgress, kDefaultModel.alpha, kDefaultModel.gamma, kDefaultModel.beta);
}

int usage_error(const std::string &message) { return sim_usage_error("mesh-sim", kUsage, message); }

// The variant name of a shape, as sim/mesh/mesh.mk spells it: "5x5t", "3x3x3t", "4x4m".
std::string variant_name(const int size[3], int dims, bool torus) {
    std::string name = std::to_string(size[0]) + "x" + std::to_string(size[1]);
    if (dims == 3) name += "x" + std::to_string(size[2]);
    return name + (torus ? "t" : "m");
}

// --shape/--torus/--mesh asked for another machine than this binary's: run the binary built
// for it (mesh-sim-<variant> beside this one) with the same arguments, or say how to build it.
int run_other_shape(char **argv, const int size[3], int dims, bool torus) {
    const std::string variant = variant_name(size, dims, torus);
    std::string self = argv[0];
    size_t slash = self.rfind('/');
    std::string dir = slash == std::string::npos ? "." : self.substr(0, slash);
    std::string other = dir + "/mesh-sim-" + variant;
    std::string base = slash == std::string::npos ? self : self.substr(slash + 1);
    if (base != "mesh-sim-" + variant && access(other.c_str(), X_OK) == 0) {
        execv(other.c_str(), argv);
        std::fprintf(stderr, "mesh-sim: cannot run %s: %s\n", other.c_str(), std::strerror(errno));
        return kBadCommandLine;
    }
    std::string shape = std::to_string(size[0]) + "x" + std::to_string(size[1]);
    if (dims == 3) shape += "x" + std::to_string(size[2]);
    std::fprintf(stderr,
                 "mesh-sim: this binary simulates a %s; a %s %s needs a model of its own (the shape is a "
                 "Verilog parameter): build it with `make mesh-sim-%s` if MESH_SIM_VARIANTS in "
                 "sim/mesh/mesh.mk lists %s, else with `make mesh-sim MESH_DIMS=%d MESH_X=%d MESH_Y=%d "
                 "MESH_Z=%d MESH_TORUS=%d` (which rebuilds build/bin/mesh-sim for it), then run again\n",
                 shape_name().c_str(), shape.c_str(), torus ? "torus" : "mesh", variant.c_str(),
                 variant.c_str(), dims, size[0], size[1], dims == 3 ? size[2] : 1, torus ? 1 : 0);
    return kBadCommandLine;
}

// Bits of Verilator's port types: up to 64 bits an integer, beyond that a VlWide.
inline uint32_t bits32(uint64_t value, int lsb) { return uint32_t(value >> lsb); }
template <std::size_t Words>
inline uint32_t bits32(const VlWide<Words> &value, int lsb) {
    int word = lsb / 32, shift = lsb % 32;
    uint64_t lo = value[word];
    uint64_t hi = (size_t(word) + 1 < Words) ? uint64_t(value[word + 1]) : 0;
    return uint32_t(((hi << 32) | lo) >> shift);
}
inline bool bit(uint64_t value, int i) { return (value >> i) & 1u; }
template <std::size_t Words>
inline bool bit(const VlWide<Words> &value, int i) { return (value[i / 32] >> (i % 32)) & 1u; }
template <class Word>
inline void set_bit(Word &value, int i) { value = Word(value | (Word(1) << i)); }
template <class Word>
inline void clear_all(Word &value) { value = 0; }
template <std::size_t Words>
inline void clear_all(VlWide<Words> &value) {
    for (std::size_t w = 0; w < Words; ++w) value[w] = 0;
}
template <std::size_t Words>
inline void set_bit(VlWide<Words> &value, int i) { value[i / 32] |= 1u << (i % 32); }
inline bool any(uint64_t value) { return value != 0; }
template <std::size_t Words>
inline bool any(const VlWide<Words> &value) {
    for (std::size_t w = 0; w < Words; ++w)
        if (value[w]) return true;
    return false;
}

const size_t kConsoleKeep = 256 * 1024;   // console bytes kept per node for --report / --junit

struct Node {
    std::string line;          // console text not yet ended by a newline
    std::string console;       // every line printed (up to kConsoleKeep bytes), for the reports
    uint64_t console_dropped = 0;
    bool exited = false;
    uint64_t exit_code = 0;
    uint64_t exit_cycle = 0;
    uint64_t instret = 0;
    SimTraps traps;
};

void flush_line(int n, Node &node) {
    std::printf("%s %s\n", node_name(n).c_str(), node.line.c_str());
    if (node.console.size() + node.line.size() + 1 <= kConsoleKeep)
        node.console += node.line + "\n";
    else
        node.console_dropped += node.line.size() + 1;
    node.line.clear();
}

}  // namespace

int main(int argc, char **argv) {
    SimOptions options;
    uint64_t progress = kDefaultProgress;
    bool show_links = false, check_bounds = true;
    std::FILE *pc_trace = nullptr;
    std::string pc_trace_path;
    int pc_trace_node = 0;
    std::vector<JobSpec> job_specs;
    std::string report_path, svg_path, junit_path, dump_path;
    CostModel model = kDefaultModel;
    int want_size[3] = {kSize[0], kSize[1], kSize[2]}, want_dims = kDims;
    std::string view_path, view_trace_path;   // --view, --view-trace
    uint64_t view_hops = 2000000;
    bool want_torus = kTorus;
    std::vector<std::string> dead_link_texts;   // --dead-link, parsed once the options are read
    std::vector<std::string> fault_texts[3];     // --drop-flit, --stall-link, --stop-node, likewise
    uint64_t link_timeout = 0;                 // --link-timeout (0: off)
    uint32_t flip_rate = 0;                    // --flip-rate, as a fraction of 2^32
    uint64_t fault_seed = 1;                   // --fault-seed

    SimArgs args(argc, argv);
    while (args.next()) {
        const std::string &arg = args.name();
        const std::string &value = args.value();
        const bool has_inline = args.has_inline();
        auto take_value = [&]() { return args.take_value(); };
        std::string common_error;
        if (arg == "--help" || arg == "-h") {
            print_help();
            return 0;
        }
        const SimOption common = sim_common_option(args, options, "mesh-sim-3x3x3t-xrand", common_error);
        if (common == SimOption::bad) return usage_error(common_error);
        if (common == SimOption::taken) {
            if (arg == "--trace" && !VM_TRACE)
                return usage_error("--trace: this mesh-sim was built without waveform support; the default "
                                   "build (make mesh-sim, config.mk's shape) has it");
        } else if (arg == "--no-bounds" && !has_inline) {
            check_bounds = false;
        } else if (arg == "--links" && !has_inline) {
            show_links = true;
        } else if ((arg == "--torus" || arg == "--mesh") && !has_inline) {
            want_torus = arg == "--torus";
        } else if (arg == "--shape") {
            if (!take_value()) return usage_error("--shape needs XxY or XxYxZ, e.g. --shape 5x5");
            int v[3] = {1, 1, 1}, n = 0;
            const char *p = value.c_str();
            bool ok = true;
            for (;;) {                                  // sides 2..255 joined by 'x'
                char *end = nullptr;
                long side = (n < 3 && *p >= '0' && *p <= '9') ? std::strtol(p, &end, 10) : 0;
                if (side < 2 || side > 255) { ok = false; break; }
                v[n++] = int(side);
                if (*end == '\0') break;
                if (*end != 'x') { ok = false; break; }
                p = end + 1;
            }
            if (!ok || n < 2)
                return usage_error("--shape takes XxY or XxYxZ with sides 2..255, not '" + value + "'");
            for (int d = 0; d < 3; ++d) want_size[d] = v[d];
            want_dims = n;
        } else if (arg == "--job") {
            JobSpec spec;
            std::string error;
            if (!take_value() || value.empty())
                return usage_error("--job needs TABLES:BYTES[:SEED]");
            if (!parse_job_spec(value, spec, error)) return usage_error(error);
            job_specs.push_back(spec);
        } else if (arg == "--pc-trace") {
            uint64_t n = 0;
            size_t colon = std::string::npos;
            if (!take_value() || (colon = value.find(':')) == std::string::npos ||
                !sim_parse_count(value.substr(0, colon).c_str(), n, true) || n >= uint64_t(kNodes) ||
                colon + 1 == value.size())
                return usage_error("--pc-trace takes NODE:FILE (NODE an index below " + std::to_string(kNodes) + ")");
            pc_trace_node = int(n);
            pc_trace_path = value.substr(colon + 1);   // opened once every check has passed
        } else if (arg == "--report") {
            if (!take_value() || value.empty())
                return usage_error("--report needs a file name: --report FILE.json");
            report_path = value;
        } else if (arg == "--junit") {
            if (!take_value() || value.empty())
                return usage_error("--junit needs a file name: --junit FILE.xml");
            junit_path = value;
        } else if (arg == "--dump") {
            if (!take_value() || value.empty())
                return usage_error("--dump needs a file name: --dump FILE");
            dump_path = value;
        } else if (arg == "--link-svg") {
            if (!take_value() || value.empty())
                return usage_error("--link-svg needs a file name: --link-svg FILE.svg");
            svg_path = value;
        } else if (arg == "--model") {
            if (!take_value()) return usage_error("--model needs A,W,F");
            double v[3];
            const char *p = value.c_str();
            bool ok = true;
            for (int k = 0; k < 3 && ok; ++k) {
                char *end = nullptr;
                v[k] = std::strtod(p, &end);
                ok = end != p && v[k] >= 0 && *end == (k < 2 ? ',' : '\0');
                p = end + 1;
            }
            if (!ok)
                return usage_error("--model takes three numbers A,W,F (cycles per step, per worm, per flit), "
                                   "not '" + value + "'");
            model.alpha = v[0];
            model.gamma = v[1];
            model.beta = v[2];
        } else if (arg == "--progress") {
            if (!take_value())
                return usage_error("--progress needs a number: --progress N");
            if (!sim_parse_count(value.c_str(), progress, true))
                return usage_error("--progress takes a decimal number of cycles, not '" +
                                   value + "'");
        } else if (arg == "--view" || arg == "--view-trace") {   // the replay viewer (mesh_view.h)
            if (!take_value() || value.empty())
                return usage_error(arg + " needs a file name: " + arg + (arg == "--view" ? " FILE.html" : " FILE.json"));
            (arg == "--view" ? view_path : view_trace_path) = value;
        } else if (arg == "--dead-link") {
            if (!take_value() || value.empty())
                return usage_error("--dead-link needs X,Y[,Z]:P[@CYCLE], e.g. --dead-link 1,1:0");
            if (dead_link_texts.size() == kMaxDeadLinks)
                return usage_error("--dead-link: at most " + std::to_string(kMaxDeadLinks) + " dead cables");
            dead_link_texts.push_back(value);
        } else if (arg == "--drop-flit" || arg == "--stall-link" || arg == "--stop-node") {
            const int k = arg == "--drop-flit" ? 0 : arg == "--stall-link" ? 1 : 2;
            static const char *const kForm[] = {"X,Y[,Z]:P@CYCLE, e.g. --drop-flit 1,1:0@5000",
                                                "X,Y[,Z]:P@CYCLE[+N], e.g. --stall-link 1,1:0@5000+2000",
                                                "X,Y[,Z]@CYCLE, e.g. --stop-node 1,1@5000"};
            if (!take_value() || value.empty()) return usage_error(arg + " needs " + kForm[k]);
            if (fault_texts[k].size() == kMaxDeadLinks)
                return usage_error(arg + ": at most " + std::to_string(kMaxDeadLinks) + " of them");
            fault_texts[k].push_back(value);
        } else if (arg == "--link-timeout") {
            if (!take_value() || !sim_parse_count(value.c_str(), link_timeout, true))
                return usage_error("--link-timeout takes a decimal number of cycles (0: off), not '" + value + "'");
        } else if (arg == "--flip-rate" || arg == "--fault-seed") {
            if (!kGuard)
                return usage_error(arg + ": this mesh-sim's links are not protected; a model with protected "
                                   "links is make mesh-sim-4x4t-guard (sim/mesh/mesh.mk, flag 'guard')");
            if (!take_value()) return usage_error(arg + " needs a value");
            if (arg == "--fault-seed") {
                if (!sim_parse_count(value.c_str(), fault_seed, true) || fault_seed > 0xffffffffull)
                    return usage_error("--fault-seed takes a decimal number below 2^32, not '" + value + "'");
            } else {
                char *end = nullptr;
                const double p = std::strtod(value.c_str(), &end);
                if (value.empty() || end == value.c_str() || *end != '\0' || !(p >= 0.0 && p < 1.0))
                    return usage_error("--flip-rate takes a probability per flit, 0 <= P < 1 (e.g. 1e-4), not '" +
                                       value + "'");
                flip_rate = uint32_t(p * 4294967296.0);
            }
        } else if (arg == "--view-hops") {
            if (!take_value() || !sim_parse_count(value.c_str(), view_hops, true))
                return usage_error("--view-hops takes a decimal number of worm hops, not '" + value + "'");
        } else {
            return usage_error("unknown argument '" + std::string(args.raw()) + "'");
        }
    }
    if (want_dims != kDims || want_torus != kTorus || want_size[0] != kSize[0] || want_size[1] != kSize[1] ||
        want_size[2] != kSize[2])
        return run_other_shape(argv, want_size, want_dims, want_torus);
    if (options.elf_path.empty()) return usage_error("no program given: --elf FILE is required");
    MeshShape mesh_shape;
    mesh_shape.dims = kDims;
    for (int d = 0; d < 3; ++d) mesh_shape.size[d] = kSize[d];
    mesh_shape.torus = kTorus;
    mesh_shape.nodes = kNodes;
    mesh_shape.ports = kPorts;
    std::vector<DeadLink> dead_links, drops, stalls, stops;
    for (const std::string &text : dead_link_texts) {
        DeadLink link;
        std::string error;
        if (!parse_fault(FaultKind::dead_link, "--dead-link", text, mesh_shape, link, error)) return usage_error(error);
        dead_links.push_back(link);
    }
    {
        static const char *const kOpt[] = {"--drop-flit", "--stall-link", "--stop-node"};
        static const FaultKind kKind[] = {FaultKind::drop_flit, FaultKind::stall_link, FaultKind::stop_node};
        std::vector<DeadLink> *const lists[] = {&drops, &stalls, &stops};
        for (int k = 0; k < 3; ++k)
            for (const std::string &text : fault_texts[k]) {
                DeadLink fault;
                std::string error;
                if (!parse_fault(kKind[k], kOpt[k], text, mesh_shape, fault, error)) return usage_error(error);
                lists[k]->push_back(fault);
            }
    }
    std::sort(dead_links.begin(), dead_links.end(),
              [](const DeadLink &a, const DeadLink &b) { return a.cycle < b.cycle; });
    if (job_specs.empty() && !svg_path.empty())
        return usage_error("--link-svg draws the links of jobs: give at least one --job");
    // Output files are checked now, not found unwritable after a long run; the check leaves
    // no file behind, so a refusal below writes nothing.
    {
        const std::pair<const char *, const std::string *> outputs[] = {
            {"--report", &report_path}, {"--junit", &junit_path}, {"--link-svg", &svg_path},
            {"--pc-trace", &pc_trace_path}, {"--dump", &dump_path}, {"--view", &view_path},
            {"--view-trace", &view_trace_path}};
        for (const auto &out : outputs) {
            std::string error;
            if (!out.second->empty() && !sim_check_writable(*out.second, error)) {
                std::fprintf(stderr, "mesh-sim: %s: %s; give a file in an existing folder you can "
                                     "write to\n", out.first, error.c_str());
                return kCannotRead;
            }
        }
    }

    Elf32Image image;
    if (int status = elf32_load_program("mesh-sim", "a node's RAM", options.elf_path, kRamBase, kRamBytes, options.quiet,
                                        image))
        return status;

    if (!dump_path.empty()) {
        std::string error;
        if (!mesh_check_dump(image, kRamBase, kRamBytes, error)) {
            std::fprintf(stderr, "mesh-sim: %s: %s\n", options.elf_path.c_str(), error.c_str());
            return kBadCommandLine;
        }
    }
    MeshPackage package;
    {
        std::string error;
        if (!mesh_package_load(image, mesh_shape, shape_name(), kRamBase, kRamBytes, package, error)) {
            std::fprintf(stderr, "mesh-sim: %s: %s\n", options.elf_path.c_str(), error.c_str());
            return kBadCommandLine;
        }
    }
    MeshJobs jobs(mesh_shape, node_name, link_name);
    jobs.set_model(model);
    jobs.set_check_bounds(check_bounds);
    jobs.set_line_words(kLineWords);
    jobs.set_ram_bytes(kRamBytes);
    uint32_t jobs_word = 0;
    if (!job_specs.empty()) {
        if (!image.has_jobs || image.jobs_bytes < 64 || image.jobs < kRamBase ||
            image.jobs - kRamBase + uint64_t(image.jobs_bytes) > kRamBytes || (image.jobs & 3u)) {
            std::fprintf(stderr, "mesh-sim: --job: %s has no jobs area (a word-aligned `rvmesh_jobs` array in RAM): "
                                 "run a program that defines one with COLL_JOBS_DEFINE, such as "
                                 "firmware/apps/mesh/collectives.c\n", options.elf_path.c_str());
            return kBadCommandLine;
        }
        std::string error;
        if (!jobs.load(job_specs, image.jobs_bytes, error)) {
            std::fprintf(stderr, "mesh-sim: --job: %s\n", error.c_str());
            return kBadCommandLine;
        }
        jobs_word = uint32_t((image.jobs - kRamBase) / 4);
    }
    if (!pc_trace_path.empty() && !(pc_trace = std::fopen(pc_trace_path.c_str(), "w"))) {
        std::fprintf(stderr, "mesh-sim: --pc-trace: cannot write '%s': %s\n", pc_trace_path.c_str(),
                     std::strerror(errno));
        return kCannotRead;
    }

    std::setvbuf(stdout, nullptr, _IOLBF, 0);

    auto context = std::unique_ptr<VerilatedContext>(new VerilatedContext);
    if (!options.trace_path.empty()) context->traceEverOn(true);
    sim_random_initial_values(*context, options.x_seed);
    auto top = std::unique_ptr<Vmesh_top>(new Vmesh_top(context.get()));

    // program -> every node's RAM. The RAM's banks are public in rtl/core/node_ram.v (in
    // the tile's node_core, `glue`).
    const size_t ram_words = kRamBytes / 4;
    const std::vector<uint32_t> ram_image = elf32_ram_image(image, kRamBase, ram_words);
    std::vector<SimRam> rams(static_cast<size_t>(kNodes));
    for (int n = 0; n < kNodes; ++n) {
        std::string scope_name = "TOP.mesh_top.node[" + std::to_string(n) + "].tile.glue.ram";
        std::string ram_error;
        if (!rams[size_t(n)].attach(*context, scope_name, ram_words, kLineWords, ram_error)) {
            std::fprintf(stderr, "mesh-sim: internal error: %s (make mesh-sim)\n", ram_error.c_str());
            return kCoreHalted;
        }
        rams[size_t(n)].write_words(0, ram_image.data(), ram_words);
        if (jobs.count()) {
            const std::vector<uint32_t> &area = jobs.area(n);
            rams[size_t(n)].write_words(jobs_word, area.data(), area.size());
        }
        if (package.present) {   // this node's own tables (a kit program's)
            const std::vector<uint32_t> &area = package.areas[size_t(n)];
            rams[size_t(n)].write_words(package.area_word, area.data(), area.size());
        }
    }

    SimClock<Vmesh_top> clock(*top, "mesh-sim");
    if (int status = clock.open_trace(options.trace_path)) return status;
    // --view, --view-trace: the replay viewer's trace of the run (sim/mesh/mesh_view.h)
    std::unique_ptr<MeshView> view;
    std::vector<uint8_t> view_links, view_retired;
    if (!view_path.empty() || !view_trace_path.empty()) {
        view.reset(new MeshView(mesh_shape, node_name, view_hops));
        std::string note;
        if (!view->attach(*context, note) && !options.quiet) std::fprintf(stderr, "mesh-sim: --view: %s\n", note.c_str());
        view_links.assign(size_t(kNodes) * kPorts, 0);
        view_retired.assign(size_t(kNodes), 0);
    }

    top->tohost_addr = image.has_tohost ? (image.tohost & ~3u) : 0xffffffffu;
    top->fault_seed = uint32_t(fault_seed);
    top->flip_rate = flip_rate;
    clear_all(top->link_dead);   // every cable in (the xrand models start every input random)
    clear_all(top->link_drop);   // and no other fault
    clear_all(top->link_hold);
    clear_all(top->node_stop);

    std::vector<Node> nodes(kNodes);
    std::vector<uint64_t> link_flits(size_t(kNodes) * kPorts, 0);
    size_t dead_links_cut = 0;    // --dead-link: the cables pulled so far (sorted by cycle)
    LinkWatch link_watch(kNodes * kPorts, kVcs, link_timeout);
    int stalled_link = -1;        // --link-timeout: the link found stalled
    // the credit watch also runs without --link-timeout when flits are dropped or credits held
    // (it says at the end which link lost a credit)
    const bool watch_links = link_timeout || !drops.empty() || !stalls.empty();
    std::vector<uint64_t> dropped_at(drops.size(), ~0ull);   // --drop-flit: the cycle its flit vanished
    std::vector<bool> stop_done(stops.size(), false);
    std::vector<uint64_t> stop_pc(stops.size(), 0);
    std::vector<int> stop_exited(stops.size(), 0);   // the node had exited already when its stop came
    std::vector<bool> stopped(size_t(kNodes), false);   // --stop-node: the core held, not exited then
    bool stop_end = false;        // the run ended with every node exited but the stopped ones
    bool stop_quiet = false;      // ... or with the others waiting: nothing moved for kStopQuiet cycles
    uint64_t last_activity = 0;   // the last cycle a flit moved, a node exited or a core stopped
    int exited = 0;
    int first_bad = -1;            // the first node (in time) that exited non-zero
    int status = -1;
    std::string reason;
    auto started = std::chrono::steady_clock::now();

    // The faults go in a cycle ahead: mesh_top samples its inputs at the clock edge, so what
    // is set while cycle C - 1 is looked at (or before reset's last edge, for C = 0) holds in
    // cycle C. set_faults(C): the inputs for cycle C.
    constexpr size_t kNoDrop = ~size_t(0);
    std::vector<size_t> drop_armed(size_t(kNodes) * kPorts, kNoDrop);   // per wire: the drop armed on it
    std::vector<bool> stop_set(stops.size(), false);
    auto set_faults = [&](uint64_t next) {
        // --dead-link: a cable pulled from its cycle on (its wires read 0 from then)
        while (dead_links_cut < dead_links.size() && dead_links[dead_links_cut].cycle <= next) {
            const DeadLink &cut = dead_links[dead_links_cut++];
            set_bit(top->link_dead, cut.node * kPorts + cut.port);
            set_bit(top->link_dead, cut.peer * kPorts + (cut.port ^ 1));
        }
        // --drop-flit: the first flit on its wire from its cycle on vanishes (mesh_top arms the
        // wire; two drops of one wire: the second armed once the first flit has gone)
        clear_all(top->link_drop);
        for (size_t i = 0; i < drops.size(); ++i) {
            const int in = drops[i].node * kPorts + drops[i].port;
            if (dropped_at[i] == ~0ull && drops[i].cycle <= next && drop_armed[size_t(in)] == kNoDrop) {
                set_bit(top->link_drop, in);
                drop_armed[size_t(in)] = i;
            }
        }
        // --stall-link: the credits of its wire held back from its cycle, for its span
        if (!stalls.empty()) {
            clear_all(top->link_hold);
            for (const DeadLink &st : stalls)
                if (next >= st.cycle && (st.span == 0 || next - st.cycle < st.span))
                    set_bit(top->link_hold, st.peer * kPorts + (st.port ^ 1));
        }
        // --stop-node: the core held from its cycle on
        for (size_t i = 0; i < stops.size(); ++i)
            if (!stop_set[i] && next >= stops[i].cycle) {
                stop_set[i] = true;
                set_bit(top->node_stop, stops[i].node);
            }
    };
    clock.reset_registered([&] { set_faults(0); });

    const SimEnd end = clock.run(options.max_cycles, progress, [&](uint64_t cycles) {
        // --drop-flit: the armed wire's flit vanished at the end of this cycle
        for (size_t l = 0; l < drop_armed.size(); ++l)
            if (drop_armed[l] != kNoDrop && bit(top->link_dropped, int(l))) {
                dropped_at[drop_armed[l]] = cycles;
                drop_armed[l] = kNoDrop;
            }
        // --stop-node: the core held from its cycle on (its input was set a cycle ahead)
        for (size_t i = 0; i < stops.size(); ++i)
            if (!stop_done[i] && cycles >= stops[i].cycle) {
                const int n = stops[i].node;
                stop_done[i] = true;
                last_activity = cycles;
                stop_pc[i] = bits32(top->retire_pc, n * 32);
                if (nodes[size_t(n)].exited)
                    stop_exited[i] = 1;
                else
                    stopped[size_t(n)] = true;
            }
        set_faults(cycles + 1);
        if (watch_links) {   // the credit watch (--link-timeout)
            for (int l = 0; l < kNodes * kPorts; ++l)
                link_watch.sample(cycles, l, bit(top->link_valid, l) ? 1u : 0u,
                                  bits32(top->link_vc, l * kVcBits) & ((1u << kVcBits) - 1u),
                                  bits32(top->link_credit, l * kVcs) & ((1u << kVcs) - 1u));
            if (link_timeout && (stalled_link = link_watch.stalled(cycles)) >= 0) return SimStep::ended;
        }
        // outputs of the current cycle, settled after the last rising edge
        if (any(top->console_valid))
            for (int n = 0; n < kNodes; ++n)
                if (bit(top->console_valid, n)) {
                    char c = char(bits32(top->console_data, n * 8) & 0xff);
                    if (c == '\n')
                        flush_line(n, nodes[n]);
                    else if (c != '\r')
                        nodes[n].line += c;
                }
        if (any(top->retire_valid)) {
            for (int n = 0; n < kNodes; ++n)
                if (bit(top->retire_valid, n)) ++nodes[n].instret;
            if (pc_trace && bit(top->retire_valid, pc_trace_node))
                std::fprintf(pc_trace, "%" PRIu64 " %08" PRIx32 "\n", cycles,
                             bits32(top->retire_pc, pc_trace_node * 32));
        }
        if (any(top->link_valid))
            for (int l = 0; l < kNodes * kPorts; ++l)
                if (bit(top->link_valid, l)) ++link_flits[size_t(l)];
        if (any(top->trap_valid))
            for (int n = 0; n < kNodes; ++n)
                if (bit(top->trap_valid, n)) {
                    nodes[n].traps.record(bits32(top->trap_cause, n * 32), bits32(top->trap_pc, n * 32),
                                          bits32(top->trap_tval, n * 32));
                }
        if (any(top->tohost_valid))
            for (int n = 0; n < kNodes; ++n)
                if (bit(top->tohost_valid, n) && !nodes[n].exited) {
                    Node &node = nodes[n];
                    node.exited = true;
                    node.exit_code = bits32(top->tohost_data, n * 32) >> 1;
                    node.exit_cycle = cycles + 1;
                    ++exited;
                    if (!node.line.empty()) flush_line(n, node);
                    if (node.exit_code != 0 && first_bad < 0) first_bad = n;
                }
        if (view) {   // --view: what the links and cores did this cycle
            for (int l = 0; l < kNodes * kPorts; ++l) view_links[size_t(l)] = bit(top->link_valid, l);
            for (int n = 0; n < kNodes; ++n) view_retired[size_t(n)] = bit(top->retire_valid, n);
            view->sample(cycles, view_links.data(), view_retired.data());
        }
        if (jobs.count() && !jobs.all_done()) {
            const size_t finished_before = jobs.finished();
            if (jobs.poll(rams, jobs_word, kRamBytes, uint32_t(kRamBase), link_flits, stdout) && view)
                view->job_event(cycles, finished_before, jobs.finished() == finished_before);
        }
        if (exited == kNodes) return SimStep::ended;
        if (!stops.empty()) {   // every node exited but those --stop-node stopped: they never will
            int held = 0;
            for (int n = 0; n < kNodes; ++n) held += stopped[size_t(n)] && !nodes[size_t(n)].exited ? 1 : 0;
            if (any(top->link_valid) || any(top->tohost_valid)) last_activity = cycles;
            if (held && (exited + held == kNodes || cycles - last_activity >= kStopQuiet)) {
                stop_end = true;
                stop_quiet = exited + held != kNodes;
                return SimStep::ended;
            }
        }
        return any(top->halted) ? SimStep::halted : SimStep::next;
    }, [&](uint64_t cycles) {
        if (!options.quiet) {
            double secs = std::chrono::duration<double>(
                              std::chrono::steady_clock::now() - started).count();
            std::fprintf(stderr, "mesh-sim: cycle %" PRIu64 ", %d of %d nodes exited, "
                                 "%.0f cycles/s\n",
                         cycles, exited, kNodes, secs > 0 ? double(cycles) / secs : 0.0);
        }
    });
    const uint64_t cycles = clock.cycles();
    // what the faults injected did, for the messages ("--drop-flit 2,1:1@900: ...")
    std::vector<std::string> fault_notes;
    for (size_t i = 0; i < drops.size(); ++i)
        fault_notes.push_back("--drop-flit " + drops[i].text + ": " +
                              (dropped_at[i] == ~0ull ? "no flit on " + wire_name(drops[i]) +
                                                            " from that cycle on: nothing dropped"
                                                      : "the flit on " + wire_name(drops[i]) + " at cycle " +
                                                            std::to_string(dropped_at[i]) +
                                                            (kGuard ? " dropped (a protected link: sent again)"
                                                                    : " dropped and lost")));
    for (const DeadLink &st : stalls)
        fault_notes.push_back("--stall-link " + st.text + ": the credits of " + wire_name(st) + " held back " +
                              (st.cycle >= cycles ? "(never: the run ended first)"
                               : st.span ? "for cycles " + std::to_string(st.cycle) + " to " +
                                               std::to_string(st.cycle + st.span - 1) + ", then released"
                                         : "from cycle " + std::to_string(st.cycle) + " on"));
    for (size_t i = 0; i < stops.size(); ++i) {
        char pc[40];
        std::snprintf(pc, sizeof pc, "0x%08" PRIx64, stop_pc[i]);
        fault_notes.push_back("--stop-node " + stops[i].text + ": node " + node_name(stops[i].node) +
                              (!stop_done[i]    ? " not stopped (the run ended first)"
                               : stop_exited[i] ? " had exited already"
                                                : "'s core stopped at cycle " + std::to_string(stops[i].cycle) +
                                                      " (last retired pc " + pc + ")" +
                                                      (nodes[size_t(stops[i].node)].exited ? ", then exited"
                                                                                           : ", never exited")));
    }
    if (stalled_link >= 0) {
        const int n = stalled_link / kPorts, k = stalled_link % kPorts;
        // the wire it feeds: port k ^ 1 of the node in direction k
        int c[3] = {n % kSize[0], (n / kSize[0]) % kSize[1], n / (kSize[0] * kSize[1])};
        c[k / 2] = (c[k / 2] + (k % 2 ? kSize[k / 2] - 1 : 1)) % kSize[k / 2];
        const int far = c[0] + kSize[0] * (c[1] + kSize[1] * c[2]);
        std::string vcs, cause;
        for (int v = 0; v < kVcs; ++v)
            if (uint64_t waiting = link_watch.outstanding(stalled_link, v))
                vcs += (vcs.empty() ? "" : ", ") + std::string("VC ") + std::to_string(v) + " (" +
                       std::to_string(waiting) + (waiting == 1 ? " flit)" : " flits)");
        for (const DeadLink &st : stalls)
            if (st.peer == n && (st.port ^ 1) == k)
                cause = "; its credits held back by --stall-link " + st.text;
        for (size_t i = 0; i < drops.size(); ++i)
            if (drops[i].peer == n && (drops[i].port ^ 1) == k && dropped_at[i] != ~0ull)
                cause += "; a flit on it dropped by --drop-flit " + drops[i].text + " at cycle " +
                         std::to_string(dropped_at[i]) + " (its credit never comes back)";
        for (const DeadLink &d : dead_links)
            if ((d.node == n && d.port == k) || (d.peer == n && (d.port ^ 1) == k))
                cause += "; the cable pulled by --dead-link " + d.text;
        char text[300];
        std::snprintf(text, sizeof text,
                      "link %s stalled: %" PRIu64 " flits sent on it wait for a credit since cycle %" PRIu64
                      " (--link-timeout %" PRIu64 ")",
                      link_name(n, k).c_str(), link_watch.outstanding(stalled_link),
                      link_watch.since(stalled_link), link_timeout);
        reason = std::string(text) + ", stuck on " + vcs + ", the wire into port " + std::to_string(k ^ 1) +
                 " of " + node_name(far) + cause + (cause.empty() ? ": a dead cable?" : ".") +
                 " A schedule that avoids it: schedgen --dead-link " + coord_list(n) + ":" + std::to_string(k);
        status = kLinkStalled;
    } else if (stop_end) {
        std::string names;
        int held = 0;
        for (int m = 0; m < kNodes; ++m)
            if (stopped[size_t(m)] && !nodes[size_t(m)].exited) {
                names += (names.empty() ? "" : ", ") + node_name(m);
                ++held;
            }
        reason = "node " + names + " stopped by --stop-node never exited" +
                 (stop_quiet ? "; the " + std::to_string(kNodes - exited - held) + " other nodes not exited, no flit "
                               "moved and no node exited for " + std::to_string(kStopQuiet) + " cycles (waiting for it)"
                             : " (every other node did)");
        status = kNodeStopped;
    } else if (end == SimEnd::halted) {
        for (int n = 0; n < kNodes; ++n)
            if (bit(top->halted, n)) {
                reason = "node " + node_name(n) + ": " + nodes[n].traps.halt_reason();
                break;
            }
        status = kCoreHalted;
    } else if (end == SimEnd::max_cycles) {
        std::string running;
        int count = 0;
        for (int n = 0; n < kNodes; ++n)
            if (!nodes[n].exited) {
                if (count < 8) {
                    char text[80];
                    std::snprintf(text, sizeof text, "%s%s pc 0x%08" PRIx32,
                                  count ? ", " : "", node_name(n).c_str(),
                                  bits32(top->retire_pc, n * 32));
                    running += text;
                }
                ++count;
            }
        if (count > 8) running += ", ...";
        char text[200];
        std::snprintf(text, sizeof text,
                      "ran past --max-cycles %" PRIu64 " with %d of %d nodes still "
                      "running: ", options.max_cycles, count, kNodes);
        reason = text + running;
        status = kMaxCycles;
    }
    clock.finish();
    for (int n = 0; n < kNodes; ++n)
        if (!nodes[n].line.empty()) flush_line(n, nodes[n]);

    uint64_t flits = 0, max_flits = 0, instret = 0;
    int max_link = 0;
    for (int l = 0; l < kNodes * kPorts; ++l) {
        flits += link_flits[size_t(l)];
        if (link_flits[size_t(l)] > max_flits) {
            max_flits = link_flits[size_t(l)];
            max_link = l;
        }
    }
    for (const Node &node : nodes) instret += node.instret;
    std::string guard_counts;   // the protected links' counters, summed over every port
    if (kGuard) {
        uint64_t errors = 0, retries = 0, flips_seen = 0;
        for (int l = 0; l < kNodes * kPorts; ++l) {
            errors += bits32(top->link_errors, l * 16) & 0xffffu;
            retries += bits32(top->link_retries, l * 16) & 0xffffu;
            flips_seen += bits32(top->link_flips, l * 16) & 0xffffu;
        }
        guard_counts = " link-errors=" + std::to_string(errors) + " retries=" + std::to_string(retries) +
                       " flips=" + std::to_string(flips_seen);
    }
    bool output_failed = false;   // --report or --link-svg could not be written after the run
    if (show_links) {
        std::printf("link flits:");
        for (int l = 0; l < kNodes * kPorts; ++l)
            std::printf("%s%s=%" PRIu64, (l % kPorts) ? " " : "\n  ",
                        link_name(l / kPorts, l % kPorts).c_str(), link_flits[size_t(l)]);
        std::printf("\n");
    }
    if (jobs.count()) {
        std::printf("collectives on the %s (cycles: from the start of the collective on every node, all released in one cycle once set up, to its completion on the last; setup: the most cycles a node spent compiling its plan; "
                    "model: a step costs %.0f + %.0f per worm + %.2f per flit of its busiest node; lower-bnd: ideal all-port hardware, payload only; ram-bnd: this hardware with no software, every payload word through its node's one RAM port, a line of %u words per cycle):\n",
                    shape_name().c_str(), model.alpha, model.gamma, model.beta, kLineWords);
        jobs.print_table(stdout);
        std::string error;
        if (!svg_path.empty() && !jobs.write_svg(svg_path, shape_name(), error)) {
            std::fprintf(stderr, "mesh-sim: %s\n", error.c_str());
            output_failed = true;
        }
        if (!jobs.all_ok() && reason.empty()) {
            char text[200];
            size_t failed = 0, below = 0;
            for (const JobResult &r : jobs.results()) {
                failed += r.delivered ? 0 : 1;
                below += r.delivered && !r.within_bounds ? 1 : 0;
            }
            std::snprintf(text, sizeof text, "%zu of %zu jobs failed the delivery check, %zu ran below a bound, %zu never ended",
                          failed, jobs.count(), below, jobs.count() - jobs.finished());
            reason = text;
            if (status < 0 && first_bad < 0) status = kCheckFailed;
        }
    }
    std::fflush(stdout);

    if (status < 0 && first_bad >= 0) {
        uint64_t code = nodes[size_t(first_bad)].exit_code;
        status = code > 255 ? 255 : int(code);
    }
    // nothing lost silently: a flit dropped on links that do not send it again was lost, even
    // when the run ended well; a stopped node that did not exit fails the run
    if (status < 0 && !kGuard)
        for (size_t i = 0; i < drops.size(); ++i)
            if (dropped_at[i] != ~0ull) {
                const int out = drops[i].peer * kPorts + (drops[i].port ^ 1);
                reason = "the flit --drop-flit " + drops[i].text + " dropped on " + wire_name(drops[i]) +
                         " at cycle " + std::to_string(dropped_at[i]) + " was lost (these links are not "
                         "protected; " + std::to_string(link_watch.outstanding(out)) +
                         " credits of that link never came back): this run's result is not to be trusted";
                status = kLinkStalled;
                break;
            }
    if (status < 0 || status == kMaxCycles)
        for (size_t i = 0; i < stops.size(); ++i)
            if (stopped[size_t(stops[i].node)] && !nodes[size_t(stops[i].node)].exited) {
                reason = "node " + node_name(stops[i].node) + " stopped by --stop-node " + stops[i].text +
                         " never exited" + (reason.empty() ? "" : "; " + reason);
                status = kNodeStopped;
                break;
            }
    // the faults injected, in the reason of a failed run (stderr, --report), else a line each
    if (!fault_notes.empty()) {
        std::string all;
        for (const std::string &note : fault_notes) all += (all.empty() ? "" : "; ") + note;
        if (status > 0)
            reason += (reason.empty() ? "" : "; ") + std::string("faults injected: ") + all;
        else if (!options.quiet)
            for (const std::string &note : fault_notes) std::fprintf(stderr, "mesh-sim: fault: %s\n", note.c_str());
    }
    // the run as --report, --junit, --dump and --view describe it
    auto run_result = [&]() {
        RunResult run;
        run.shape = shape_name();
        run.shape_id = variant_name(kSize, kDims, kTorus);
        run.elf = options.elf_path;
        run.status = status < 0 ? 0 : status;
        run.reason = reason;
        run.cycles = cycles;
        run.instret = instret;
        run.flits = flits;
        for (int n = 0; n < kNodes; ++n) {
            const Node &node = nodes[size_t(n)];
            NodeResult r;
            r.name = node_name(n);
            r.exited = node.exited;
            r.exit_code = node.exit_code;
            r.exit_cycle = node.exit_cycle;
            r.instret = node.instret;
            r.console = node.console;
            r.console_dropped = node.console_dropped;
            r.regions = mesh_read_regions(rams[size_t(n)], kRamBase, image);
            run.nodes.push_back(r);
        }
        return run;
    };
    if (!report_path.empty() || !junit_path.empty() || !dump_path.empty()) {
        const RunResult run = run_result();
        std::string error;
        if (!report_path.empty() && !mesh_write_report(report_path, run, jobs.count() ? &jobs : nullptr, error)) {
            std::fprintf(stderr, "mesh-sim: %s\n", error.c_str());
            output_failed = true;
        }
        if (!junit_path.empty() && !mesh_write_junit(junit_path, run, jobs.count() ? &jobs : nullptr, error)) {
            std::fprintf(stderr, "mesh-sim: %s\n", error.c_str());
            output_failed = true;
        }
        if (!dump_path.empty() && !mesh_write_dump(dump_path, run, mesh_shape, rams, kRamBase, image, error)) {
            std::fprintf(stderr, "mesh-sim: --dump: %s\n", error.c_str());
            output_failed = true;
        }
    }
    if (view) {   // --view, --view-trace: the trace, and the page that replays it
        const RunResult run = run_result();
        view->finish(run, jobs.count() ? &jobs : nullptr);
        std::string error;
        if ((!view_path.empty() && !view->write_html(view_path, error)) ||
            (!view_trace_path.empty() && !view->write_json(view_trace_path, error))) {
            std::fprintf(stderr, "mesh-sim: %s\n", error.c_str());
            output_failed = true;
        }
    }
    if (status < 0) status = output_failed ? int(kCannotRead) : 0;
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - started)
                      .count();
    if (!options.quiet || !reason.empty() || first_bad >= 0) {
        std::string bad;
        if (first_bad >= 0) {
            int others = 0;
            for (int n = 0; n < kNodes; ++n)
                if (n != first_bad && nodes[n].exited && nodes[n].exit_code != 0) ++others;
            char text[200];
            std::snprintf(text, sizeof text,
                          " first-failure=%s exit=%" PRIu64 " at cycle %" PRIu64
                          " (%d more nodes non-zero)",
                          node_name(first_bad).c_str(), nodes[size_t(first_bad)].exit_code,
                          nodes[size_t(first_bad)].exit_cycle, others);
            bad = text;
        }
        std::fprintf(stderr,
                     "mesh-sim: %s: %d/%d nodes exited, exit=%d cycles=%" PRIu64
                     " instret=%" PRIu64 " flits=%" PRIu64 "%s max-link=%s:%" PRIu64
                     " sim=%.0f cycles/s%s%s%s\n",
                     shape_name().c_str(), exited, kNodes, status, cycles, instret, flits, guard_counts.c_str(),
                     link_name(max_link / kPorts, max_link % kPorts).c_str(), max_flits,
                     secs > 0 ? double(cycles) / secs : 0.0, bad.c_str(),
                     reason.empty() ? "" : ": ", reason.c_str());
    }
    return status;
}
