// SPDX-License-Identifier: MIT
// `wallsim run --threads N`: the work of the operators' timing models that depends on neither
// simulated time nor other operators (a kernel simulated from an idle device,
// OpModel::precompute) runs on N threads before the simulation starts; the SystemC part (the
// devices' jobs, their memory and link traffic) then runs on one thread, as before, and finds
// those answers ready. Results are identical for every N.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/registry/op_model.h"
#include "sim/trace/op.h"

namespace sim {

struct PrecomputeSummary {
    uint64_t tasks = 0;
    double wall_seconds = 0;
};

/// Runs every precompute task of the trace's operators (models[i] runs trace.ops[i]) on
/// `threads` threads; with one thread, none (each model then works as it goes). threads >= 1.
PrecomputeSummary precompute_models(const Trace& trace,
                                    const std::vector<OpModel*>& models,
                                    unsigned threads);

}  // namespace sim
