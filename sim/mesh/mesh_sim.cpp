// mesh-sim: a whole rvmesh machine (rtl/tile/mesh_top: tiles of core + RAM + NI + router)
// simulated by Verilator.
//
// Loads one RV32IM ELF into every node's RAM, runs all nodes from reset, prints each node's
// console output line by line prefixed with its coordinates, and stops when every node has
// stored (status << 1) | 1 to its `tohost` word. See `mesh-sim --help` and sim/mesh/README.md.
#include <verilated.h>
#include <verilated_fst_c.h>

#include <chrono>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "Vmesh_top.h"
#include "verilated_syms.h"
#include "elf32.h"

#if !defined(RVMESH_RAM_BASE) || !defined(MESH_SIZE_X) || !defined(MESH_DIMS)
#error "build with -DRVMESH_RAM_BASE, -DRVMESH_RAM_BYTES, -DMESH_DIMS, -DMESH_SIZE_X/Y/Z, -DMESH_TORUS (sim/mesh/mesh.mk)"
#endif

namespace {


const uint64_t kRamBase = RVMESH_RAM_BASE;
const uint64_t kRamBytes = RVMESH_RAM_BYTES;
const int kDims = MESH_DIMS;
const int kSize[3] = {MESH_SIZE_X, MESH_SIZE_Y, MESH_SIZE_Z};
const bool kTorus = MESH_TORUS != 0;
const int kNodes = MESH_SIZE_X * MESH_SIZE_Y * MESH_SIZE_Z;
const int kPorts = 2 * MESH_DIMS;
const uint64_t kDefaultMaxCycles = 100000000ull;
const uint64_t kDefaultProgress = 10000000ull;

const char kUsage[] =
    "usage: mesh-sim --elf FILE [--max-cycles N] [--trace FILE.fst] [--progress N]\n"
    "                [--links] [--quiet] [--help]\n";

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

// "[1,2]+y": output link k of node n
std::string link_name(int n, int k) {
    static const char *const kDir[] = {"+x", "-x", "+y", "-y", "+z", "-z"};
    return node_name(n) + kDir[k];
}

void print_help() {
    std::printf(
        "%s"
        "\n"
        "Simulates the rvmesh machine built into this binary: a %s of %d tiles\n"
        "(RV32IM core, %" PRIu64 " bytes of RAM at 0x%08" PRIx64 ", network interface, router),\n"
        "every node running the ELF program FILE from reset.\n"
        "\n"
        "  --elf FILE        RV32 ELF executable; its PT_LOAD segments go into every node's RAM\n"
        "  --max-cycles N    stop after N clock cycles (default %" PRIu64 ")\n"
        "  --trace FILE.fst  write an FST waveform of the whole run (view with gtkwave)\n"
        "  --progress N      a progress line on stderr every N cycles (default %" PRIu64
        "; 0: none)\n"
        "  --links           print the flits carried by every link at the end (stdout)\n"
        "  --quiet           no summary, progress or warnings on stderr\n"
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
        "  120      bad command line\n"
        "  121      cannot open or read the ELF file (or write the trace)\n"
        "  122      not an ELF file (or a malformed one)\n"
        "  123      ELF for another architecture (not 32-bit little-endian RISC-V)\n"
        "  124      a segment does not fit in a node's RAM\n"
        "  125      ran past --max-cycles (stderr names the nodes still running)\n"
        "  126      a core halted: a trap was raised by the first instruction of the\n"
        "           trap handler (e.g. a trap while mtvec is 0)\n",
        kUsage, shape_name().c_str(), kNodes, kRamBytes, kRamBase, kDefaultMaxCycles,
        kDefaultProgress);
}

int usage_error(const std::string &message) {
    std::fprintf(stderr, "mesh-sim: %s\n%sTry 'mesh-sim --help'.\n", message.c_str(), kUsage);
    return kBadCommandLine;
}

bool parse_count(const char *text, uint64_t &value, bool allow_zero) {
    if (!*text) return false;
    for (const char *p = text; *p; ++p)
        if (*p < '0' || *p > '9') return false;
    errno = 0;
    char *end = nullptr;
    value = std::strtoull(text, &end, 10);
    return errno == 0 && *end == '\0' && (allow_zero || value > 0);
}

const char *cause_name(uint32_t cause) {
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
inline bool any(uint64_t value) { return value != 0; }
template <std::size_t Words>
inline bool any(const VlWide<Words> &value) {
    for (std::size_t w = 0; w < Words; ++w)
        if (value[w]) return true;
    return false;
}

struct Node {
    std::string line;          // console text not yet ended by a newline
    bool exited = false;
    uint64_t exit_code = 0;
    uint64_t exit_cycle = 0;
    uint64_t instret = 0;
    uint32_t last_cause = 0, last_pc = 0, last_tval = 0, prev_cause = 0, prev_pc = 0;
    uint64_t traps = 0;
};

void flush_line(int n, Node &node) {
    std::printf("%s %s\n", node_name(n).c_str(), node.line.c_str());
    node.line.clear();
}

}  // namespace

int main(int argc, char **argv) {
    std::string elf_path, trace_path;
    uint64_t max_cycles = kDefaultMaxCycles, progress = kDefaultProgress;
    bool quiet = false, show_links = false;

    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        std::string value;
        bool has_inline = false;
        size_t eq = arg.find('=');
        if (arg.rfind("--", 0) == 0 && eq != std::string::npos) {
            value = arg.substr(eq + 1);
            arg = arg.substr(0, eq);
            has_inline = true;
        }
        auto take_value = [&]() -> bool {
            if (has_inline) return true;
            if (i + 1 >= argc) return false;
            value = argv[++i];
            return true;
        };
        if (arg == "--help" || arg == "-h") {
            print_help();
            return 0;
        } else if (arg == "--quiet" && !has_inline) {
            quiet = true;
        } else if (arg == "--links" && !has_inline) {
            show_links = true;
        } else if (arg == "--elf") {
            if (!take_value() || value.empty())
                return usage_error("--elf needs a file name: --elf FILE");
            elf_path = value;
        } else if (arg == "--trace") {
            if (!take_value() || value.empty())
                return usage_error("--trace needs a file name: --trace FILE.fst");
            trace_path = value;
        } else if (arg == "--max-cycles") {
            if (!take_value())
                return usage_error("--max-cycles needs a number: --max-cycles N");
            if (!parse_count(value.c_str(), max_cycles, false))
                return usage_error("--max-cycles takes a positive decimal number, not '" +
                                   value + "'");
        } else if (arg == "--progress") {
            if (!take_value())
                return usage_error("--progress needs a number: --progress N");
            if (!parse_count(value.c_str(), progress, true))
                return usage_error("--progress takes a decimal number of cycles, not '" +
                                   value + "'");
        } else {
            return usage_error("unknown argument '" + std::string(argv[i]) + "'");
        }
    }
    if (elf_path.empty()) return usage_error("no program given: --elf FILE is required");

