// SPDX-License-Identifier: MIT
// Collectives as NCCL runs them (models/net/core/nccl.h): the message is split over channels,
// and each channel moves it chunk by chunk in steps, every step paying its protocol's
// synchronisation. Algorithms:
//   - ring: AllReduce in 2(P-1) steps per loop of P chunks (ReduceScatter then AllGather),
//     AllGather and ReduceScatter in P-1;
//   - tree: AllReduce up and down a chain inside a node and two complementary binary trees
//     across nodes (NCCL's double binary tree), pipelined chunk by chunk;
//   - nvls: AllReduce on an NVSwitch that reduces (multimem.ld_reduce) and multicasts
//     (multimem.st) itself, NVLink SHARP;
//   - hierarchical: ReduceScatter inside each node, AllReduce across nodes per local rank,
//     AllGather inside, as flows with a fixed step latency;
//   - AllToAll: a send and a receive to and from every peer at once, as NCCL's send/receive
//     kernel runs them (models/net/core/p2p.h).
// The protocol (Simple, LL, LL128) and, with Algorithm::Auto, the algorithm are chosen per size
// as NCCL's tuner chooses them, by its own estimate (nccl_tuner.h), or as the fastest simulated
// (Choice::Fastest). Each step's flows run concurrently on a FlowNetwork. Pure C++.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/net/core/flow_network.h"
#include "models/net/core/nccl.h"

namespace sim::net {

enum class Collective { AllReduce, AllGather, ReduceScatter, AllToAll };
enum class Algorithm { Ring, Tree, Nvls, Hierarchical, Auto };

struct CollectiveParams {
    double step_latency = 5e-6;   ///< s per hierarchical step, >= 0
    uint32_t ranks_per_node = 1;  ///< consecutive ranks share a node
    NcclParams nccl;              ///< channels, protocols and latencies of ring, tree and nvls
};

/// How auto picks among the algorithms and protocols that can run a collective: NCCL's way,
/// the lowest of NCCL's own estimates (models/net/core/nccl_tuner.h), then simulated; or the
/// fastest of them all, each simulated (an ideal tuner, what a better NCCL could reach).
enum class Choice { Nccl, Fastest };

/// One collective to run: which, how, and the per-rank buffer size as nccl-tests counts it.
struct CollectiveRequest {
    Collective collective = Collective::AllReduce;
    Algorithm algorithm = Algorithm::Auto;
    std::optional<Protocol> protocol;  ///< nullopt: chosen as `choice` says; an AllToAll's
                                       ///< sends choose their own (P2pParams::ll_threshold)
    double bytes = 0;                  ///< B, > 0
    Choice choice = Choice::Nccl;
};

struct CollectiveResult {
    double time = 0;                 ///< s
    double algbw = 0;                ///< size / time, B/s (nccl-tests)
    double busbw = 0;                ///< algbw × the collective's bus factor, B/s (nccl-tests)
    double bytes_sent_per_rank = 0;  ///< the most any rank sent, B
    uint64_t steps = 0;
    std::vector<double> link_bytes;         ///< per directed link
    Algorithm algorithm = Algorithm::Ring;  ///< the one that ran (never Auto)
    std::optional<Protocol> protocol;       ///< the one that ran (nullopt: not an NCCL algorithm)
    uint32_t channels = 0;                  ///< channels (CTAs) it ran on
};

/// The nodes `ranks` fill, ranks_per_node each; 1 when they do not fill whole nodes.
uint32_t node_count(uint32_t ranks, uint32_t ranks_per_node);

/// nccl-tests' bus-bandwidth factor: 2(n-1)/n for AllReduce, (n-1)/n for the others.
double bus_factor(Collective c, uint32_t ranks);

/// Why the algorithm cannot run the collective on the topology's GPUs (empty when it can):
/// trees, NVLS and hierarchies are AllReduce algorithms, NVLS needs every GPU one hop from a
/// single NVSwitch and nccl.nvls_channels > 0, a hierarchy needs whole nodes of ranks, and
/// AllToAll is a direct exchange (ring or auto).
std::string unsupported(const Topology& topology,
                        Collective c,
                        Algorithm a,
                        const CollectiveParams& params);

/// Runs the request over every GPU of topology. Throws std::invalid_argument for a combination
/// that does not exist (see unsupported) or a size that is not positive.
CollectiveResult run_collective(const Topology& topology,
                                const CollectiveRequest& request,
                                const CollectiveParams& params);

Collective parse_collective(const std::string& s);  ///< throws std::invalid_argument
Choice parse_choice(const std::string& s);          ///< nccl or fastest; throws invalid_argument
std::string to_string(Choice c);
Algorithm parse_algorithm(const std::string& s);  ///< throws std::invalid_argument
std::string to_string(Collective c);
std::string to_string(Algorithm a);

}  // namespace sim::net
