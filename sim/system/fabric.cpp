// SPDX-License-Identifier: MIT
#include "sim/system/fabric.h"

#include <deque>
#include <limits>
#include <map>

namespace sim::system {

void route_fabric(const std::vector<FabricNode>& nodes) {
    constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();
    const size_t n = nodes.size();
    // Which node each port belongs to.
    std::map<const tlm_util::LinkPort*, uint32_t> owner;
    for (uint32_t i = 0; i < n; ++i) {
        for (const tlm_util::LinkPort* p : nodes[i].node->link_ports())
            owner[p] = i;
    }
    const auto peer_node = [&](const tlm_util::LinkPort* p) -> uint32_t {
        if (!p->peer()) return kNone;
        auto it = owner.find(p->peer());
        return it == owner.end() ? kNone : it->second;
    };
    // hops[d][i]: links from node i to device d, through forwarding nodes only.
    std::vector<std::vector<uint32_t>> hops(n, std::vector<uint32_t>(n, kNone));
    for (uint32_t d = 0; d < n; ++d) {
        if (nodes[d].node->forwards()) continue;
        std::deque<uint32_t> frontier{d};
        hops[d][d] = 0;
        while (!frontier.empty()) {
            const uint32_t at = frontier.front();
            frontier.pop_front();
            if (at != d && !nodes[at].node->forwards()) continue;
            // Links are symmetric: whoever is wired to `at` reaches d in one more hop.
            for (const tlm_util::LinkPort* p : nodes[at].node->link_ports()) {
                const uint32_t m = peer_node(p);
                if (m == kNone || hops[d][m] != kNone) continue;
                hops[d][m] = hops[d][at] + 1;
                frontier.push_back(m);
            }
        }
    }
    tlm_util::LinkRoutes base;
    for (uint32_t i = 0; i < n; ++i) {
        if (!nodes[i].node->forwards()) base.ids[nodes[i].name] = i;
    }
    for (uint32_t i = 0; i < n; ++i) {
        tlm_util::LinkRoutes r = base;
        r.self = i;
        r.to.resize(n);
        for (uint32_t d = 0; d < n; ++d) {
            if (nodes[d].node->forwards()) continue;
            // A port starts a path to d when its peer is d (and not this node) or a forwarding
            // node that reaches d; the shortest of them win.
            uint32_t best = kNone;
            std::vector<std::pair<tlm_util::LinkPort*, uint32_t>> candidates;
            for (tlm_util::LinkPort* p : nodes[i].node->link_ports()) {
                const uint32_t m = peer_node(p);
                if (m == kNone) continue;
                uint32_t cost = kNone;
                if (m == d && m != i)
                    cost = 1;
                else if (nodes[m].node->forwards() && hops[d][m] != kNone)
                    cost = hops[d][m] + 1;
                if (cost == kNone) continue;
                candidates.push_back({p, cost});
                best = std::min(best, cost);
            }
            std::string kind;
            for (const auto& [p, cost] : candidates) {
                if (cost != best) continue;
                // A device keeps to the first kind of port it lists; a switch uses them all.
                if (!nodes[i].node->forwards()) {
                    if (kind.empty()) kind = p->kind();
                    if (kind != p->kind()) continue;
                }
                r.to[d].push_back(p);
            }
        }
        nodes[i].node->set_routes(std::move(r));
    }
}

}  // namespace sim::system
