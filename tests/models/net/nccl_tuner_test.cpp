// SPDX-License-Identifier: MIT
// NCCL's tuner (models/net/core/nccl_tuner.h): the graphs its search finds, its estimate, and
// the choice auto makes with it. Every expected figure is worked out here by hand from NCCL
// 2.18.5's search.cc and tuning.cc (docs/references.md [nccl]).
#include "models/net/core/nccl_tuner.h"

#include <gtest/gtest.h>

#include <limits>
#include <utility>
#include <vector>

namespace sim::net {
namespace {

TunerMachine dgx_a100() {
    TunerMachine m;
    m.ranks = 8;
    m.generation = GpuGeneration::Ampere;
    m.gpu_bandwidth = 240;  // 12 NVLinks counted at 20 GB/s (topo.h)
    return m;
}

TunerMachine dgx_h100() {
    TunerMachine m;
    m.ranks = 8;
    m.gpu_bandwidth = 370.8;  // 18 NVLinks at 20.6 GB/s
    m.nvls = true;
    return m;
}

TunerMachine two_a100_nodes_on_hdr() {
    TunerMachine m = dgx_a100();
    m.ranks = 16;
    m.nodes = 2;
    m.nic_bandwidth = 25;  // 200 Gb/s
    m.nics_per_node = 8;
    return m;
}

TEST(NcclSearch, FindsNcclsGraphsAndSplitsFastChannels) {
    // A100: 40 GB/s fits 6 channels on 240 GB/s, which fills the links (optimal); 40 >= 25, so
    // NCCL runs 12 channels of 20 (duplicated again to the 24 that dgx_a100.yaml runs).
    SearchedGraph g = search_graph(dgx_a100(), Algorithm::Ring);
    EXPECT_EQ(g.channels, 12u);
    EXPECT_DOUBLE_EQ(g.bw_intra, 20);
    // H100: 60 GB/s on 6 channels (360 of 370.8); 40 x 9 and 30 x 12 give no more; split to
    // 12 x 30 (Hopper keeps graphs under 50 GB/s on more than 4 channels, not this one).
    g = search_graph(dgx_h100(), Algorithm::Ring);
    EXPECT_EQ(g.channels, 12u);
    EXPECT_DOUBLE_EQ(g.bw_intra, 30);
    // NVLS: one channel per GPU, 8 x 60 exceeds 370.8 x 8/7, so 40 each.
    g = search_graph(dgx_h100(), Algorithm::Nvls);
    EXPECT_EQ(g.channels, 8u);
    EXPECT_DOUBLE_EQ(g.bw_intra, 40);
    // Two nodes on HDR: one 24 GB/s channel per NIC. The tree's intra-node speed then rises to
    // 30 (8 x 30 fills the NVLinks; 48 would not fit), and 30 >= 25 splits it to 16 x 15 / 12.
    g = search_graph(two_a100_nodes_on_hdr(), Algorithm::Ring);
    EXPECT_EQ(g.channels, 8u);
    EXPECT_DOUBLE_EQ(g.bw_inter, 24);
    g = search_graph(two_a100_nodes_on_hdr(), Algorithm::Tree);
    EXPECT_EQ(g.channels, 16u);
    EXPECT_DOUBLE_EQ(g.bw_intra, 15);
    EXPECT_DOUBLE_EQ(g.bw_inter, 12);
}

TEST(NcclEstimate, IsLatencyPlusSizeOverTheTunedBandwidth) {
    // A100 ring Simple: 12 x 20 = 240 GB/s of bus bandwidth, x 8/14 for the algorithm; 8.4 us
    // base and 14 steps of 3.4 us.
    const double bytes = 1 << 30;
    const double expected = (8.4 + 14 * 3.4 + bytes / (1000 * 240 * 8.0 / 14)) * 1e-6;
    EXPECT_NEAR(nccl_estimate(dgx_a100(), NcclParams{}, Collective::AllReduce, Algorithm::Ring,
                              Protocol::Simple, bytes),
                expected, 1e-12);
    // NVLS only where NVLink SHARP is; trees only for AllReduce; disabled protocols never.
    const double inf = std::numeric_limits<double>::infinity();
    EXPECT_EQ(nccl_estimate(dgx_a100(), NcclParams{}, Collective::AllReduce, Algorithm::Nvls,
                            Protocol::Simple, bytes),
              inf);
    EXPECT_EQ(nccl_estimate(dgx_a100(), NcclParams{}, Collective::AllGather, Algorithm::Tree,
                            Protocol::Simple, bytes),
              inf);
    NcclParams no_ll128;
    no_ll128.ll128.enabled = false;
    EXPECT_EQ(nccl_estimate(dgx_a100(), no_ll128, Collective::AllReduce, Algorithm::Ring,
                            Protocol::LL128, bytes),
              inf);
}

Topology star(uint32_t gpus, double gbps, double efficiency) {
    Topology t;
    const uint32_t sw = t.add_switch("nvswitch");
    for (uint32_t i = 0; i < gpus; ++i)
        t.connect(t.add_gpu("gpu" + std::to_string(i)), sw,
                  {"nvlink", gbps * 1e9, efficiency, 0.25e-6});
    t.finalise();
    return t;
}

TEST(NcclChoice, AutoRunsWhatNcclsEstimatePicksNotTheFastest) {
    // A DGX A100 as NCCL rates it: LL (15 us + S / 34.3 GB/s) until 1.2 MB, LL128 (40.6 us +
    // S / 126.2 GB/s) until 24.3 MB, then Simple (56 us + S / 137.1 GB/s); the tree (56 us,
    // 110 GB/s at most) never.
    const Topology t = star(8, 300, 0.8);
    CollectiveParams p;
    p.ranks_per_node = 8;
    p.nccl.generation = GpuGeneration::Ampere;
    p.nccl.ring_channels = p.nccl.tree_channels = 24;
    const TunerMachine m = tuner_machine(t, p);
    EXPECT_EQ(m.nodes, 1u);
    EXPECT_DOUBLE_EQ(m.gpu_bandwidth, 240);
    const auto pick = [&](double bytes, Choice choice) {
        return run_collective(t, {Collective::AllReduce, Algorithm::Auto, {}, bytes, choice}, p);
    };
    for (const auto& [bytes, proto] :
         std::vector<std::pair<double, Protocol>>{{1 << 20, Protocol::LL},
                                                  {2 << 20, Protocol::LL128},
                                                  {16 << 20, Protocol::LL128},
                                                  {32 << 20, Protocol::Simple},
                                                  {1 << 30, Protocol::Simple}}) {
        const auto r = pick(bytes, Choice::Nccl);
        EXPECT_EQ(r.algorithm, Algorithm::Ring) << bytes;
        EXPECT_EQ(r.protocol, proto) << bytes;
    }
    // The ideal tuner may differ, and is never slower.
    for (double bytes : {1.0 * (1 << 20), 32.0 * (1 << 20)}) {
        EXPECT_LE(pick(bytes, Choice::Fastest).time, pick(bytes, Choice::Nccl).time) << bytes;
    }
}

TEST(NcclChoice, DgxH100MovesFromLlToNvlsAtHalfAMegabyte) {
    // LL: 15 us + S / 50.1 GB/s (llMaxBw 87.7 x 8/14); NVLS: 23 us + S / 266.7 GB/s (8 x 40 x
    // 5/6): NVLS from 494 kB.
    const TunerMachine m = dgx_h100();
    const NcclParams n;
    const auto time = [&](Algorithm a, Protocol q, double bytes) {
        return nccl_estimate(m, n, Collective::AllReduce, a, q, bytes);
    };
    EXPECT_LT(time(Algorithm::Ring, Protocol::LL, 256 << 10),
              time(Algorithm::Nvls, Protocol::Simple, 256 << 10));
    EXPECT_GT(time(Algorithm::Ring, Protocol::LL, 512 << 10),
              time(Algorithm::Nvls, Protocol::Simple, 512 << 10));
    EXPECT_GT(time(Algorithm::Ring, Protocol::LL128, 64 << 20),
              time(Algorithm::Nvls, Protocol::Simple, 64 << 20));
}

TEST(NcclChoice, TwoNodesRunTheTreeForLargeMessages) {
    // NCCL's maintainers: on two nodes NCCL runs the tree for large sizes on many platforms
    // (docs/references.md [nccl-two-node-tree]). Tree: 16 x 15 x 0.92 x 0.5 = 110.4 GB/s;
    // ring: 8 x 24 x 16/30 = 102.4 GB/s.
    const TunerMachine m = two_a100_nodes_on_hdr();
    const NcclParams n;
    const double big = 1 << 30;
    EXPECT_LT(nccl_estimate(m, n, Collective::AllReduce, Algorithm::Tree, Protocol::Simple, big),
              nccl_estimate(m, n, Collective::AllReduce, Algorithm::Ring, Protocol::Simple, big));
}

}  // namespace
}  // namespace sim::net
