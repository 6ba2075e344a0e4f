// SPDX-License-Identifier: MIT
// Publishes an HBM run: totals (bytes, bandwidth, utilisation of peak, read/write latency
// mean/p50/p99, row-buffer hit/miss/conflict rates, queue occupancy, refresh time share,
// energy by event) and the same per pseudo-channel.
#pragma once

#include "models/hbm/core/traffic.h"
#include "models/hbm/hbm_params.h"
#include "sim/stats/group.h"

namespace sim::hbm {

/// Energy the run's events cost: ACTs, data bits read and written, REFs (J).
double hbm_energy(const HbmParams& params, const HbmSystem& system);

void publish_hbm_run(StatGroup& g,
                     const HbmParams& params,
                     const HbmSystem& system,
                     const TrafficResult& r);

}  // namespace sim::hbm