    Elf32Image image;
    if (int status = elf32_load_program("mesh-sim", "a node's RAM", elf_path, kRamBase, kRamBytes, quiet,
                                        image))
        return status;

    std::setvbuf(stdout, nullptr, _IOLBF, 0);

    auto context = std::unique_ptr<VerilatedContext>(new VerilatedContext);
    if (!trace_path.empty()) context->traceEverOn(true);
    auto top = std::unique_ptr<Vmesh_top>(new Vmesh_top(context.get()));

    // program -> every node's RAM. The RAM array is public in rtl/core/node_ram.v.
    const size_t ram_words = kRamBytes / 4;
    std::vector<uint32_t> ram_image(ram_words, 0);
    for (const Elf32Segment &seg : image.segments) {
        for (size_t k = 0; k < seg.bytes.size(); ++k) {
            uint64_t offset = seg.paddr - kRamBase + k;
            uint32_t &word = ram_image[offset / 4];
            unsigned shift = unsigned(offset % 4) * 8;
            word = (word & ~(0xffu << shift)) | (uint32_t(seg.bytes[k]) << shift);
        }
    }
    for (int n = 0; n < kNodes; ++n) {
        std::string scope_name =
            "TOP.mesh_top.node[" + std::to_string(n) + "].tile.ram";
        const VerilatedScope *scope = context->scopeFind(scope_name.c_str());
        VerilatedVar *var = scope ? scope->varFind("mem") : nullptr;
        if (!var || var->udims() != 1 || size_t(var->elements(1)) != ram_words) {
            std::fprintf(stderr, "mesh-sim: internal error: RAM array %s.mem not found or "
                                 "not %zu words (rebuild: make mesh-sim)\n",
                         scope_name.c_str(), ram_words);
            return kCoreHalted;
        }
        std::memcpy(var->datap(), ram_image.data(), ram_words * 4);
    }

    std::unique_ptr<VerilatedFstC> trace;
    uint64_t time = 0;
    if (!trace_path.empty()) {
        trace.reset(new VerilatedFstC);
        top->trace(trace.get(), 99);
        trace->open(trace_path.c_str());
        if (!trace->isOpen()) {
            std::fprintf(stderr, "mesh-sim: cannot write the trace file '%s'\n",
                         trace_path.c_str());
            return kCannotRead;
        }
    }
    auto tick = [&]() {
        top->clk = 0;
        top->eval();
        if (trace) trace->dump(time);
        ++time;
        top->clk = 1;
        top->eval();
        if (trace) trace->dump(time);
        ++time;
    };

