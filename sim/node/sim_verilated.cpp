// SPDX-License-Identifier: ISC
// What node-sim and mesh-sim share that needs the Verilator runtime (sim_common.h): random
// initial values, and finding a node's RAM banks in the model. The rest of sim_common.h
// (sim_common.cpp) is plain C++, which the fuzz harnesses (tests/fuzz) link without Verilator.
#include "sim_common.h"

#include "verilated.h"
#include "verilated_syms.h"

void sim_random_initial_values(VerilatedContext &context, uint64_t seed) {
    if (!sim_xrand_model) return;
    context.randReset(2);   // every bit not set by reset: random
    context.randSeed(int(seed));
}

bool SimRam::attach(VerilatedContext &context, const std::string &scope, size_t words, unsigned line_words,
                    std::string &error) {
    banks_.clear();
    line_ = line_words ? line_words : 1;
    words_ = words;
    for (unsigned k = 0; k < line_; ++k) {
        const std::string name = scope + ".bank[" + std::to_string(k) + "]";
        const VerilatedScope *found = context.scopeFind(name.c_str());
        VerilatedVar *var = found ? found->varFind("mem") : nullptr;
        if (!var || var->udims() != 1 || size_t(var->elements(1)) * line_ != words) {
            error = "RAM bank " + name + ".mem not found or not " + std::to_string(words / line_) +
                    " words (the model's LINE_WORDS or RAM_BYTES differ from this harness's: rebuild it)";
            banks_.clear();
            return false;
        }
        banks_.push_back(static_cast<uint32_t *>(var->datap()));
    }
    return true;
}
