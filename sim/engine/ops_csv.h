// SPDX-License-Identifier: MIT
// ops.csv: one row per operator with its timing, work, intensity, achieved rates, the roof it
// is measured against, utilisations, bound and the fidelity that produced it.
#pragma once

#include <string>
#include <vector>

#include "sim/registry/op_model.h"
#include "sim/trace/op.h"

namespace sim {

/// The CSV text for a trace and its per-op results (same order, same size).
std::string format_ops_csv(const Trace& trace, const std::vector<OpResult>& results);

}  // namespace sim
