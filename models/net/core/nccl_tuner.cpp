// SPDX-License-Identifier: MIT
#include "models/net/core/nccl_tuner.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace sim::net {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// NCCL 2.18.5's tables (src/graph/search.cc, src/graph/tuning.cc). Speeds in GB/s per channel;
// latencies in us; per-channel limits in GB/s. Rows: Volta, Ampere, Hopper; columns: one node,
// two nodes, more.
const std::vector<double> kSpeedsIntra = {40, 30, 20, 18, 15, 12, 10, 9, 7, 6, 5, 4, 3};
const std::vector<double> kSpeedsIntraSm90 = {60, 40, 30, 24, 20, 15, 12, 6, 3};
const std::vector<double> kSpeedsInter = {48, 30, 28, 24, 20, 18,  15,  12,   10,  9,
                                          7,  6,  5,  4,  3,  2.4, 1.2, 0.24, 0.12};
const std::vector<double> kSpeedsInterSm90 = {48, 45, 42, 40, 30,  24,  20,   17.5,
                                              15, 12, 6,  3,  2.4, 1.2, 0.24, 0.12};
constexpr uint32_t kMaxGraphChannels = 16;  // MAXCHANNELS / 2

// llMaxBws: one node by generation; across nodes by host CPU (Intel's row, as the header says).
constexpr double kLlMaxBw[3][3] = {{39.0, 39.0, 20.4}, {87.7, 22.5, 19.0}, {87.7, 22.5, 19.0}};
constexpr double kRingLl128PerChannel[3][3] = {
    {20.0, 20.0, 20.0}, {20.0, 20.0, 20.0}, {36.7, 36.7, 36.7}};
constexpr double kTreeLl128PerChannel[3][3] = {
    {20.0, 20.0, 20.0}, {20.0, 20.0, 20.0}, {36.7, 36.7, 29.0}};
constexpr double kTreePerChannel[3][3] = {
    {26.5, 18.5, 10.0}, {24.0, 23.6, 17.8}, {38.7, 41.4, 36.0}};

// [algorithm: tree, ring][protocol: LL, LL128, Simple]
constexpr double kBaseLatency[2][3] = {{6.8, 14.0, 0}, {6.6, 14.0, 8.4}};
constexpr double kNvlsBaseLatency = 23.0;
constexpr double kHwLatencyNvlink[2][3] = {{0.6, 1.25, 4}, {0.6, 1.9, 3.4}};
constexpr double kHwLatencyPci[2][3] = {{1.0, 1.9, 6}, {1.0, 2.5, 5.7}};
constexpr double kHwLatencyNet[2][3] = {{5.0, 8.5, 14}, {2.7, 4.0, 14.0}};
constexpr double kNvlsNetLatency = 18.0;
constexpr double kNetOverheadIntel = 1.0;  // us per step of a multi-node ring (x3 for Simple)

// Trees miss the model at medium sizes; NCCL corrects by powers of two of size / 64 B.
constexpr double kTreeCorrection[3][23] = {
    {1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7,  .7,  .7,  .6, .5,
     .4,  .4,  .5,  .6,  .7, .8, .9, 1.0, 1.0, 1.0, 1.0},
    {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7,  .6, .6,
     .6,  .6,  .6,  .6,  .8,  .9, .9, .9, .9, 1.0, 1.0},
    {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9}};

size_t row(GpuGeneration g) {
    return g == GpuGeneration::Volta ? 0 : g == GpuGeneration::Ampere ? 1 : 2;
}

size_t column(Protocol p) {
    return p == Protocol::LL ? 0 : p == Protocol::LL128 ? 1 : 2;
}

int log2_floor(double x) {
    int n = -1;
    for (double v = x; v >= 1; v /= 2)
        ++n;
    return n;
}

// Channels of `speed` GB/s the machine carries: each passes through every GPU's links once and,
// across nodes, through one NIC.
uint32_t channels_at(const TunerMachine& m, double speed) {
    double fit = std::floor(m.gpu_bandwidth / speed + 1e-9);
    if (m.nodes > 1)
        fit = std::min(fit, m.nics_per_node * std::floor(m.nic_bandwidth / speed + 1e-9));
    return static_cast<uint32_t>(std::clamp(fit, 0.0, double(kMaxGraphChannels)));
}

}  // namespace

