// node-sim: one rvmesh node (rv32_core + RAM + console) simulated by Verilator.
//
// Loads an RV32IM ELF into the node's RAM, runs it from reset, copies console output to
// stdout and stops when the program stores (status << 1) | 1 to its `tohost` word.
// See `node-sim --help` and sim/README.md.
#include <verilated.h>
#include <verilated_fst_c.h>

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "Vnode_top.h"
#include "verilated_syms.h"
#include "elf32.h"
#include "sim_common.h"

#ifndef RVMESH_RAM_BASE
#error "build with -DRVMESH_RAM_BASE=... -DRVMESH_RAM_BYTES=... (from config.mk)"
#endif

namespace {


const uint64_t kRamBase = RVMESH_RAM_BASE;
const uint64_t kRamBytes = RVMESH_RAM_BYTES;
const uint64_t kDefaultMaxCycles = 100000000ull;

const char kUsage[] =
    "usage: node-sim --elf FILE [--max-cycles N] [--trace FILE.fst] [--quiet] [--help]\n";

void print_help() {
    std::printf(
        "%s"
        "\n"
        "Simulates one rvmesh node (RV32IM core, %" PRIu64 " bytes of RAM at 0x%08" PRIx64
        ", console)\n"
        "running the ELF program FILE from reset.\n"
        "\n"
        "  --elf FILE        RV32 ELF executable; its PT_LOAD segments go into RAM\n"
        "  --max-cycles N    stop after N clock cycles (default %" PRIu64 ")\n"
        "  --trace FILE.fst  write an FST waveform of the whole run (view with gtkwave)\n"
        "  --quiet           no summary line and no warnings on stderr\n"
        "  --x-seed N        (node-sim-xrand only) every register starts from a random value\n"
        "                    drawn from seed N (1..2147483647) instead of zero, so one missing\n"
        "                    from reset shows (RAM still holds the program and zeros); default 1\n"
        "  --help            this text\n"
        "\n"
        "The console (byte stores to 0x10000000) goes to stdout. The run ends when the\n"
        "program stores (status << 1) | 1 to its `tohost` symbol; stderr then gets\n"
        "  node-sim: exit=<status> cycles=<C> instret=<I> cpi=<C/I>\n"
        "\n"
        "Exit status:\n"
        "  0..119  the program's status (tohost >> 1; statuses above 255 give 255)\n"
        "  120     bad command line\n"
        "  121     cannot open or read the ELF file (or write the trace file)\n"
        "  122     not an ELF file, or a malformed one: empty, truncated (shorter than\n"
        "          its header, or a program header or segment beyond the end of the file),\n"
        "          not an executable, no loadable segment\n"
        "  123     ELF for another architecture (not 32-bit little-endian RISC-V)\n"
        "  124     a segment does not fit in the node's RAM (too big, below RAM_BASE or\n"
        "          above RAM, or wrapping around the 32-bit address space)\n"
        "  125     ran past --max-cycles\n"
        "  126     the core halted: a trap was raised by the first instruction of the\n"
        "          trap handler (e.g. a trap while mtvec is 0 or outside RAM)\n",
        kUsage, kRamBytes, kRamBase, kDefaultMaxCycles);
}

int usage_error(const std::string &message) { return sim_usage_error("node-sim", kUsage, message); }

}  // namespace

