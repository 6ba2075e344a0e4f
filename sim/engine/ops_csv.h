// SPDX-License-Identifier: MIT
// ops.csv: one row per operator with its timing, work, intensity, achieved rates, the roof it
// is measured against, utilisations, bound and the fidelity that produced it, and for imported
// operators the measured time and the simulated time's relative error. kernels.csv: what
// a cycle-level GPU model saw inside each kernel.
#pragma once

#include <string>
#include <vector>

#include "sim/registry/op_model.h"
#include "sim/trace/op.h"

namespace sim {

/// The CSV text for a trace and its per-op results (same order, same size).
std::string format_ops_csv(const Trace& trace, const std::vector<OpResult>& results);

/// kernels.csv: one row per operator a cycle-level GPU model ran (those with kernel metrics);
/// empty when there are none.
std::string format_kernels_csv(const Trace& trace, const std::vector<OpResult>& results);

}  // namespace sim
