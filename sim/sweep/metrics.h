// SPDX-License-Identifier: MIT
// Reads an experiment's metrics from one point's output directory: a number at a dotted path
// of stats.json (a stat's "value" is stepped into: run.sim_time, run.op_time.p99), or an
// aggregate (sum, mean, min, max, count) of an ops.csv column over the rows that match.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/sweep/experiment.h"

namespace sim::sweep {

struct MetricValue {
    std::optional<double> value;  ///< empty: no value (no matching rows, or an error)
    std::string error;            ///< why there is none when the metric itself is wrong
};

/// Every metric of the experiment for the output in out_dir, in order. Reads each file once.
std::vector<MetricValue> read_metrics(const std::vector<Metric>& metrics,
                                      const std::string& out_dir);

}  // namespace sim::sweep
