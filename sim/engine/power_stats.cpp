// SPDX-License-Identifier: MIT
#include "sim/engine/power_stats.h"

#include <algorithm>

#include "sim/stats/group.h"

namespace sim {

void publish_power(StatGroup& g,
                   const std::vector<OpResult>& results,
                   double total_joules,
                   double sim_seconds) {
    double limit = 0, peak = 0, limited_time = 0, busy = 0, clock_time = 0, clock_min = 0;
    uint64_t limited = 0;
    for (const OpResult& r : results) {
        limit = std::max(limit, r.power_limit);
        const double seconds = to_seconds(r.end - r.start);
        if (seconds > 0) peak = std::max(peak, r.static_power + r.energy.dynamic() / seconds);
        if (r.power_limited) {
            ++limited;
            limited_time += seconds;
        }
        if (r.clock_hz > 0) {
            busy += seconds;
            clock_time += r.clock_hz * seconds;
            clock_min = clock_min > 0 ? std::min(clock_min, r.clock_hz) : r.clock_hz;
        }
    }
    g.add_scalar("limit", "W", "the device's power limit (power.tdp); 0: none").set(limit);
    g.add_scalar("average", "W", "total energy / simulated time")
        .set(sim_seconds > 0 ? total_joules / sim_seconds : 0.0);
    g.add_scalar("peak_op", "W", "the highest average power of one operator").set(peak);
    g.add_counter("limited_ops", "count", "operators the power limit slowed (clock lowered)") +=
        limited;
    g.add_scalar("limited_time", "s", "summed time of those operators").set(limited_time);
    g.add_scalar("limited_share", "ratio", "their share of summed operator time on the SMs")
        .set(busy > 0 ? limited_time / busy : 0.0);
    g.add_scalar("clock_mean", "Hz", "SM clock averaged over the time of operators on the SMs")
        .set(busy > 0 ? clock_time / busy : 0.0);
    g.add_scalar("clock_min", "Hz", "the lowest SM clock an operator ran at").set(clock_min);
}

}  // namespace sim
