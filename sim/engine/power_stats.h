// SPDX-License-Identifier: MIT
// run.power.*: what the power limit did to a run. Each op reports the SM clock it ran at and
// whether the clock governor lowered it (models/energy/core/clock_governor.h); this sums them.
#pragma once

#include <vector>

#include "sim/registry/op_model.h"

namespace sim {

class StatGroup;

/// Publishes limit, average, peak_op, limited_ops, limited_time, limited_share, clock_mean and
/// clock_min into g. total_joules and sim_seconds are the run's (run.energy.total, sim_time).
void publish_power(StatGroup& g,
                   const std::vector<OpResult>& results,
                   double total_joules,
                   double sim_seconds);

}  // namespace sim