TunerMachine tuner_machine(const Topology& topology, const CollectiveParams& params) {
    TunerMachine m;
    m.ranks = static_cast<uint32_t>(topology.gpus().size());
    m.nodes = node_count(m.ranks, std::min(params.ranks_per_node, m.ranks));
    const uint32_t local = m.ranks / m.nodes;
    m.generation = params.nccl.generation;
    if (local > 1) {
        const LinkParams& link = topology.link(topology.route(0, 1).front());
        m.nvlink = link.kind.rfind("nvlink", 0) == 0;
        m.gpu_bandwidth = link.effective_bandwidth() / 1e9;
    }
    if (m.nodes > 1) {
        const LinkParams& nic = topology.link(topology.route(0, local).front());
        m.nic_bandwidth = nic.bandwidth / 1e9;
        m.nics_per_node = local;
        if (local == 1) m.gpu_bandwidth = m.nic_bandwidth;
    }
    m.nvls = params.nccl.nvls_channels > 0 && m.nodes == 1 && m.nvlink &&
             m.generation == GpuGeneration::Hopper;
    return m;
}

SearchedGraph search_graph(const TunerMachine& m, Algorithm a) {
    const bool hopper = m.generation == GpuGeneration::Hopper;
    const std::vector<double>& speeds = m.nodes > 1 ? (hopper ? kSpeedsInterSm90 : kSpeedsInter)
                                                    : (hopper ? kSpeedsIntraSm90 : kSpeedsIntra);
    SearchedGraph g;
    if (a == Algorithm::Nvls) {
        // Every GPU pulls from the switch: one channel per GPU (search.cc).
        const double total = m.gpu_bandwidth * m.ranks / std::max(1u, m.ranks - 1);
        for (double s : speeds) {
            if (s <= m.gpu_bandwidth && s * m.ranks <= total + 1e-9) {
                g = {m.ranks, s, s};
                break;
            }
        }
        return g;
    }
    const double limit = m.nodes > 1 ? std::min(m.gpu_bandwidth, m.nic_bandwidth) : m.gpu_bandwidth;
    size_t first = 0;
    while (first + 1 < speeds.size() && speeds[first] > limit)
        ++first;
    // Lower speeds while they keep more than 49% of the first; a total as large as the GPU's
    // links is optimal and ends the search.
    size_t best = first;
    double best_total = 0;
    for (size_t i = first; i < speeds.size() && speeds[i] / speeds[first] > 0.49; ++i) {
        const double total = channels_at(m, speeds[i]) * speeds[i];
        if (total > best_total * (1 + 1e-9)) {
            best = i;
            best_total = total;
        }
        if (total >= m.gpu_bandwidth) break;
    }
    g = {channels_at(m, speeds[best]), speeds[best], speeds[best]};
    if (g.channels == 0) return g;
    // A tree's intra-node speed rises to at most twice its inter-node one while the GPUs' links
    // carry it on the same channels.
    if (a == Algorithm::Tree) {
        for (size_t i = best; i > 0; --i) {
            const double s = speeds[i - 1];
            if (g.bw_intra >= 2 * g.bw_inter || s * g.channels > m.gpu_bandwidth + 1e-9) break;
            g.bw_intra = s;
        }
    }
    const bool split = g.bw_intra >= 25.0 && !(hopper && g.bw_intra < 50.0 && g.channels > 4);
    if (split) {
        const uint32_t doubled = std::min(2 * g.channels, kMaxGraphChannels);
        const double share = std::ceil(double(doubled) / g.channels);  // DIVUP: 1 when capped
        g.channels = doubled;
        g.bw_intra /= share;
        g.bw_inter /= share;
    }
    return g;
}

