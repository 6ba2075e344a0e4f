// SPDX-License-Identifier: MIT
// AllToAll as NCCL's send/receive kernel runs it: how a send is cut into pieces over channels,
// which protocol a piece runs, how many channels carry the sends, and what that costs. The
// expected plans are worked out by hand from NCCL 2.18's src/enqueue.cc (calcP2pChunkSize,
// scheduleP2pTasksToPlan) for 8 ranks and 24 ring channels: 32 p2p channels, 32 per peer, 4 to
// 16 of them per send on one node.
#include "models/net/core/p2p.h"

#include <gtest/gtest.h>

#include "models/net/core/collective.h"

namespace sim::net {
namespace {

constexpr double kMiB = 1024.0 * 1024;

P2pPlan plan_for(double bytes_per_rank, uint32_t ranks = 8, uint32_t nodes = 1) {
    return p2p_plan(bytes_per_rank / ranks, ranks, nodes, 24, true, P2pParams{});
}

TEST(P2pPlan, ASendIsCutIntoPiecesAsNcclCutsIt) {
    // 1 KiB in all: 128 B a peer, one piece, under the 16 KiB LL threshold.
    auto p = plan_for(1024);
    EXPECT_EQ(p.protocol, Protocol::LL);
    EXPECT_EQ(p.pieces, 1u);
    EXPECT_DOUBLE_EQ(p.piece, 128);
    // 1 MiB: 128 KiB a peer; 4 channels would give 32 KiB pieces, under the 64 KiB minimum
    // (the 512 KiB step / 8), so two pieces of 64 KiB, Simple.
    p = plan_for(1 * kMiB);
    EXPECT_EQ(p.protocol, Protocol::Simple);
    EXPECT_EQ(p.pieces, 2u);
    EXPECT_DOUBLE_EQ(p.piece, 64 * 1024);
    // 256 MiB: 32 MiB a peer in 4 pieces of 8 MiB (under the 32-step, 16 MiB maximum): 32
    // sends with the copies to self, one per channel; 28 channels carry the other ranks' sends.
    p = plan_for(256 * kMiB);
    EXPECT_EQ(p.pieces, 4u);
    EXPECT_DOUBLE_EQ(p.piece, 8 * kMiB);
    EXPECT_EQ(p.channels, 32u);
    EXPECT_EQ(p.send_channels, 28u);
    EXPECT_EQ(p.rounds, 1u);
    // 1 GiB: 128 MiB a peer; 4 pieces of 32 MiB exceed 16 MiB, so 8 of 16 MiB; two sends share
    // each channel, and all 32 carry other ranks' sends.
    p = plan_for(1024 * kMiB);
    EXPECT_EQ(p.pieces, 8u);
    EXPECT_DOUBLE_EQ(p.piece, 16 * kMiB);
    EXPECT_EQ(p.send_channels, 32u);
    // 8 GiB: 1 GiB a peer; doubling stops at 16 channels (4 x 32 / 8), pieces of 64 MiB; four
    // sends a channel, in one work.
    p = plan_for(8192 * kMiB);
    EXPECT_EQ(p.pieces, 16u);
    EXPECT_DOUBLE_EQ(p.piece, 64 * kMiB);
    EXPECT_EQ(p.rounds, 1u);
}

TEST(P2pPlan, AcrossNodesEachPeerGetsTwoChannelsAndNetworkSteps) {
    // 16 ranks on 2 nodes: NCCL_NCHANNELS_PER_NET_PEER (2) channels per peer, pieces between the
    // 16 KiB and 128 KiB of a network step; 64 MiB in all is 4 MiB a peer, two pieces of 2 MiB.
    const P2pPlan p = plan_for(64 * kMiB, 16, 2);
    EXPECT_EQ(p.pieces, 2u);
    EXPECT_DOUBLE_EQ(p.piece, 2 * kMiB);
    // 32 sends over 32 channels: one work each.
    EXPECT_EQ(p.rounds, 1u);
    // 1024 ranks: 2048 sends over 32 channels, 64 a channel, in works of 8: 8 works.
    const P2pPlan big = plan_for(1024 * kMiB, 1024, 128);
    EXPECT_EQ(big.rounds, 8u);
    EXPECT_EQ(big.send_channels, 32u);
}

TEST(P2pPlan, ThresholdsAndBadArgumentsAreTheCallersToSet) {
    P2pParams no_ll;
    no_ll.ll_threshold = 0;
    EXPECT_EQ(p2p_plan(128, 8, 1, 24, true, no_ll).protocol, Protocol::Simple);
    EXPECT_EQ(p2p_plan(128, 8, 1, 24, false, P2pParams{}).protocol, Protocol::Simple);
    EXPECT_THROW(p2p_plan(128, 1, 1, 24, true, P2pParams{}), std::invalid_argument);
    EXPECT_THROW(p2p_plan(0, 8, 1, 24, true, P2pParams{}), std::invalid_argument);
    P2pParams bad;
    bad.chunk = 1024;
    EXPECT_THROW(bad.validate(), std::invalid_argument);
}

Topology star(uint32_t gpus, double gbps) {
    Topology t;
    const uint32_t sw = t.add_switch("nvswitch");
    for (uint32_t i = 0; i < gpus; ++i)
        t.connect(t.add_gpu("gpu" + std::to_string(i)), sw, {"nvlink", gbps * 1e9, 1, 0});
    t.finalise();
    return t;
}

TEST(AllToAll, PaysTheLaunchAndTheProtocolsLatenciesOnce) {
    // 1 KiB in all runs LL: launch, LL's base latency and one LL hop, and 7 x 128 B a GPU.
    const Topology t = star(8, 100);
    CollectiveParams p;
    p.ranks_per_node = 8;
    p.nccl.launch_latency = 7e-6;
    p.nccl.ll.base_latency = 3e-6;
    p.nccl.ll.ring_hop_latency = 1e-6;
    const auto r = run_collective(t, {Collective::AllToAll, Algorithm::Auto, {}, 1024}, p);
    EXPECT_EQ(r.protocol, Protocol::LL);
    EXPECT_NEAR(r.time, 7e-6 + 3e-6 + 1e-6 + 7 * 128 / 0.5 / 100e9, 1e-9);
}

TEST(AllToAll, ItsChannelsCapItBelowTheLink) {
    // 256 MiB in all: every GPU sends 7 peers 4 pieces each, on 28 channels. At 10 GB/s a
    // channel that is 280 GB/s a GPU, below its 400 GB/s link. At 1 GiB the 56 pieces share all
    // 32 channels: 320 GB/s.
    const Topology t = star(8, 400);
    CollectiveParams p;
    p.ranks_per_node = 8;
    p.nccl.ring_channels = 24;
    p.nccl.simple.base_latency = p.nccl.simple.ring_hop_latency = 0;
    p.nccl.p2p.channel_bandwidth = 10e9;
    const auto r = run_collective(t, {Collective::AllToAll, Algorithm::Auto, {}, 256 * kMiB}, p);
    EXPECT_NEAR(r.busbw, 280e9, 1e-6 * 280e9);  // busbw = what a GPU sends per second
    EXPECT_EQ(r.channels, 32u);
    const auto big = run_collective(t, {Collective::AllToAll, Algorithm::Auto, {}, 1024 * kMiB}, p);
    EXPECT_NEAR(big.busbw, 320e9, 1e-6 * 320e9);
    // Without the cap the link is the limit.
    p.nccl.p2p.channel_bandwidth = 0;
    const auto free = run_collective(t, {Collective::AllToAll, Algorithm::Auto, {}, 256 * kMiB}, p);
    EXPECT_NEAR(free.busbw, 400e9, 1e-6 * 400e9);
}

}  // namespace
}  // namespace sim::net
