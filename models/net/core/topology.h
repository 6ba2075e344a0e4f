// SPDX-License-Identifier: MIT
// A network of GPUs, switches and NICs joined by full-duplex links, held in a Boost.Graph
// adjacency list: one directed edge per link direction, each with its bandwidth, latency and
// protocol efficiency. Routes between GPUs are fewest-hop paths (breadth-first search), the
// same for every call, so that collectives are deterministic. Pure C++.
#pragma once

#include <boost/graph/adjacency_list.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace sim::net {

enum class NodeKind { Gpu, Switch };

struct LinkParams {
    std::string kind;       ///< e.g. "nvlink4", "pcie5", "ib_ndr" (reports group by it)
    double bandwidth = 0;   ///< raw B/s per direction, > 0
    double efficiency = 1;  ///< share of the raw rate left after protocol overhead, (0, 1]
    double latency = 0;     ///< s per traversal (wire, SerDes, switch hop), >= 0
    double effective_bandwidth() const { return bandwidth * efficiency; }
};

class Topology {
  public:
    struct Node {
        NodeKind kind = NodeKind::Gpu;
        std::string name;
    };
    using Graph = boost::adjacency_list<boost::vecS,
                                        boost::vecS,
                                        boost::directedS,
                                        Node,
                                        boost::property<boost::edge_index_t, uint32_t>>;

    /// Adds a node and returns its index.
    uint32_t add_gpu(const std::string& name);
    uint32_t add_switch(const std::string& name);
    /// A full-duplex link: two directed edges with the same parameters. Throws
    /// std::invalid_argument for a bad link (no bandwidth, a node that does not exist, a
    /// self-loop).
    void connect(uint32_t a, uint32_t b, const LinkParams& link);

    /// GPUs in the order they were added (rank order).
    const std::vector<uint32_t>& gpus() const { return gpus_; }
    size_t link_count() const { return links_.size(); }  ///< directed links
    const LinkParams& link(uint32_t id) const { return links_[id]; }
    uint32_t link_source(uint32_t id) const { return ends_[id].first; }
    uint32_t link_target(uint32_t id) const { return ends_[id].second; }
    const Node& node(uint32_t v) const { return graph_[v]; }
    size_t node_count() const { return boost::num_vertices(graph_); }

    /// Builds the routing table: fewest-hop paths between every pair of GPUs. Throws
    /// std::invalid_argument naming the first pair that cannot reach each other.
    void finalise();
    /// The directed links from GPU rank a to GPU rank b (empty when a == b); finalise() first.
    const std::vector<uint32_t>& route(uint32_t rank_a, uint32_t rank_b) const;

  private:
    uint32_t add_node(NodeKind kind, const std::string& name);

    Graph graph_;
    std::vector<LinkParams> links_;
    std::vector<std::pair<uint32_t, uint32_t>> ends_;
    std::vector<uint32_t> gpus_;
    std::vector<std::vector<uint32_t>> routes_;  ///< [rank_a * gpus + rank_b]
    bool final_ = false;
};

}  // namespace sim::net
