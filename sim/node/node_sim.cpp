// SPDX-License-Identifier: ISC
// node-sim: one rvmesh node (rv32_core + RAM + console) simulated by Verilator.
//
// Loads an RV32IM ELF into the node's RAM, runs it from reset, copies console output to
// stdout and stops when the program stores (status << 1) | 1 to its `tohost` word.
// See `node-sim --help` and sim/README.md.
#include <verilated.h>

#include <cinttypes>
#include <cstdio>
#include <memory>
#include <string>

#include "Vnode_top.h"
#include "verilated_syms.h"
#include "elf32.h"
#include "sim_common.h"
#include "sim_run.h"

#ifndef RVMESH_RAM_BASE
#error "build with -DRVMESH_RAM_BASE=... -DRVMESH_RAM_BYTES=... (from config.mk)"
#endif

namespace {


const uint64_t kRamBase = RVMESH_RAM_BASE;
const uint64_t kRamBytes = RVMESH_RAM_BYTES;

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
        kUsage, kRamBytes, kRamBase, kSimDefaultMaxCycles);
}

int usage_error(const std::string &message) { return sim_usage_error("node-sim", kUsage, message); }

}  // namespace

int main(int argc, char **argv) {
    SimOptions options;
    SimArgs args(argc, argv);
    while (args.next()) {
        std::string error;
        if (args.name() == "--help" || args.name() == "-h") {
            print_help();
            return 0;
        }
        switch (sim_common_option(args, options, "node-sim-xrand", error)) {
        case SimOption::taken: break;
        case SimOption::bad: return usage_error(error);
        case SimOption::other: return usage_error("unknown argument '" + std::string(args.raw()) + "'");
        }
    }
    if (options.elf_path.empty()) return usage_error("no program given: --elf FILE is required");

    Elf32Image image;
    if (int status = elf32_load_program("node-sim", "RAM", options.elf_path, kRamBase, kRamBytes,
                                        options.quiet, image))
        return status;

    std::setvbuf(stdout, nullptr, _IOLBF, 0);

    auto context = std::unique_ptr<VerilatedContext>(new VerilatedContext);
    if (!options.trace_path.empty()) context->traceEverOn(true);
    sim_random_initial_values(*context, options.x_seed);
    auto top = std::unique_ptr<Vnode_top>(new Vnode_top(context.get()));

    // program -> RAM (the rest of RAM reads as zero). The RAM's banks are public in
    // rtl/core/node_ram.v; node_top's RAM (in its node_core, `glue`) is one word wide.
    const size_t ram_words = kRamBytes / 4;
    SimRam ram;
    std::string ram_error;
    if (!ram.attach(*context, "TOP.node_top.glue.ram", ram_words, 1, ram_error)) {
        std::fprintf(stderr, "node-sim: internal error: %s (make node-sim)\n", ram_error.c_str());
        return kCoreHalted;
    }
    ram.write_words(0, elf32_ram_image(image, kRamBase, ram_words).data(), ram_words);

    SimClock<Vnode_top> clock(*top, "node-sim");
    if (int status = clock.open_trace(options.trace_path)) return status;
    top->tohost_addr = image.has_tohost ? (image.tohost & ~3u) : 0xffffffffu;
    top->irq_external = 0;
    clock.reset();

    uint64_t instret = 0;
    SimTraps traps;
    uint64_t exit_code = 0;
    const SimEnd end = clock.run(options.max_cycles, [&](uint64_t) {
        // outputs of the current cycle, settled after the last rising edge
        if (top->console_valid) std::putchar(top->console_data);
        if (top->retire_valid) ++instret;
        if (top->trap_valid) traps.record(top->trap_cause, top->trap_pc, top->trap_tval);
        if (top->tohost_valid) {
            exit_code = top->tohost_data >> 1;
            return SimStep::ended;
        }
        return top->halted ? SimStep::halted : SimStep::next;
    });
    int status = exit_code > 255 ? 255 : int(exit_code);
    std::string reason;
    if (end == SimEnd::halted) {
        reason = traps.halt_reason();
        status = kCoreHalted;
    } else if (end == SimEnd::max_cycles) {
        char text[200];
        std::snprintf(text, sizeof text,
                      "ran past --max-cycles %" PRIu64 " (pc 0x%08" PRIx32
                      "); raise --max-cycles or check the program for a hang",
                      options.max_cycles, top->retire_pc);
        reason = text;
        status = kMaxCycles;
    }
    const uint64_t cycles = clock.cycles();
    clock.finish();
    std::fflush(stdout);

    if (!options.quiet || !reason.empty()) {
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
