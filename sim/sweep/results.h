// SPDX-License-Identifier: MIT
// results.csv of a sweep: one row per point, in expansion order. Columns: point (its index),
// one per axis (the value as written in the experiment), one per metric, status (ok or failed),
// error (the line that says why, for a failed point), wall_s (the point's wall time; the only
// column that differs between two sweeps of the same inputs) and dir (its output directory,
// relative to the sweep's).
#pragma once

#include <string>
#include <vector>

#include "sim/sweep/experiment.h"
#include "sim/sweep/sweep_dir.h"

namespace sim::sweep {

struct PointResult {
    bool ok = false;
    std::string error;
};

/// Gathers every point's outcome and metrics (keys[i] names point i's directory), writes
/// results.csv atomically and returns the outcomes.
std::vector<PointResult> write_results(const Experiment& experiment,
                                       const std::vector<Point>& points,
                                       const std::vector<std::string>& keys,
                                       const SweepDir& dir);

}  // namespace sim::sweep