double nccl_estimate(const TunerMachine& m,
                     const NcclParams& params,
                     Collective c,
                     Algorithm a,
                     Protocol p,
                     double bytes) {
    if (m.ranks < 2) return 0;
    if (!params.protocol(p).enabled) return kInf;
    if (a == Algorithm::Hierarchical) return kInf;
    if (a != Algorithm::Ring && c != Collective::AllReduce) return kInf;
    if (a == Algorithm::Nvls && (!m.nvls || p != Protocol::Simple)) return kInf;
    const SearchedGraph g = search_graph(m, a);
    if (g.channels == 0) return kInf;

    const size_t gen = row(m.generation);
    const size_t nodes_col = m.nodes <= 2 ? m.nodes - 1 : 2;
    const size_t proto = column(p);
    const double ll_max = kLlMaxBw[m.nodes == 1 ? gen : 0][nodes_col];
    const double ppn = double(m.ranks) / m.nodes;
    const uint32_t nsteps = c == Collective::AllReduce ? 2 * (m.ranks - 1) : m.ranks - 1;
    const uint32_t inter_steps =
        c == Collective::AllReduce ? (m.nodes > 1 ? 2 * m.nodes : 0) : m.nodes - 1;

    // Bandwidth (GB/s of the algorithm), from the bus bandwidth of the graph's channels.
    double bus = g.channels * (m.nodes <= 2 ? g.bw_intra : g.bw_inter);
    if (a == Algorithm::Ring && p == Protocol::LL)
        bus = std::min(ll_max,
                       bus * ((m.nodes > 1 || c == Collective::AllReduce) ? 1.0 / 4 : 1.0 / 3));
    if (a == Algorithm::Ring && p == Protocol::LL128)
        bus = std::min(bus * (ppn < 2 ? 0.7 : 0.92),
                       g.channels * kRingLl128PerChannel[gen][nodes_col]);
    if (a == Algorithm::Tree) {
        bus = std::min(bus * 0.92, g.channels * kTreePerChannel[gen][nodes_col]);
        if (p == Protocol::LL) bus = std::min(bus / 3.8, ll_max);
        if (p == Protocol::LL128)
            bus = std::min(bus * (m.nodes == 1 ? 7.0 / 9 : 120.0 / 128),
                           g.channels * kTreeLl128PerChannel[gen][nodes_col]);
    }
    const double ratio = a == Algorithm::Ring   ? double(m.ranks) / nsteps
                         : a == Algorithm::Nvls ? 5.0 / 6
                                                : 0.5;
    double bw = bus * ratio;

    // Latency (us).
    double lat = 0;
    if (a == Algorithm::Nvls) {
        lat = kNvlsBaseLatency + (m.nodes > 1 ? kNvlsNetLatency : 0);
    } else {
        const size_t alg = a == Algorithm::Tree ? 0 : 1;
        lat = kBaseLatency[alg][proto];
        double intra = (m.nvlink ? kHwLatencyNvlink : kHwLatencyPci)[alg][proto];
        const double inter = kHwLatencyNet[alg][proto];
        if (a == Algorithm::Ring) {
            if (m.nodes > 1)
                intra = std::max(intra, kNetOverheadIntel * (p == Protocol::Simple ? 3 : 1));
            lat += (nsteps - inter_steps) * intra + inter_steps * inter;
        } else {
            lat += 2 * ((ppn - 1) * intra + std::max(0, log2_floor(m.nodes)) * inter);
        }
    }

    // ncclTopoGetAlgoTime: the tree's correction by size, and the ring's plateau across nodes.
    const int log_size = log2_floor(std::max(1.0, std::floor(bytes / 64)));
    if (a == Algorithm::Tree && log_size >= 0 && log_size < 23)
        bw *= kTreeCorrection[proto][log_size];
    if (a == Algorithm::Ring && p == Protocol::Simple && m.nodes > 1 &&
        c == Collective::AllReduce && bytes / (double(params.ring_channels) * m.ranks) >= 64)
        lat *= m.generation == GpuGeneration::Volta ? 1.9 : 1.4;
    return (lat + bytes / (1000 * bw)) * 1e-6;
}

}  // namespace sim::net