    top->tohost_addr = image.has_tohost ? (image.tohost & ~3u) : 0xffffffffu;
    top->rst = 1;
    tick();
    tick();
    top->rst = 0;
    top->eval();

    std::vector<Node> nodes(kNodes);
    std::vector<uint64_t> link_flits(size_t(kNodes) * kPorts, 0);
    uint64_t cycles = 0;
    int exited = 0;
    int first_bad = -1;            // the first node (in time) that exited non-zero
    int status = -1;
    std::string reason;
    auto started = std::chrono::steady_clock::now();
    uint64_t next_progress = progress ? progress : ~0ull;

    for (;;) {
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
        if (any(top->retire_valid))
            for (int n = 0; n < kNodes; ++n)
                if (bit(top->retire_valid, n)) ++nodes[n].instret;
        if (any(top->link_valid))
            for (int l = 0; l < kNodes * kPorts; ++l)
                if (bit(top->link_valid, l)) ++link_flits[size_t(l)];
        if (any(top->trap_valid))
            for (int n = 0; n < kNodes; ++n)
                if (bit(top->trap_valid, n)) {
                    Node &node = nodes[n];
                    ++node.traps;
                    node.prev_cause = node.last_cause;
                    node.prev_pc = node.last_pc;
                    node.last_cause = bits32(top->trap_cause, n * 32);
                    node.last_pc = bits32(top->trap_pc, n * 32);
                    node.last_tval = bits32(top->trap_tval, n * 32);
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
        if (exited == kNodes) {
            ++cycles;
            break;
        }
        if (any(top->halted)) {
            for (int n = 0; n < kNodes; ++n)
                if (bit(top->halted, n)) {
                    const Node &node = nodes[n];
                    char text[500];
                    std::snprintf(text, sizeof text,
                                  "node %s: core halted: the trap handler's first instruction "
                                  "at 0x%08" PRIx32 " raised mcause %" PRIu32
                                  " (%s, mtval 0x%08" PRIx32 "); is mtvec set?",
                                  node_name(n).c_str(), node.last_pc, node.last_cause,
                                  cause_name(node.last_cause), node.last_tval);
                    reason = text;
                    if (node.traps >= 2) {
                        std::snprintf(text, sizeof text,
                                      " (it was entered for mcause %" PRIu32
                                      " (%s) at pc 0x%08" PRIx32 ")",
                                      node.prev_cause, cause_name(node.prev_cause),
                                      node.prev_pc);
                        reason += text;
                    }
                    break;
                }
            status = kCoreHalted;
            break;
        }
        if (cycles >= max_cycles) {
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
                          "running: ", max_cycles, count, kNodes);
            reason = text + running;
            status = kMaxCycles;
            break;
        }
        tick();
        ++cycles;
        if (cycles >= next_progress) {
            next_progress += progress;
            if (!quiet) {
                double secs = std::chrono::duration<double>(
                                  std::chrono::steady_clock::now() - started).count();
                std::fprintf(stderr, "mesh-sim: cycle %" PRIu64 ", %d of %d nodes exited, "
                                     "%.0f cycles/s\n",
                             cycles, exited, kNodes, secs > 0 ? double(cycles) / secs : 0.0);
            }
        }
    }
    if (trace) {
        tick();
        trace->close();
    }
    top->final();
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
    if (show_links) {
        std::printf("link flits:");
        for (int l = 0; l < kNodes * kPorts; ++l)
            std::printf("%s%s=%" PRIu64, (l % kPorts) ? " " : "\n  ",
                        link_name(l / kPorts, l % kPorts).c_str(), link_flits[size_t(l)]);
        std::printf("\n");
    }
    std::fflush(stdout);

    if (status < 0) {
        if (first_bad >= 0) {
            uint64_t code = nodes[size_t(first_bad)].exit_code;
            status = code > 255 ? 255 : int(code);
        } else {
            status = 0;
        }
    }
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - started)
                      .count();
    if (!quiet || !reason.empty() || first_bad >= 0) {
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
                     " instret=%" PRIu64 " flits=%" PRIu64 " max-link=%s:%" PRIu64
                     " sim=%.0f cycles/s%s%s%s\n",
                     shape_name().c_str(), exited, kNodes, status, cycles, instret, flits,
                     link_name(max_link / kPorts, max_link % kPorts).c_str(), max_flits,
                     secs > 0 ? double(cycles) / secs : 0.0, bad.c_str(),
                     reason.empty() ? "" : ": ", reason.c_str());
    }
    return status;
}
