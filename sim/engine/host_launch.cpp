// SPDX-License-Identifier: MIT
#include "sim/engine/host_launch.h"

#include <map>
#include <string>

#include "sim/core/error.h"

namespace sim {

namespace {
constexpr uint64_t kLatestPs = uint64_t{1} << 61;
}  // namespace

std::vector<TimePs> host_issue_times(const Trace& trace, const std::vector<OpModel*>& models) {
    SIM_ASSERT(models.size() == trace.ops.size(), "one model per op");
    struct Host {
        TimePs clock{0};              // when the host's next call may begin
        bool graph_launched = false;  // the one graph launch has been made
    };
    std::map<std::string, Host> hosts;  // one thread per device
    std::vector<TimePs> issued(trace.ops.size(), TimePs{0});
    for (const Op& op : trace.ops) {
        const HostLaunch cost = models[op.index]->host_launch(op);
        Host& host = hosts[op.device];
        if (cost.once.value() > 0 && !host.graph_launched) {
            host.clock = host.clock + cost.once;
            host.graph_launched = true;
        }
        host.clock = host.clock + cost.per_op;
        // TimePs and sc_time are 64-bit picoseconds; keep a margin below the wrap.
        if (host.clock.value() > kLatestPs) {
            throw ConfigError(
                op.where, "kind",
                "operator '" + op.name + "' would be launched beyond the simulator's time range");
        }
        issued[op.index] = host.clock;
    }
    return issued;
}

}  // namespace sim
