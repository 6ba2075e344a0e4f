// SPDX-License-Identifier: MIT
// Collectives as the steps an NCCL-style library runs: ring AllReduce (ReduceScatter then
// AllGather, 2(P-1) steps of M/P), ring AllGather and ReduceScatter (P-1 steps), a pipelined
// binary-tree AllReduce (reduce up, broadcast down, in chunks), AllToAll (every pair at once)
// and hierarchical AllReduce (ReduceScatter inside each node, AllReduce across nodes per local
// rank, AllGather inside). Each step's flows run concurrently on a FlowNetwork; a step ends when
// its last flow arrives, plus a fixed software latency per step. Pure C++.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/net/core/flow_network.h"

namespace sim::net {

enum class Collective { AllReduce, AllGather, ReduceScatter, AllToAll };
enum class Algorithm { Ring, Tree, Hierarchical };

struct CollectiveParams {
    double step_latency = 5e-6;   ///< s of software and synchronisation per step, >= 0
    double tree_chunk = 1 << 20;  ///< bytes per pipelined tree chunk, > 0
    uint32_t ranks_per_node = 1;  ///< for Hierarchical: consecutive ranks share a node
};

struct CollectiveResult {
    double time = 0;                 ///< s
    double algbw = 0;                ///< size / time, B/s (nccl-tests)
    double busbw = 0;                ///< algbw × the collective's bus factor, B/s (nccl-tests)
    double bytes_sent_per_rank = 0;  ///< the most any rank sent, B
    uint64_t steps = 0;
    std::vector<double> link_bytes;  ///< per directed link
};

/// nccl-tests' bus-bandwidth factor: 2(n-1)/n for AllReduce, (n-1)/n for the others.
double bus_factor(Collective c, uint32_t ranks);

/// Why the algorithm cannot run the collective on `ranks` GPUs (empty when it can): trees and
/// hierarchies are AllReduce algorithms, and a hierarchy needs whole nodes of ranks.
std::string unsupported(Collective c, Algorithm a, uint32_t ranks, const CollectiveParams& params);

/// Runs collective c of `bytes` (the per-rank buffer, as nccl-tests counts size) over every GPU
/// of topology. Throws std::invalid_argument for a combination that does not exist (a tree
/// AllGather) or a hierarchical run whose ranks do not split into whole nodes.
CollectiveResult run_collective(const Topology& topology,
                                Collective c,
                                Algorithm a,
                                double bytes,
                                const CollectiveParams& params);

Collective parse_collective(const std::string& s);  ///< throws std::invalid_argument
Algorithm parse_algorithm(const std::string& s);    ///< throws std::invalid_argument
std::string to_string(Collective c);
std::string to_string(Algorithm a);

}  // namespace sim::net