int main(int argc, char **argv) {
    std::string elf_path, trace_path;
    uint64_t max_cycles = kDefaultMaxCycles;
    uint64_t x_seed = 1;
    bool quiet = false;

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
        auto take_value = [&](const char *what) -> bool {
            if (has_inline) return true;
            if (i + 1 >= argc) return false;
            value = argv[++i];
            (void)what;
            return true;
        };
        if (arg == "--help" || arg == "-h") {
            print_help();
            return 0;
        } else if (arg == "--quiet" && !has_inline) {
            quiet = true;
        } else if (arg == "--elf") {
            if (!take_value("FILE") || value.empty())
                return usage_error("--elf needs a file name: --elf FILE");
            elf_path = value;
        } else if (arg == "--trace") {
            if (!take_value("FILE") || value.empty())
                return usage_error("--trace needs a file name: --trace FILE.fst");
            trace_path = value;
        } else if (arg == "--x-seed") {
            if (!sim_xrand_model)
                return usage_error("--x-seed needs a model built with random initial values: make node-sim-xrand");
            if (!take_value("N") || !sim_parse_count(value.c_str(), x_seed, false) || x_seed > 0x7fffffffu)
                return usage_error("--x-seed takes a number 1..2147483647, not '" + value + "'");
        } else if (arg == "--max-cycles") {
            if (!take_value("N"))
                return usage_error("--max-cycles needs a number: --max-cycles N");
            if (!sim_parse_count(value.c_str(), max_cycles, false))
                return usage_error("--max-cycles takes a positive decimal number, not '" +
                                   value + "'");
        } else {
            return usage_error("unknown argument '" + std::string(argv[i]) + "'");
        }
    }
    if (elf_path.empty()) return usage_error("no program given: --elf FILE is required");

    Elf32Image image;
    if (int status = elf32_load_program("node-sim", "RAM", elf_path, kRamBase, kRamBytes, quiet,
                                        image))
        return status;

    std::setvbuf(stdout, nullptr, _IOLBF, 0);

    auto context = std::unique_ptr<VerilatedContext>(new VerilatedContext);
    if (!trace_path.empty()) context->traceEverOn(true);
    sim_random_initial_values(*context, x_seed);
    auto top = std::unique_ptr<Vnode_top>(new Vnode_top(context.get()));

    // program -> RAM (the rest of RAM reads as zero). The RAM's banks are public in
    // rtl/core/node_ram.v; node_top's RAM is one word wide.
    const size_t ram_words = kRamBytes / 4;
    SimRam ram;
    std::string ram_error;
    if (!ram.attach(*context, "TOP.node_top.ram", ram_words, 1, ram_error)) {
        std::fprintf(stderr, "node-sim: internal error: %s (make node-sim)\n", ram_error.c_str());
        return kCoreHalted;
    }
    std::vector<uint32_t> ram_image(ram_words, 0);
    for (const Elf32Segment &seg : image.segments) {
        for (size_t k = 0; k < seg.bytes.size(); ++k) {
            uint64_t offset = seg.paddr - kRamBase + k;
            uint32_t &word = ram_image[offset / 4];
            unsigned shift = unsigned(offset % 4) * 8;
            word = (word & ~(0xffu << shift)) | (uint32_t(seg.bytes[k]) << shift);
        }
    }
    ram.write_words(0, ram_image.data(), ram_words);

    std::unique_ptr<VerilatedFstC> trace;
    uint64_t time = 0;
    if (!trace_path.empty()) {
        trace.reset(new VerilatedFstC);
        top->trace(trace.get(), 99);
        trace->open(trace_path.c_str());
        if (!trace->isOpen()) {
            std::fprintf(stderr, "node-sim: cannot write the trace file '%s'\n",
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
    top->irq_external = 0;
    top->rst = 1;
    tick();
    tick();
    top->rst = 0;
    top->eval();

    uint64_t cycles = 0, instret = 0;
    uint32_t last_cause = 0, last_pc = 0, last_tval = 0;    // the latest trap raised
    uint32_t prev_cause = 0, prev_pc = 0;                    // the one before it
    uint64_t traps = 0;
    int status = -1;
    std::string reason;
    uint64_t exit_code = 0;
    for (;;) {
        // outputs of the current cycle, settled after the last rising edge
        if (top->console_valid) std::putchar(top->console_data);
        if (top->retire_valid) ++instret;
        if (top->trap_valid) {
            ++traps;
            prev_cause = last_cause;
            prev_pc = last_pc;
            last_cause = top->trap_cause;
            last_pc = top->trap_pc;
            last_tval = top->trap_tval;
        }
        if (top->tohost_valid) {
            ++cycles;
            exit_code = top->tohost_data >> 1;
            status = exit_code > 255 ? 255 : int(exit_code);
            break;
        }
        if (top->halted) {
            char text[400];
            std::snprintf(text, sizeof text,
                          "core halted: the trap handler's first instruction at 0x%08" PRIx32
                          " raised mcause %" PRIu32 " (%s, mtval 0x%08" PRIx32
                          "); is mtvec set?",
                          last_pc, last_cause, sim_cause_name(last_cause), last_tval);
            reason = text;
            if (traps >= 2) {
                std::snprintf(text, sizeof text,
                              " (it was entered for mcause %" PRIu32 " (%s) at pc 0x%08" PRIx32
                              ")", prev_cause, sim_cause_name(prev_cause), prev_pc);
                reason += text;
            }
            status = kCoreHalted;
            break;
        }
        if (cycles >= max_cycles) {
            char text[200];
            std::snprintf(text, sizeof text,
                          "ran past --max-cycles %" PRIu64 " (pc 0x%08" PRIx32
                          "); raise --max-cycles or check the program for a hang",
                          max_cycles, top->retire_pc);
            reason = text;
            status = kMaxCycles;
            break;
        }
        tick();
        ++cycles;
    }
    if (trace) {
        tick();
        trace->close();
    }
    top->final();
    std::fflush(stdout);

    if (!quiet || !reason.empty()) {
        double cpi = instret ? double(cycles) / double(instret) : 0.0;
        if (reason.empty())
            std::fprintf(stderr, "node-sim: exit=%" PRIu64 " cycles=%" PRIu64
                                 " instret=%" PRIu64 " cpi=%.3f\n",
                         exit_code, cycles, instret, cpi);
        else
            std::fprintf(stderr, "node-sim: exit=%d cycles=%" PRIu64 " instret=%" PRIu64
                                 " cpi=%.3f: %s\n",
                         status, cycles, instret, cpi, reason.c_str());
    }
    return status;
}
