// SPDX-License-Identifier: MIT
#include "models/net/core/collective.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "models/net/core/nccl_tuner.h"
#include "models/net/core/p2p.h"

namespace sim::net {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Accumulates steps: each distinct step is simulated once and counted `times` times. A step
// moves its data in `rounds` synchronisation rounds (slices); each round ends when its last
// flow arrives, or after the protocol's hop latency when that is longer than the wire's
// (NCCL's hop latencies include the wire).
class StepRunner {
  public:
    StepRunner(const Topology& t, uint32_t ranks) : net_(t), sent_(ranks, 0.0) {}

    void step(const std::vector<Flow>& flows,
              uint64_t times,
              double hop_latency,
              uint32_t rounds = 1) {
        if (times == 0 || flows.empty()) return;
        const double t = net_.run(flows, static_cast<double>(times));
        const double wire = net_.longest_path_latency();
        time_ += static_cast<double>(times) * (t + rounds * std::max(0.0, hop_latency - wire));
        steps_ += times;
        for (const Flow& f : flows)
            sent_[f.src] += f.bytes * static_cast<double>(times);
    }
    void add_time(double t) { time_ += t; }
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
    double time_ = 0;
    uint64_t steps_ = 0;
    std::vector<double> sent_;
};

// One ring step over the ranks listed: each sends `bytes` to the next.
std::vector<Flow> ring_step(const std::vector<uint32_t>& ring, double bytes, double cap = kInf) {
    std::vector<Flow> flows;
    if (ring.size() < 2) return flows;
    for (size_t i = 0; i < ring.size(); ++i)
        flows.push_back({ring[i], ring[(i + 1) % ring.size()], bytes, cap});
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

// The rate cap of `channels` CTAs in wire bytes per second (kInf when they are not a limit).
double channel_cap(double per_channel, uint32_t channels, Protocol p) {
    return per_channel > 0 ? per_channel * channels / wire_efficiency(p) : kInf;
}

// How many groups a multi-node collective's channels split into, one per NIC of a node: NCCL
// spreads its channels over the NICs, each channel's ring or tree entering and leaving a node
// through one NIC (src/graph/search.cc, docs/references.md [nccl]). Here group k crosses
// between nodes at local GPU k (the GPU before it in the group's ring hands its data over
// NVLink to GPU k's NIC, as NCCL's PXN does). One group inside one node.
uint32_t nic_groups(uint32_t ranks, uint32_t local, uint32_t channels) {
    if (local < 2 || ranks % local != 0 || ranks / local < 2) return 1;
    return std::min(channels, local);
}

// The channels of group k of `groups`: an even split, the first groups taking the remainder.
uint32_t group_channels(uint32_t channels, uint32_t groups, uint32_t k) {
    return channels / groups + (k < channels % groups ? 1 : 0);
}

// The channels of every group but group k (all of them when there is no group k).
uint32_t channels_but_group(uint32_t channels, uint32_t groups, uint32_t k) {
    return channels - (k < groups ? group_channels(channels, groups, k) : 0);
}

// One ring step of `channels` channels, each sending `chunk` of data to the next rank, grouped
// over the nodes' NICs: group k's ring visits each node's GPUs from local GPU k, so each link
// inside a node carries every group but the one that leaves the node there, and group k
// leaves node n from local GPU k - 1 for GPU k of node n + 1. The flows are built merged,
// one per pair of GPUs.
std::vector<Flow> grouped_ring_step(uint32_t ranks,
                                    uint32_t local,
                                    uint32_t channels,
                                    double chunk,
                                    Protocol proto,
                                    double per_channel_rate) {
    const double eff = wire_efficiency(proto);
    const uint32_t groups = nic_groups(ranks, local, channels);
    const auto flow = [&](uint32_t from, uint32_t to, uint32_t c) {
        return Flow{from, to, c * chunk / eff, channel_cap(per_channel_rate, c, proto)};
    };
    std::vector<Flow> flows;
    if (groups == 1) {
        for (uint32_t r = 0; r < ranks; ++r)
            flows.push_back(flow(r, (r + 1) % ranks, channels));
        return flows;
    }
    const uint32_t nodes = ranks / local;
    flows.reserve(size_t{nodes} * (local + groups));
    for (uint32_t n = 0; n < nodes; ++n) {
        for (uint32_t a = 0; a < local; ++a) {
            const uint32_t b = (a + 1) % local;
            const uint32_t c = channels_but_group(channels, groups, b);
            if (c > 0) flows.push_back(flow(n * local + a, n * local + b, c));
        }
        for (uint32_t k = 0; k < groups; ++k) {
            flows.push_back(flow(n * local + (k + local - 1) % local, (n + 1) % nodes * local + k,
                                 group_channels(channels, groups, k)));
        }
    }
    return flows;
}

// Ring: every channel moves its share of each rank's shard a chunk per step; a loop is one
// chunk through all the collective's steps; the last loop carries what is left.
CollectiveResult nccl_ring(
    const Topology& t, Collective c, Protocol proto, double bytes, const CollectiveParams& params) {
    const NcclParams& nccl = params.nccl;
    const auto p = static_cast<uint32_t>(t.gpus().size());
    const ProtocolParams& q = nccl.protocol(proto);
    const uint32_t nc = channels_for(bytes, nccl.ring_channels, q, proto == Protocol::LL ? p : 1);
    const uint64_t per_loop = c == Collective::AllReduce ? 2 * (p - 1) : p - 1;
    const double shard = bytes / (double(p) * nc);  // per rank and channel
    const double chunk = std::min(q.chunk, shard);
    const auto full = static_cast<uint64_t>(std::floor(shard / chunk * (1 + 1e-12)));
    const double rest = shard - double(full) * chunk;
    const uint32_t local = params.ranks_per_node;
    const double rate = q.channel_bandwidth;
    StepRunner run(t, p);
    run.add_time(nccl.launch_latency + q.base_latency);
    run.step(grouped_ring_step(p, local, nc, chunk, proto, rate), full * per_loop,
             q.ring_hop_latency, q.ring_slices);
    if (rest > 1e-9 * shard)
        run.step(grouped_ring_step(p, local, nc, rest, proto, rate), per_loop, q.ring_hop_latency,
                 q.ring_slices);
    // A chunk's trip round the ring meets the hops between nodes 2 x nodes times (AllReduce)
    // or nodes - 1 times, each slower by the network transport's proxy than a hop inside a node
    // (NCCL's count of inter-node steps, tuning.cc).
    const uint32_t nodes = node_count(p, local);
    if (nodes > 1) {
        const double crossings = c == Collective::AllReduce ? 2.0 * nodes : nodes - 1.0;
        run.add_time(crossings * std::max(0.0, q.net_ring_hop_latency - q.ring_hop_latency));
    }
    CollectiveResult r = run.result();
    r.channels = nc;
    return r;
}

// The data a tree channel moves per step: the protocol's chunk, halved while the message would
// give a channel too few chunks to fill the pipeline, as NCCL sizes it (enqueue.cc,
// computeColl): Simple keeps depth x 8 chunks down to 128 KiB, depth x 4 down to 64 KiB and
// depth down to 32 KiB; LL128 keeps 64 x s / ppn down to 128 KiB and 16 x s / ppn down to
// 32 KiB, s = 1 + log2(nodes) + ppn / 10; LL keeps its chunk.
double tree_chunk(Protocol proto,
                  double chunk,
                  double bytes,
                  uint32_t channels,
                  uint32_t depth,
                  uint32_t nodes,
                  uint32_t ppn) {
    const auto halve_while = [&](double chunks_wanted, double floor) {
        while (bytes / (channels * chunk) < chunks_wanted && chunk > floor)
            chunk /= 2;
    };
    if (proto == Protocol::Simple) {
        halve_while(depth * 8.0, 131072);
        halve_while(depth * 4.0, 65536);
        halve_while(depth, 32768);
    } else if (proto == Protocol::LL128) {
        uint32_t log_nodes = 0;
        while ((uint64_t{2} << log_nodes) <= nodes)
            ++log_nodes;
        const double steps = 1 + log_nodes + 0.1 * ppn;
        halve_while(steps * 64 / ppn, 131072);
        halve_while(steps * 16 / ppn, 32768);
    }
    return chunk;
}

// Tree AllReduce: a chain inside each node and, across nodes, two binary trees (heap order and
// its mirror) that each carry half the channels, as NCCL's double binary tree does. Chunks are
// pipelined: a chunk climbs one edge per step to the root and comes back down one edge per
// step. The first depth steps only carry chunks up and the last depth steps only carry them
// down; in between, every edge carries a chunk up and a chunk down each step.
CollectiveResult nccl_tree(const Topology& t,
                           Protocol proto,
                           double bytes,
                           const CollectiveParams& params) {
    const NcclParams& nccl = params.nccl;
    const auto p = static_cast<uint32_t>(t.gpus().size());
    const ProtocolParams& q = nccl.protocol(proto);
    const uint32_t nc = channels_for(bytes, nccl.tree_channels, q, 1);
    const uint32_t local = std::max<uint32_t>(1, std::min(params.ranks_per_node, p));
    const uint32_t nodes = p / local;
    uint32_t tree_depth = 0;
    while ((uint64_t{2} << tree_depth) - 1 < nodes)
        ++tree_depth;
    const uint32_t depth = (local - 1) + tree_depth;
    const double per_channel = bytes / nc;
    const double chunks = std::ceil(
        per_channel / tree_chunk(proto, q.tree_chunk, bytes, nc, depth, nodes, local) - 1e-9);
    const double chunk = per_channel / chunks;
    const double eff = wire_efficiency(proto);
    const double cap = channel_cap(q.tree_channel_bandwidth, nc, proto);
    std::vector<Flow> up, down;
    auto edge = [&](uint32_t child, uint32_t parent, double share) {
        const double b = nc * chunk * share / eff;
        up.push_back({child, parent, b, cap * share});
        down.push_back({parent, child, b, cap * share});
    };
    // Each group of channels (one per NIC, nic_groups) has local GPU k at the head of each
    // node's chain (k + 1 -> k, k + 2 -> k + 1, ...) and crosses between nodes there: each link
    // of a chain carries every group but the one whose head it would leave.
    const uint32_t groups = nic_groups(p, local, nc);
    const auto share = [&](uint32_t c) { return c == nc ? 1.0 : double(c) / nc; };
    for (uint32_t n = 0; n < nodes; ++n) {
        for (uint32_t a = 0; a < local; ++a) {
            const uint32_t c = channels_but_group(nc, groups, a);
            if (c > 0) edge(n * local + a, n * local + (a + local - 1) % local, share(c));
        }
    }
    for (uint32_t k = 0; k < groups; ++k) {
        const double half = 0.5 * share(group_channels(nc, groups, k));
        for (uint32_t n = 1; n < nodes; ++n) {
            edge(n * local + k, (n - 1) / 2 * local + k, half);
            edge((nodes - 1 - n) * local + k, (nodes - 1 - (n - 1) / 2) * local + k, half);
        }
    }
    std::vector<Flow> both = up;
    both.insert(both.end(), down.begin(), down.end());
    StepRunner run(t, p);
    run.add_time(nccl.launch_latency + q.base_latency);
    run.step(up, depth, q.tree_hop_latency);
    run.step(both, static_cast<uint64_t>(chunks) - 1, q.tree_hop_latency);
    run.step(down, depth, q.tree_hop_latency);
    // The levels between nodes, up and down, each slower by the network transport's proxy.
    run.add_time(2.0 * tree_depth * std::max(0.0, q.net_tree_hop_latency - q.tree_hop_latency));
    CollectiveResult r = run.result();
    r.channels = nc;
    return r;
}

// The switch every GPU reaches in one hop, or none.
std::optional<uint32_t> single_switch(const Topology& t) {
    const auto p = static_cast<uint32_t>(t.gpus().size());
    std::optional<uint32_t> sw;
    for (uint32_t a = 0; a < p; ++a) {
        for (uint32_t b = 0; b < p; ++b) {
            if (a == b) continue;
            const auto& route = t.route(a, b);
            if (route.size() != 2) return std::nullopt;
            const uint32_t via = t.link_target(route[0]);
            if (sw && *sw != via) return std::nullopt;
            sw = via;
        }
    }
    return sw;
}

// NVLS AllReduce: each rank owns 1/P of the buffer; per chunk the switch reads that chunk from
// all P GPUs and returns the sum (multimem.ld_reduce), then the owner stores the sum once and
// the switch writes it to all P (multimem.st). Every GPU's link so carries (P + 1) chunks each
// way per owner chunk round; each round ends with a barrier across the GPUs.
CollectiveResult nccl_nvls(const Topology& t, double bytes, const NcclParams& nccl) {
    const auto p = static_cast<uint32_t>(t.gpus().size());
    const uint32_t nc = nccl.nvls_channels;
    const double shard = bytes / (double(p) * nc);
    const double max_chunk = nvls_chunk_for(bytes, nc, p, nccl.nvls_chunk);
    const double rounds = std::ceil(shard / max_chunk);
    const double chunk = shard / rounds;
    const double per_round = nc * chunk * (p + 1);  // each way on every GPU's link
    double rate = kInf, wire = 0;
    std::vector<double> link_bytes(t.link_count(), 0.0);
    for (uint32_t g = 0; g < p; ++g) {
        const uint32_t up = t.route(g, (g + 1) % p)[0];
        const uint32_t down = t.route((g + 1) % p, g)[1];
        rate =
            std::min({rate, t.link(up).effective_bandwidth(), t.link(down).effective_bandwidth()});
        wire = std::max(wire, t.link(up).latency + t.link(down).latency);
        link_bytes[up] += per_round * rounds;
        link_bytes[down] += per_round * rounds;
    }
    CollectiveResult r;
    r.time = nccl.launch_latency + std::max(nccl.nvls_latency, wire) +
             rounds * (per_round / (rate * nccl.nvls_efficiency) + nccl.nvls_chunk_overhead);
    r.steps = static_cast<uint64_t>(rounds);
    r.link_bytes = std::move(link_bytes);
    r.bytes_sent_per_rank = per_round * rounds;
    r.channels = nc;
    return r;
}

// AllToAll as nccl-tests runs it: a send and a receive of bytes / P to and from every peer in
// one group (models/net/core/p2p.h). Every peer's pieces run at once on their own channels,
// each CTA running its works one after another; a piece streams through the protocol's steps
// with NCCL_STEPS of them in flight, so the protocol's step latency shows once per work, not
// per step. What a GPU sends to itself is a local copy and crosses no link.
CollectiveResult nccl_alltoall(const Topology& t, double bytes, const CollectiveParams& params) {
    const NcclParams& nccl = params.nccl;
    const auto p = static_cast<uint32_t>(t.gpus().size());
    const uint32_t nodes = node_count(p, params.ranks_per_node);
    const P2pPlan plan =
        p2p_plan(bytes / p, p, nodes, nccl.ring_channels, nccl.ll.enabled, nccl.p2p);
    const ProtocolParams& q = nccl.protocol(plan.protocol);
    const double eff = wire_efficiency(plan.protocol);
    // Each peer's pieces run on their own channels: the protocol's per-CTA limit (LL) caps them,
    // and what the channels carrying sends to other ranks can send is shared by the peers.
    double cap = channel_cap(q.channel_bandwidth, plan.pieces, plan.protocol);
    if (nccl.p2p.channel_bandwidth > 0)
        cap = std::min(cap, nccl.p2p.channel_bandwidth * plan.send_channels / (p - 1) / eff);
    std::vector<Flow> flows;
    flows.reserve(size_t{p} * (p - 1));
    for (uint32_t s = 0; s < p; ++s) {
        for (uint32_t d = 0; d < p; ++d) {
            if (s != d) flows.push_back({s, d, bytes / p / eff, cap});
        }
    }
    StepRunner run(t, p);
    run.add_time(nccl.launch_latency + q.base_latency);
    run.step(flows, 1, nodes > 1 ? q.net_ring_hop_latency : q.ring_hop_latency, plan.rounds);
    CollectiveResult r = run.result();
    r.channels = plan.channels;
    r.protocol = plan.protocol;
    return r;
}

CollectiveResult run_fixed(const Topology& t,
                           Collective c,
                           Algorithm a,
                           std::optional<Protocol> proto,
                           double bytes,
                           const CollectiveParams& params) {
    const auto p = static_cast<uint32_t>(t.gpus().size());
    CollectiveResult r;
    if (p < 2) {
        r.link_bytes.assign(t.link_count(), 0.0);
    } else if (c == Collective::AllToAll) {
        r = nccl_alltoall(t, bytes, params);
    } else if (a == Algorithm::Ring) {
        r = nccl_ring(t, c, *proto, bytes, params);
    } else if (a == Algorithm::Tree) {
        r = nccl_tree(t, *proto, bytes, params);
    } else if (a == Algorithm::Nvls) {
        r = nccl_nvls(t, bytes, params.nccl);
    } else {
        const uint32_t local = params.ranks_per_node;
        const uint32_t nodes = p / local;
        std::vector<std::vector<uint32_t>> in_node(nodes), across(local);
        for (uint32_t rank = 0; rank < p; ++rank) {
            in_node[rank / local].push_back(rank);
            across[rank % local].push_back(rank);
        }
        // ReduceScatter inside each node, AllReduce of each shard across nodes (one ring per
        // local rank, all at once), AllGather inside each node.
        StepRunner run(t, p);
        const double node_shard = bytes / local;
        const double lat = params.step_latency;
        run.step(rings_step(in_node, node_shard), local - 1, 0);
        run.step(rings_step(across, node_shard / nodes), 2 * (nodes - 1), 0);
        run.step(rings_step(in_node, node_shard), local - 1, 0);
        run.add_time(lat * double(2 * (local - 1) + 2 * (nodes - 1)));
        r = run.result();
    }
    r.algorithm = a;
    if (c != Collective::AllToAll) {
        r.protocol =
            a == Algorithm::Ring || a == Algorithm::Tree
                ? proto
                : (a == Algorithm::Nvls ? std::optional<Protocol>(Protocol::Simple) : std::nullopt);
    }
    return r;
}

}  // namespace

std::string unsupported(const Topology& topology,
                        Collective c,
                        Algorithm a,
                        const CollectiveParams& params) {
    const auto ranks = static_cast<uint32_t>(topology.gpus().size());
    if (c == Collective::AllToAll && a != Algorithm::Ring && a != Algorithm::Auto)
        return "alltoall is a direct exchange; use the ring (or auto) algorithm";
    if (a == Algorithm::Tree && c != Collective::AllReduce)
        return "the tree algorithm is an AllReduce algorithm";
    if (a == Algorithm::Nvls) {
        if (c != Collective::AllReduce) return "the nvls algorithm runs AllReduce here";
        if (params.nccl.nvls_channels == 0)
            return "the network has no NVLink SHARP (nccl.nvls_channels is 0)";
        if (ranks > 1 && !single_switch(topology))
            return "NVLS needs every GPU one hop from a single NVSwitch";
    }
    if (a == Algorithm::Hierarchical) {
        if (c != Collective::AllReduce)
            return "the hierarchical algorithm is an AllReduce algorithm";
        if (params.ranks_per_node == 0 || ranks % params.ranks_per_node != 0)
            return "hierarchical AllReduce needs whole nodes of ranks";
    }
    return {};
}

uint32_t node_count(uint32_t ranks, uint32_t ranks_per_node) {
    return ranks_per_node >= 1 && ranks % ranks_per_node == 0 ? ranks / ranks_per_node : 1;
}

double bus_factor(Collective c, uint32_t ranks) {
    const double n = ranks;
    return c == Collective::AllReduce ? 2 * (n - 1) / n : (n - 1) / n;
}

CollectiveResult run_collective(const Topology& topology,
                                const CollectiveRequest& request,
                                const CollectiveParams& params) {
    const auto p = static_cast<uint32_t>(topology.gpus().size());
    const double bytes = request.bytes;
    if (!(bytes > 0)) throw std::invalid_argument("message size must be positive");
    if (!(params.step_latency >= 0)) throw std::invalid_argument("step latency must be >= 0");
    params.nccl.validate();
    const Collective c = request.collective;
    if (const std::string why = unsupported(topology, c, request.algorithm, params); !why.empty())
        throw std::invalid_argument(why);
    if (request.protocol && !params.nccl.protocol(*request.protocol).enabled)
        throw std::invalid_argument("the network does not run the " + to_string(*request.protocol) +
                                    " protocol (nccl." + to_string(*request.protocol) +
                                    ".enabled is false)");
    if (request.protocol &&
        (request.algorithm == Algorithm::Nvls || request.algorithm == Algorithm::Hierarchical) &&
        *request.protocol != Protocol::Simple) {
        throw std::invalid_argument(to_string(request.algorithm) +
                                    " runs the simple protocol only");
    }
    // The candidates: the algorithm asked for (or every one that can run this collective)
    // with the protocol asked for (or every protocol). Hierarchical is never picked by auto:
    // NCCL has no such algorithm; it is wallsim's flow-level sketch.
    std::vector<Algorithm> algorithms;
    if (request.algorithm != Algorithm::Auto) {
        algorithms.push_back(request.algorithm);
    } else {
        for (Algorithm a : {Algorithm::Ring, Algorithm::Tree, Algorithm::Nvls}) {
            if (unsupported(topology, c, a, params).empty()) algorithms.push_back(a);
        }
    }
    std::vector<std::pair<Algorithm, std::optional<Protocol>>> candidates;
    for (Algorithm a : algorithms) {
        if (c == Collective::AllToAll || a == Algorithm::Hierarchical || a == Algorithm::Nvls) {
            candidates.emplace_back(
                a, a == Algorithm::Nvls ? std::optional<Protocol>(Protocol::Simple) : std::nullopt);
        } else if (request.protocol) {
            candidates.emplace_back(a, request.protocol);
        } else {
            for (Protocol q : {Protocol::LL, Protocol::LL128, Protocol::Simple}) {
                if (params.nccl.protocol(q).enabled) candidates.emplace_back(a, q);
            }
        }
    }
    // NCCL runs the pair its own estimate rates fastest (pairs without a protocol, AllToAll and
    // hierarchical, are never among several); the ideal tuner simulates them all.
    if (request.choice == Choice::Nccl && candidates.size() > 1) {
        const TunerMachine machine = tuner_machine(topology, params);
        double lowest = kInf;
        std::pair<Algorithm, std::optional<Protocol>> pick = candidates.front();
        for (const auto& [a, proto] : candidates) {
            const double estimate = nccl_estimate(machine, params.nccl, c, a, *proto, bytes);
            if (estimate < lowest) {
                lowest = estimate;
                pick = {a, proto};
            }
        }
        if (lowest < kInf) candidates = {pick};
    }
    std::optional<CollectiveResult> best;
    for (const auto& [a, proto] : candidates) {
        CollectiveResult r = run_fixed(topology, c, a, proto, bytes, params);
        if (!best || r.time < best->time) best = std::move(r);
    }
    CollectiveResult r = std::move(*best);
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

Choice parse_choice(const std::string& s) {
    if (s == "nccl") return Choice::Nccl;
    if (s == "fastest") return Choice::Fastest;
    throw std::invalid_argument("'" + s + "' is not a choice; expected nccl or fastest");
}

std::string to_string(Choice c) {
    return c == Choice::Nccl ? "nccl" : "fastest";
}

Algorithm parse_algorithm(const std::string& s) {
    if (s == "ring") return Algorithm::Ring;
    if (s == "tree") return Algorithm::Tree;
    if (s == "nvls") return Algorithm::Nvls;
    if (s == "hierarchical") return Algorithm::Hierarchical;
    if (s == "auto") return Algorithm::Auto;
    throw std::invalid_argument("'" + s +
                                "' is not an algorithm; expected ring, tree, nvls, hierarchical "
                                "or auto");
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
        case Algorithm::Nvls: return "nvls";
        case Algorithm::Hierarchical: return "hierarchical";
        case Algorithm::Auto: return "auto";
    }
    return "?";
}

}  // namespace sim::net
