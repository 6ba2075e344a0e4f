// SPDX-License-Identifier: MIT
#include "models/net/core/collective.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace sim::net {

namespace {

// Accumulates steps: each distinct step is simulated once and counted `times` times.
class StepRunner {
  public:
    StepRunner(const Topology& t, double step_latency, uint32_t ranks)
        : net_(t), step_latency_(step_latency), sent_(ranks, 0.0) {}

    void step(const std::vector<Flow>& flows, uint64_t times) {
        if (times == 0 || flows.empty()) return;
        const double t = net_.run(flows, static_cast<double>(times));
        time_ += static_cast<double>(times) * (t + step_latency_);
        steps_ += times;
        for (const Flow& f : flows)
            sent_[f.src] += f.bytes * static_cast<double>(times);
    }
    CollectiveResult result() const {
        CollectiveResult r;
        r.time = time_;
        r.steps = steps_;
        r.link_bytes = net_.link_bytes();
        r.bytes_sent_per_rank = *std::max_element(sent_.begin(), sent_.end());
        return r;
    }

  private:
    FlowNetwork net_;
    double step_latency_;
    double time_ = 0;
    uint64_t steps_ = 0;
    std::vector<double> sent_;
};

// One ring step over the ranks listed: each sends `bytes` to the next.
std::vector<Flow> ring_step(const std::vector<uint32_t>& ring, double bytes) {
    std::vector<Flow> flows;
    if (ring.size() < 2) return flows;
    for (size_t i = 0; i < ring.size(); ++i)
        flows.push_back({ring[i], ring[(i + 1) % ring.size()], bytes});
    return flows;
}

// Several rings at once (hierarchical phases): the union of their steps.
std::vector<Flow> rings_step(const std::vector<std::vector<uint32_t>>& rings, double bytes) {
    std::vector<Flow> flows;
    for (const auto& r : rings) {
        const auto f = ring_step(r, bytes);
        flows.insert(flows.end(), f.begin(), f.end());
    }
    return flows;
}

}  // namespace

std::string unsupported(Collective c, Algorithm a, uint32_t ranks, const CollectiveParams& params) {
    if (a == Algorithm::Tree && c != Collective::AllReduce)
        return "the tree algorithm is an AllReduce algorithm";
    if (a == Algorithm::Hierarchical) {
        if (c != Collective::AllReduce)
            return "the hierarchical algorithm is an AllReduce algorithm";
        if (params.ranks_per_node == 0 || ranks % params.ranks_per_node != 0)
            return "hierarchical AllReduce needs whole nodes of ranks";
    }
    return {};
}

double bus_factor(Collective c, uint32_t ranks) {
    const double n = ranks;
    return c == Collective::AllReduce ? 2 * (n - 1) / n : (n - 1) / n;
}

CollectiveResult run_collective(const Topology& topology,
                                Collective c,
                                Algorithm a,
                                double bytes,
                                const CollectiveParams& params) {
    const auto p = static_cast<uint32_t>(topology.gpus().size());
    if (!(bytes > 0)) throw std::invalid_argument("message size must be positive");
    if (!(params.step_latency >= 0)) throw std::invalid_argument("step latency must be >= 0");
    if (const std::string why = unsupported(c, a, p, params); !why.empty())
        throw std::invalid_argument(why);
    StepRunner run(topology, params.step_latency, p);
    std::vector<uint32_t> all(p);
    for (uint32_t i = 0; i < p; ++i)
        all[i] = i;
    const double shard = bytes / p;

    if (p < 2) {
        // Nothing to exchange.
    } else if (a == Algorithm::Ring) {
        switch (c) {
            case Collective::AllReduce: run.step(ring_step(all, shard), 2 * (p - 1)); break;
            case Collective::AllGather:
            case Collective::ReduceScatter: run.step(ring_step(all, shard), p - 1); break;
            case Collective::AllToAll: {
                std::vector<Flow> flows;
                for (uint32_t s = 0; s < p; ++s) {
                    for (uint32_t d = 0; d < p; ++d) {
                        if (s != d) flows.push_back({s, d, shard});
                    }
                }
                run.step(flows, 1);
                break;
            }
        }
    } else if (a == Algorithm::Tree) {
        if (!(params.tree_chunk > 0)) throw std::invalid_argument("tree chunk must be positive");
        // A binary tree in heap order. Pipelined: with k chunks and depth d, each direction
        // takes d + k - 1 steps in which every tree edge carries one chunk.
        const double chunks = std::ceil(bytes / params.tree_chunk);
        const double chunk = bytes / chunks;
        uint32_t depth = 0;
        while ((uint64_t{2} << depth) - 1 < p)
            ++depth;
        std::vector<Flow> up, down;
        for (uint32_t i = 1; i < p; ++i) {
            up.push_back({i, (i - 1) / 2, chunk});
            down.push_back({(i - 1) / 2, i, chunk});
        }
        const auto steps = static_cast<uint64_t>(depth + chunks - 1);
        run.step(up, steps);
        run.step(down, steps);
    } else {
        const uint32_t local = params.ranks_per_node;
        const uint32_t nodes = p / local;
        std::vector<std::vector<uint32_t>> in_node(nodes), across(local);
        for (uint32_t r = 0; r < p; ++r) {
            in_node[r / local].push_back(r);
            across[r % local].push_back(r);
        }
        // ReduceScatter inside each node, AllReduce of each shard across nodes (one ring per
        // local rank, all at once), AllGather inside each node.
        const double node_shard = bytes / local;
        run.step(rings_step(in_node, node_shard), local - 1);
        run.step(rings_step(across, node_shard / nodes), 2 * (nodes - 1));
        run.step(rings_step(in_node, node_shard), local - 1);
    }
    CollectiveResult r = run.result();
    if (r.time > 0) {
        r.algbw = bytes / r.time;
        r.busbw = r.algbw * bus_factor(c, p);
    }
    return r;
}

Collective parse_collective(const std::string& s) {
    if (s == "allreduce") return Collective::AllReduce;
    if (s == "allgather") return Collective::AllGather;
    if (s == "reducescatter") return Collective::ReduceScatter;
    if (s == "alltoall") return Collective::AllToAll;
    throw std::invalid_argument("'" + s +
                                "' is not a collective; expected allreduce, allgather, "
                                "reducescatter or alltoall");
}

Algorithm parse_algorithm(const std::string& s) {
    if (s == "ring") return Algorithm::Ring;
    if (s == "tree") return Algorithm::Tree;
    if (s == "hierarchical") return Algorithm::Hierarchical;
    throw std::invalid_argument("'" + s +
                                "' is not an algorithm; expected ring, tree or hierarchical");
}

std::string to_string(Collective c) {
    switch (c) {
        case Collective::AllReduce: return "allreduce";
        case Collective::AllGather: return "allgather";
        case Collective::ReduceScatter: return "reducescatter";
        case Collective::AllToAll: return "alltoall";
    }
    return "?";
}

std::string to_string(Algorithm a) {
    switch (a) {
        case Algorithm::Ring: return "ring";
        case Algorithm::Tree: return "tree";
        case Algorithm::Hierarchical: return "hierarchical";
    }
    return "?";
}

}  // namespace sim::net
