// SPDX-License-Identifier: MIT
// NCCL's mechanism: channel and chunk choice as NCCL's enqueue code makes it, what each protocol
// costs on the wire and per CTA, NVLS traffic through the switch, the tree's up-and-down
// pipeline, per-flow rate caps in the max-min sharing, and the per-size choice of algorithm and
// protocol. Every expected figure is derived here from the mechanism's definition.
#include "models/net/core/collective.h"

#include <gtest/gtest.h>

namespace sim::net {
namespace {

Topology star(uint32_t gpus, double gbps, double efficiency = 1, double latency = 0) {
    Topology t;
    const uint32_t sw = t.add_switch("nvswitch");
    for (uint32_t i = 0; i < gpus; ++i)
        t.connect(t.add_gpu("gpu" + std::to_string(i)), sw,
                  {"nvlink", gbps * 1e9, efficiency, latency});
    t.finalise();
    return t;
}

CollectiveParams quiet() {
    CollectiveParams p;
    p.step_latency = 0;
    p.nccl.nvls_latency = 0;
    for (ProtocolParams* q : {&p.nccl.simple, &p.nccl.ll, &p.nccl.ll128}) {
        q->base_latency = 0;
        q->ring_hop_latency = 0;
        q->tree_hop_latency = 0;
        q->net_ring_hop_latency = 0;
        q->net_tree_hop_latency = 0;
    }
    return p;
}

TEST(NcclChannels, DroppedWhileThreadsWouldGetLessThanTheirThreshold) {
    const NcclParams n;
    // Simple: 512 threads x 64 B per channel. 24 channels need 768 KiB.
    EXPECT_EQ(channels_for(24.0 * 512 * 64, 24, n.simple, 1), 24u);
    EXPECT_EQ(channels_for(24.0 * 512 * 64 - 1, 24, n.simple, 1), 23u);
    EXPECT_EQ(channels_for(100, 24, n.simple, 1), 1u);
    // Ring LL: the threshold (8 B) scales with the 8 ranks: 32 KiB per channel.
    EXPECT_EQ(channels_for(64.0 * 1024, 24, n.ll, 8), 2u);
}

TEST(NcclChannels, NvlsChunksShrinkForMessagesWithFewChunksPerOperation) {
    // 16 channels x 8 heads = 128 concurrent operations.
    EXPECT_EQ(nvls_chunk_for(2.0 * 1024 * 1024 * 1024, 16, 8, 131072), 131072);
    EXPECT_EQ(nvls_chunk_for(1024.0 * 1024 * 1024 - 1, 16, 8, 131072), 65536);  // < 64 x 128 x 128K
    EXPECT_EQ(nvls_chunk_for(64.0 * 1024 * 1024 - 1, 16, 8, 131072), 32768);    // < 8 x 128 x 64K
    EXPECT_EQ(nvls_chunk_for(8.0 * 1024 * 1024 - 1, 16, 8, 131072), 16384);     // < 2 x 128 x 32K
}

TEST(NcclProtocols, EachCarriesItsShareOfDataOnTheWire) {
    EXPECT_EQ(wire_efficiency(Protocol::Simple), 1.0);
    EXPECT_EQ(wire_efficiency(Protocol::LL), 0.5);
    EXPECT_EQ(wire_efficiency(Protocol::LL128), 120.0 / 128.0);
    // Without latencies or CTA limits, a large ring AllReduce runs at the link rate times the
    // protocol's data share.
    const Topology t = star(8, 100);
    for (Protocol p : {Protocol::Simple, Protocol::LL, Protocol::LL128}) {
        const auto r =
            run_collective(t, {Collective::AllReduce, Algorithm::Ring, p, 1 << 30}, quiet());
        EXPECT_NEAR(r.busbw, 100e9 * wire_efficiency(p), 1e-6 * 100e9) << to_string(p);
    }
}

TEST(NcclProtocols, ACtaLimitCapsTheChannelsNotTheLink) {
    // LL limited to 2 GB/s per channel: 4 channels move 8 GB/s of data each way, far below a
    // 100 GB/s link; the bus bandwidth of a ring equals the per-rank data rate.
    const Topology t = star(8, 100);
    CollectiveParams p = quiet();
    p.nccl.ring_channels = 4;
    p.nccl.ll.channel_bandwidth = 2e9;
    const auto r =
        run_collective(t, {Collective::AllReduce, Algorithm::Ring, Protocol::LL, 1 << 30}, p);
    EXPECT_EQ(r.channels, 4u);
    EXPECT_NEAR(r.busbw, 8e9, 1e-6 * 8e9);
}

TEST(NcclProtocols, StepLatencyIsPaidOncePerStepAndTheLaunchOncePerCollective) {
    const Topology t = star(8, 100);
    CollectiveParams p = quiet();
    p.nccl.launch_latency = 7e-6;
    p.nccl.ll.base_latency = 3e-6;
    p.nccl.ll.ring_hop_latency = 1e-6;
    // 8 B on one channel: one loop of 14 steps; the transfer itself is negligible.
    const auto r = run_collective(t, {Collective::AllReduce, Algorithm::Ring, Protocol::LL, 8}, p);
    EXPECT_EQ(r.steps, 14u);
    EXPECT_NEAR(r.time, 7e-6 + 3e-6 + 14 * 1e-6, 1e-8);
}

TEST(NcclProtocols, ASimpleRingStepSynchronisesOncePerSlice) {
    // NCCL's defaults: NCCL_STEPS 8, ALLREDUCE_CHUNKSTEPS = 8 / 2 = 4, ALLREDUCE_SLICESTEPS =
    // 8 / 4 = 2, so prims_simple.h's genericOp moves each chunk in 4 / 2 = 2 slices, each behind
    // its own waitPeer and postPeer. LL and LL128 flag every line: one round per step.
    const NcclParams n;
    EXPECT_EQ(n.simple.ring_slices, 2u);
    EXPECT_EQ(n.ll.ring_slices, 1u);
    EXPECT_EQ(n.ll128.ring_slices, 1u);
    // 8 B on one channel: one loop of 14 ring steps, 2 rounds of 1 us each per step.
    const Topology t = star(8, 100);
    CollectiveParams p = quiet();
    p.nccl.simple.ring_hop_latency = 1e-6;
    const auto r =
        run_collective(t, {Collective::AllReduce, Algorithm::Ring, Protocol::Simple, 8}, p);
    EXPECT_EQ(r.steps, 14u);
    EXPECT_NEAR(r.time, 14 * 2 * 1e-6, 1e-8);
    // A large message pays the rounds once per step of every loop: 1 GiB over 8 ranks and 24
    // channels is 5.59 MB per rank and channel, 3 loops of 2 MiB chunks, 42 steps, 84 rounds.
    p.nccl.ring_channels = 24;
    const double m = 1 << 30;
    const auto big =
        run_collective(t, {Collective::AllReduce, Algorithm::Ring, Protocol::Simple, m}, p);
    EXPECT_EQ(big.steps, 42u);
    EXPECT_NEAR(big.time, 2.0 * 7 / 8 * m / 100e9 + 84 * 1e-6, 1e-8);
}

TEST(NcclNvls, TheSwitchReducesSoEachLinkCarriesPPlusOneChunksPerOwnerChunk) {
    // Each link carries (P+1)/P of the message each way: busbw = 2(P-1)/(P+1) x link rate, above
    // the ring's link rate.
    const uint32_t gpus = 8;
    const Topology t = star(gpus, 100);
    CollectiveParams p = quiet();
    p.nccl.nvls_channels = 16;
    p.nccl.nvls_efficiency = 1;
    p.nccl.nvls_chunk_overhead = 0;
    const double m = 8.0 * 1024 * 1024 * 1024;
    const auto r = run_collective(t, {Collective::AllReduce, Algorithm::Nvls, std::nullopt, m}, p);
    EXPECT_NEAR(r.busbw, 2.0 * (gpus - 1) / (gpus + 1) * 100e9, 1e-6 * 100e9);
    EXPECT_NEAR(r.bytes_sent_per_rank, m * (gpus + 1) / gpus, 1e-6 * m);
    EXPECT_EQ(r.protocol, Protocol::Simple);
    // Its barriers: 128 KiB chunks, one round per chunk of each channel's share.
    p.nccl.nvls_chunk_overhead = 1e-6;
    const auto slow =
        run_collective(t, {Collective::AllReduce, Algorithm::Nvls, std::nullopt, m}, p);
    EXPECT_NEAR(slow.time - r.time, m / (gpus * 16.0) / 131072 * 1e-6, 1e-9);
    EXPECT_THROW(run_collective(t, {Collective::AllReduce, Algorithm::Nvls, Protocol::LL, m}, p),
                 std::invalid_argument);
    p.nccl.nvls_channels = 0;
    EXPECT_THROW(run_collective(t, {Collective::AllReduce, Algorithm::Nvls, std::nullopt, m}, p),
                 std::invalid_argument);
}

TEST(NcclTree, AChainSendsEveryChunkUpAndDownSoHalvesTheAlgorithmBandwidth) {
    // On one switch every GPU's link carries a chunk to its parent and one to its child each
    // step: algbw = link rate / 2 once the pipeline is full.
    const Topology t = star(8, 100);
    CollectiveParams p = quiet();
    p.ranks_per_node = 8;
    const auto r = run_collective(
        t, {Collective::AllReduce, Algorithm::Tree, Protocol::Simple, 64.0 * 1024 * 1024 * 1024},
        p);
    EXPECT_NEAR(r.algbw, 50e9, 0.01 * 50e9);
    EXPECT_LT(r.algbw, 50e9);
}

TEST(NcclTree, FillAndDrainStepsCarryTheChunkOneWay) {
    // One 32 KiB chunk on one channel of an 8-GPU chain: 7 steps up to the root, 7 back down,
    // each moving the chunk over one link in one direction (no step carries both).
    const Topology t = star(8, 100);
    CollectiveParams p = quiet();
    p.ranks_per_node = 8;
    p.nccl.tree_channels = 1;
    const double bytes = 32 * 1024;
    const auto r =
        run_collective(t, {Collective::AllReduce, Algorithm::Tree, Protocol::Simple, bytes}, p);
    EXPECT_EQ(r.steps, 14u);
    EXPECT_NEAR(r.time, 14 * bytes / 100e9, 1e-3 * r.time);
}

TEST(NcclTree, ChunksShrinkUntilTheyFillThePipelineAsNcclSizesThem) {
    // depth 7 (a chain of 8): Simple halves 512 KiB while a channel gets fewer than 7 x 8
    // chunks, down to 128 KiB: 8 MiB on one channel is 64 chunks, 63 + 2 x 7 steps. LL128 keeps
    // its 576,000 B: 8 MiB / 576,000 B = 14.6 chunks is more than 64 x 1.8 / 8 (s = 1 + 0.8).
    const Topology t = star(8, 100);
    CollectiveParams p = quiet();
    p.ranks_per_node = 8;
    p.nccl.tree_channels = 1;
    const double bytes = 8.0 * 1024 * 1024;
    const auto simple =
        run_collective(t, {Collective::AllReduce, Algorithm::Tree, Protocol::Simple, bytes}, p);
    EXPECT_EQ(simple.steps, 64u - 1 + 14);
    const auto ll128 =
        run_collective(t, {Collective::AllReduce, Algorithm::Tree, Protocol::LL128, bytes}, p);
    EXPECT_EQ(ll128.steps, 15u - 1 + 14);
}

TEST(NcclAuto, PicksLowLatencyProtocolsForSmallMessagesAndBandwidthForLarge) {
    const Topology t = star(8, 300, 0.8, 0.25e-6);
    CollectiveParams p;
    p.ranks_per_node = 8;  // one node: the tree is a chain as deep as the ring is long
    p.nccl.ring_channels = 24;
    p.nccl.ll.channel_bandwidth = p.nccl.ll.tree_channel_bandwidth = 3.654e9;
    p.nccl.ll128.channel_bandwidth = p.nccl.ll128.tree_channel_bandwidth = 20e9;
    const auto small = run_collective(t, {Collective::AllReduce, Algorithm::Auto, {}, 4096}, p);
    EXPECT_EQ(small.algorithm, Algorithm::Ring);
    EXPECT_EQ(small.protocol, Protocol::LL);
    const auto large =
        run_collective(t, {Collective::AllReduce, Algorithm::Auto, {}, 4.0 * (1 << 30)}, p);
    EXPECT_EQ(large.protocol, Protocol::Simple);
    // The ideal tuner is never slower than any single choice.
    for (Protocol q : {Protocol::Simple, Protocol::LL, Protocol::LL128}) {
        for (double m : {4096.0, 1e6, 1e8}) {
            const auto a = run_collective(
                t, {Collective::AllReduce, Algorithm::Auto, {}, m, Choice::Fastest}, p);
            const auto f = run_collective(t, {Collective::AllReduce, Algorithm::Ring, q, m}, p);
            EXPECT_LE(a.time, f.time * (1 + 1e-12)) << to_string(q) << " " << m;
        }
    }
    // A disabled protocol is never picked and cannot be asked for.
    p.nccl.ll128.enabled = false;
    p.nccl.ll.enabled = false;
    EXPECT_EQ(run_collective(t, {Collective::AllReduce, Algorithm::Auto, {}, 4096}, p).protocol,
              Protocol::Simple);
    EXPECT_THROW(run_collective(t, {Collective::AllReduce, Algorithm::Ring, Protocol::LL, 4096}, p),
                 std::invalid_argument);
}

TEST(FlowNetwork, ACappedFlowLeavesTheRestOfItsLinkToTheOthers) {
    Topology t;
    const uint32_t sw = t.add_switch("sw");
    for (int i = 0; i < 3; ++i)
        t.connect(t.add_gpu("g" + std::to_string(i)), sw, {"x", 100e9, 1, 0});
    t.finalise();
    FlowNetwork net(t);
    // Both flows leave GPU 0; the first is held to 20 GB/s, so the second gets 80.
    EXPECT_NEAR(net.run({{0, 1, 20e9, 20e9}, {0, 2, 80e9}}), 1.0, 1e-9);
}

}  // namespace
}  // namespace sim::net
