// SPDX-License-Identifier: ISC
// The cycle loop node-sim and mesh-sim share: a Verilated model's clock (clk low, eval, clk
// high, eval; each half a time step of the waveform), its reset, the optional FST waveform
// (--trace) and the loop that runs it cycle by cycle until the harness says the run ended,
// --max-cycles passed, or a core halted, with an optional progress call every N cycles.
// The model needs inputs clk and rst. Header only: it is written for any model class.
#ifndef RVMESH_SIM_RUN_H
#define RVMESH_SIM_RUN_H

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include <verilated.h>
#if VM_TRACE
#include <verilated_fst_c.h>
#endif

#include "elf32.h"

#if VM_TRACE
using SimTraceFile = VerilatedFstC;
#else
// models built without --trace-fst (mesh-sim's shape variants: it costs build time)
struct SimTraceFile {
    void dump(uint64_t) {}
    void close() {}
};
#endif

// What the harness says of a cycle, after looking at its settled outputs.
enum class SimStep {
    next,     // go on
    ended,    // the run ends with this cycle (it counts)
    halted,   // the run ends before this cycle (a core halted)
};
// How the loop ended.
enum class SimEnd { ended, halted, max_cycles };

template <class Model>
class SimClock {
public:
    SimClock(Model &model, const char *tool) : model_(model), tool_(tool) {}

    // --trace FILE.fst: the waveform of the whole run (the context needs traceEverOn(true)
    // before the model is built). Returns 0, or kCannotRead with the message printed.
    int open_trace(const std::string &path) {
#if VM_TRACE
        if (path.empty()) return 0;
        trace_.reset(new VerilatedFstC);
        model_.trace(trace_.get(), 99);
        trace_->open(path.c_str());
        if (!trace_->isOpen()) {
            std::fprintf(stderr, "%s: cannot write the trace file '%s'\n", tool_, path.c_str());
            return kCannotRead;
        }
#else
        (void)path;
#endif
        return 0;
    }

    // one clock cycle: a falling and a rising edge
    void tick() {
        model_.clk = 0;
        model_.eval();
        if (trace_) trace_->dump(time_);
        ++time_;
        model_.clk = 1;
        model_.eval();
        if (trace_) trace_->dump(time_);
        ++time_;
    }

    // reset held for two cycles; the outputs of the first cycle after it are settled
    void reset() {
        model_.rst = 1;
        tick();
        tick();
        model_.rst = 0;
        model_.eval();
    }

    // The same for a model that samples rst at the clock edge and holds its logic in reset from
    // the first edge on (mesh_top: rst_q starts high): rst falls before the second edge, so
    // the logic sees two reset edges and leaves reset at the same cycle as above.
    // before_last_edge() sets the inputs the model samples at that edge (its cycle-0 inputs).
    template <class BeforeLastEdge>
    void reset_registered(BeforeLastEdge before_last_edge) {
        model_.rst = 1;
        tick();
        model_.rst = 0;
        before_last_edge();
        tick();
        model_.eval();
    }

    // The cycle loop: look(cycle) reads the settled outputs of cycle `cycle` (0, 1, ...)
    // and says what they mean; past max_cycles cycles the loop stops (SimEnd::max_cycles)
    // before the next one. progress(cycles) follows every `progress_every` cycles run (0:
    // never). cycles() is then the cycles run.
    template <class Look, class Progress>
    SimEnd run(uint64_t max_cycles, uint64_t progress_every, Look look, Progress progress) {
        uint64_t next_progress = progress_every ? progress_every : ~0ull;
        for (;;) {
            switch (look(cycles_)) {
            case SimStep::ended:
                ++cycles_;
                return SimEnd::ended;
            case SimStep::halted:
                return SimEnd::halted;
            case SimStep::next:
                break;
            }
            if (cycles_ >= max_cycles) return SimEnd::max_cycles;
            tick();
            ++cycles_;
            if (cycles_ >= next_progress) {
                next_progress += progress_every;
                progress(cycles_);
            }
        }
    }
    template <class Look>
    SimEnd run(uint64_t max_cycles, Look look) {
        return run(max_cycles, 0, look, [](uint64_t) {});
    }

    uint64_t cycles() const { return cycles_; }

    // after the run: one more cycle into the waveform, which is closed; the model finished
    void finish() {
        if (trace_) {
            tick();
            trace_->close();
        }
        model_.final();
    }

private:
    Model &model_;
    const char *tool_;
    std::unique_ptr<SimTraceFile> trace_;
    uint64_t time_ = 0;
    uint64_t cycles_ = 0;
};

#endif
