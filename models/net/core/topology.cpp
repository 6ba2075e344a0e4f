// SPDX-License-Identifier: MIT
#include "models/net/core/topology.h"

#include <boost/range/iterator_range.hpp>

#include <algorithm>
#include <limits>
#include <queue>
#include <stdexcept>

namespace sim::net {

uint32_t Topology::add_node(NodeKind kind, const std::string& name) {
    if (final_) throw std::logic_error("topology changed after finalise()");
    const auto v = static_cast<uint32_t>(boost::add_vertex(Node{kind, name}, graph_));
    if (kind == NodeKind::Gpu) gpus_.push_back(v);
    return v;
}

uint32_t Topology::add_gpu(const std::string& name) {
    return add_node(NodeKind::Gpu, name);
}

uint32_t Topology::add_switch(const std::string& name) {
    return add_node(NodeKind::Switch, name);
}

void Topology::connect(uint32_t a, uint32_t b, const LinkParams& link) {
    if (final_) throw std::logic_error("topology changed after finalise()");
    const size_t n = node_count();
    if (a >= n || b >= n) throw std::invalid_argument("link to a node that does not exist");
    if (a == b) throw std::invalid_argument("link from " + graph_[a].name + " to itself");
    if (!(link.bandwidth > 0)) throw std::invalid_argument(link.kind + ": bandwidth must be > 0");
    if (!(link.efficiency > 0 && link.efficiency <= 1))
        throw std::invalid_argument(link.kind + ": efficiency must be in (0, 1]");
    if (!(link.latency >= 0)) throw std::invalid_argument(link.kind + ": latency must be >= 0");
    for (const auto& [from, to] : {std::pair{a, b}, std::pair{b, a}}) {
        const auto id = static_cast<uint32_t>(links_.size());
        boost::add_edge(from, to, id, graph_);
        links_.push_back(link);
        ends_.emplace_back(from, to);
    }
}

void Topology::finalise() {
    const size_t g = gpus_.size();
    if (g == 0) throw std::invalid_argument("the topology has no GPUs");
    routes_.assign(g * g, {});
    constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();
    std::vector<uint32_t> via(node_count());
    for (size_t a = 0; a < g; ++a) {
        // Breadth-first search from GPU a, recording the link each node was first reached by.
        // Out edges are visited in insertion order, so routes depend on nothing else.
        std::fill(via.begin(), via.end(), kNone);
        std::vector<char> seen(node_count(), 0);
        std::queue<uint32_t> frontier;
        frontier.push(gpus_[a]);
        seen[gpus_[a]] = 1;
        while (!frontier.empty()) {
            const uint32_t v = frontier.front();
            frontier.pop();
            for (const auto e : boost::make_iterator_range(boost::out_edges(v, graph_))) {
                const auto w = static_cast<uint32_t>(boost::target(e, graph_));
                if (seen[w]) continue;
                seen[w] = 1;
                via[w] = boost::get(boost::edge_index, graph_, e);
                frontier.push(w);
            }
        }
        for (size_t b = 0; b < g; ++b) {
            if (a == b) continue;
            std::vector<uint32_t>& path = routes_[a * g + b];
            for (uint32_t v = gpus_[b]; v != gpus_[a];) {
                if (via[v] == kNone) {
                    throw std::invalid_argument(graph_[gpus_[a]].name + " cannot reach " +
                                                graph_[gpus_[b]].name +
                                                ": the topology is not connected");
                }
                path.push_back(via[v]);
                v = ends_[via[v]].first;
            }
            std::reverse(path.begin(), path.end());
        }
    }
    final_ = true;
}

const std::vector<uint32_t>& Topology::route(uint32_t rank_a, uint32_t rank_b) const {
    if (!final_) throw std::logic_error("route() before finalise()");
    return routes_[size_t{rank_a} * gpus_.size() + rank_b];
}

}  // namespace sim::net
