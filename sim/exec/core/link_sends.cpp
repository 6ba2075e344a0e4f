// SPDX-License-Identifier: MIT
#include "sim/exec/core/link_sends.h"

#include <algorithm>

#include "sim/core/error.h"

namespace sim::exec {

std::vector<std::string> group_peers(const Op& op, SendPattern pattern) {
    if (const auto* m = std::get_if<MemcpyParams>(&op.params); m && m->direction == "p2p")
        return {m->to};
    const std::vector<std::string>& g = op.group;
    if (g.size() < 2) return {};
    const auto at = std::find(g.begin(), g.end(), op.device);
    SIM_ASSERT(at != g.end(), "a collective copy on a device outside its group");
    const size_t rank = size_t(at - g.begin()), n = g.size();
    switch (pattern) {
        case SendPattern::Ring: return {g[(rank + 1) % n]};
        case SendPattern::Chain:
            if (n == 2) return {g[(rank + 1) % n]};
            return {g[(rank + 1) % n], g[(rank + n - 1) % n]};
        case SendPattern::AllToAll: {
            std::vector<std::string> out;
            for (size_t k = 1; k < n; ++k)
                out.push_back(g[(rank + k) % n]);
            return out;
        }
        case SendPattern::ThroughSwitch: return {op.device};
    }
    return {};
}

std::vector<LinkSend> group_sends(const Op& op,
                                  SendPattern pattern,
                                  double bytes,
                                  const DeviceExecutor& device) {
    // Without a switch that reaches this device back (devices wired directly to each other),
    // in-switch reduction is not there to use: the ranks send to each other as a ring does.
    if (pattern == SendPattern::ThroughSwitch && !device.link_id_of(op.device))
        pattern = SendPattern::Ring;
    const std::vector<std::string> peers = group_peers(op, pattern);
    std::vector<LinkSend> out;
    if (peers.empty() || !(bytes > 0)) return out;
    for (const std::string& p : peers) {
        const std::optional<uint32_t> id = device.link_id_of(p);
        SIM_ASSERT(id.has_value(), "no link path from " + op.device + " to " + p);
        out.push_back({*id, bytes / double(peers.size())});
    }
    return out;
}

}  // namespace sim::exec
