// SPDX-License-Identifier: MIT
// Topologies, max-min fair flows and collectives: the traffic of a ring AllReduce, the floor
// that link bandwidth sets, nccl-tests' bus bandwidth at small and large sizes, contention in a
// PCIe tree, and what hierarchy and trees buy on a cluster.
#include "models/net/core/collective.h"

#include <gtest/gtest.h>

#include <optional>

namespace sim::net {
namespace {

LinkParams link(const std::string& kind, double gbps, double efficiency = 1, double latency = 0) {
    return {kind, gbps * 1e9, efficiency, latency};
}

// P GPUs on one switch, each with its own link.
Topology star(uint32_t gpus, const LinkParams& l) {
    Topology t;
    const uint32_t sw = t.add_switch("switch");
    for (uint32_t i = 0; i < gpus; ++i)
        t.connect(t.add_gpu("gpu" + std::to_string(i)), sw, l);
    t.finalise();
    return t;
}

// No software latency anywhere: launch, protocol steps, hierarchical steps.
CollectiveParams no_latency() {
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

CollectiveResult run(const Topology& t,
                     Collective c,
                     Algorithm a,
                     double bytes,
                     const CollectiveParams& p,
                     std::optional<Protocol> proto = Protocol::Simple) {
    if (c == Collective::AllToAll || a == Algorithm::Hierarchical) proto.reset();
    return run_collective(t, {c, a, proto, bytes}, p);
}

TEST(Topology, RoutesAreFewestHopsAndADisconnectedGpuIsAnError) {
    Topology t;
    const uint32_t a = t.add_gpu("a"), b = t.add_gpu("b"), c = t.add_gpu("c");
    const uint32_t sw = t.add_switch("sw");
    t.connect(a, sw, link("x", 10));
    t.connect(b, sw, link("x", 10));
    t.connect(a, b, link("direct", 10));
    t.add_gpu("lonely");
    (void)c;
    try {
        t.finalise();
        FAIL() << "a disconnected GPU was accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("cannot reach"), std::string::npos);
    }
    Topology u;
    const uint32_t x = u.add_gpu("x"), y = u.add_gpu("y"), s = u.add_switch("s");
    u.connect(x, s, link("x", 10));
    u.connect(y, s, link("x", 10));
    u.connect(x, y, link("direct", 10));
    u.finalise();
    ASSERT_EQ(u.route(0, 1).size(), 1u);  // the direct link, not the two hops via the switch
    EXPECT_EQ(u.link(u.route(0, 1)[0]).kind, "direct");
    EXPECT_THROW(u.connect(x, x, link("x", 10)), std::logic_error);
    Topology v;
    const uint32_t only = v.add_gpu("only");
    EXPECT_THROW(v.connect(only, 7, link("x", 10)), std::invalid_argument);  // a link to nowhere
    EXPECT_THROW(v.connect(only, v.add_switch("s"), link("x", 0)), std::invalid_argument);
}

TEST(FlowNetwork, LinksAreSharedMaxMinFairly) {
    // a -> c and b -> c share c's link; a -> d has a slower link of its own at a.
    Topology t;
    const uint32_t sw = t.add_switch("sw");
    const uint32_t a = t.add_gpu("a"), b = t.add_gpu("b"), c = t.add_gpu("c"), d = t.add_gpu("d");
    t.connect(a, sw, link("fast", 100));
    t.connect(b, sw, link("fast", 100));
    t.connect(c, sw, link("fast", 100));
    t.connect(d, sw, link("slow", 20));
    t.finalise();
    FlowNetwork net(t);
    // Alone, 100 GB to c takes 1 s; two senders to c take 2 s for both.
    EXPECT_NEAR(net.run({{0, 2, 100e9}}), 1.0, 1e-9);
    EXPECT_NEAR(net.run({{0, 2, 100e9}, {1, 2, 100e9}}), 2.0, 1e-9);
    // a sends to c and to d: the a->d flow is held to 20 GB/s by d's link, so a->c gets the
    // other 80 GB/s of a's link (max-min), not half of it.
    FlowNetwork net2(t);
    EXPECT_NEAR(net2.run({{0, 2, 80e9}, {0, 3, 20e9}}), 1.0, 1e-9);
}

TEST(Collective, RingAllReduceSendsTwoPMinusOneOverPOfTheMessage) {
    for (uint32_t p : {2u, 4u, 8u, 16u}) {
        const Topology t = star(p, link("nvlink", 400));
        const double m = 1 << 30;
        const auto r = run(t, Collective::AllReduce, Algorithm::Ring, m, no_latency());
        EXPECT_NEAR(r.bytes_sent_per_rank, 2.0 * (p - 1) / p * m, 1e-6 * m) << p;
        EXPECT_EQ(r.steps % (2u * (p - 1)), 0u) << "whole loops of 2(P-1) steps";
        // With no latency the ring runs exactly at link rate: busbw = link bandwidth.
        EXPECT_NEAR(r.busbw, 400e9, 1e-6 * 400e9) << p;
    }
}

TEST(Collective, NeverFasterThanTheBytesOverTheLink) {
    const Topology t = star(8, link("nvlink", 450, 0.85, 0.25e-6));
    for (Collective c : {Collective::AllReduce, Collective::AllGather, Collective::ReduceScatter,
                         Collective::AllToAll}) {
        for (double m : {1e3, 1e6, 1e9}) {
            const auto r = run(t, c, Algorithm::Ring, m, CollectiveParams{}, std::nullopt);
            EXPECT_GE(r.time, r.bytes_sent_per_rank / (450e9 * 0.85) * (1 - 1e-12))
                << to_string(c) << " " << m;
            EXPECT_LE(r.busbw, 450e9 * 0.85 * (1 + 1e-9));
        }
    }
}

TEST(Collective, BusBandwidthRisesWithSizeAndSaturatesBelowTheLinkRate) {
    const Topology t = star(8, link("nvlink", 450, 0.85, 0.25e-6));
    CollectiveParams p;
    p.ranks_per_node = 8;  // one node
    p.nccl.ring_channels = 16;
    double previous = 0;
    for (double m = 8; m <= 8e9; m *= 4) {
        const auto r = run(t, Collective::AllReduce, Algorithm::Ring, m, p, std::nullopt);
        EXPECT_GT(r.busbw, previous) << m;
        previous = r.busbw;
        if (m < 1e4) {
            EXPECT_LT(r.busbw, 0.01 * 450e9) << "small messages are latency-bound";
        }
    }
    // Within 10% of the link: each step of 16 x 2 MiB chunks (88 us on the wire) also pays two
    // Simple slice rounds of 3.4 - 0.5 us (NcclProtocols.ASimpleRingStepSynchronisesOncePerSlice).
    EXPECT_GT(previous, 0.90 * 0.85 * 450e9);
    EXPECT_LT(previous, 0.85 * 450e9);
}

TEST(Collective, APcieTreeCongestsWhereNvSwitchDoesNot) {
    // 8 GPUs under two PCIe switches: an AllToAll sends half of every GPU's data across the two
    // switch uplinks, which carry four GPUs' worth each.
    Topology pcie;
    const uint32_t root = pcie.add_switch("cpu");
    const LinkParams l = link("pcie", 64);
    for (uint32_t h = 0; h < 2; ++h) {
        const uint32_t sw = pcie.add_switch("sw" + std::to_string(h));
        pcie.connect(sw, root, l);
        for (uint32_t i = 0; i < 4; ++i)
            pcie.connect(pcie.add_gpu("gpu" + std::to_string(4 * h + i)), sw, l);
    }
    pcie.finalise();
    const Topology flat = star(8, l);
    const double m = 1e9;
    const auto tree = run(pcie, Collective::AllToAll, Algorithm::Ring, m, no_latency());
    const auto ideal = run(flat, Collective::AllToAll, Algorithm::Ring, m, no_latency());
    // Each uplink carries 4 GPUs × 4/8 of their data = 2 × a GPU's link: half the rate at best.
    EXPECT_NEAR(tree.time / ideal.time, 16.0 / 7.0, 0.01);
}

// `nodes` nodes of 8 GPUs: fast links inside a node, one slower NIC per GPU to its rail's
// switch, the rails joined by a spine.
Topology rail_cluster(uint32_t nodes) {
    Topology t;
    std::vector<uint32_t> rails;
    for (uint32_t r = 0; r < 8; ++r)
        rails.push_back(t.add_switch("rail" + std::to_string(r)));
    const uint32_t spine = t.add_switch("spine");
    for (uint32_t r = 0; r < 8; ++r)
        t.connect(rails[r], spine, link("spine", nodes * 50));
    for (uint32_t n = 0; n < nodes; ++n) {
        const uint32_t sw = t.add_switch("nvswitch" + std::to_string(n));
        for (uint32_t g = 0; g < 8; ++g) {
            const uint32_t v = t.add_gpu("n" + std::to_string(n) + "g" + std::to_string(g));
            t.connect(v, sw, link("nvlink", 450, 1, 0.25e-6));
            t.connect(v, rails[g], link("ib", 50, 1, 1e-6));
        }
    }
    t.finalise();
    return t;
}

// The bytes on the links of one kind, lowest and highest.
std::pair<double, double> link_bytes_range(const Topology& t,
                                           const CollectiveResult& r,
                                           const std::string& kind) {
    double low = 1e300, high = 0;
    for (uint32_t l = 0; l < t.link_count(); ++l) {
        if (t.link(l).kind != kind) continue;
        low = std::min(low, r.link_bytes[l]);
        high = std::max(high, r.link_bytes[l]);
    }
    return {low, high};
}

TEST(Collective, ChannelsCrossBetweenNodesThroughEveryNicAsNcclSpreadsThem) {
    // NCCL gives each channel's ring and tree their own NIC of every node; with 8 channels or
    // more, every NIC carries the same traffic, and the ring's busbw reaches the node's 8
    // NICs together (400 GB/s), not one NIC's 50. One channel crosses through one NIC.
    const Topology t = rail_cluster(2);
    CollectiveParams p = no_latency();
    p.ranks_per_node = 8;
    p.nccl.ring_channels = p.nccl.tree_channels = 24;
    const double big = 1 << 30;
    for (Algorithm a : {Algorithm::Ring, Algorithm::Tree}) {
        const auto r = run(t, Collective::AllReduce, a, big, p);
        const auto [low, high] = link_bytes_range(t, r, "ib");
        EXPECT_GT(low, 0.99 * high) << "every NIC carries its share";
        EXPECT_EQ(link_bytes_range(t, r, "spine").second, 0) << "the traffic stays on its rail";
    }
    const auto ring = run(t, Collective::AllReduce, Algorithm::Ring, big, p);
    EXPECT_GT(ring.busbw, 0.95 * 400e9);
    EXPECT_LT(ring.busbw, 1.001 * 400e9);
    p.nccl.ring_channels = 1;
    const auto one = run(t, Collective::AllReduce, Algorithm::Ring, big, p);
    EXPECT_LT(one.busbw, 1.001 * 50e9) << "one channel, one NIC";
}

TEST(Collective, HopsBetweenNodesPayTheNetworkTransportsLatency) {
    // NCCL's network transport makes a hop between nodes slower than one over NVLink (its
    // proxy posts each send; tuning.cc hwLat NET). A chunk meets 2 x nodes of them in a ring
    // AllReduce, nodes - 1 in an AllGather, and 2 x tree levels in a tree AllReduce; inside
    // one node there are none.
    CollectiveParams p = no_latency();
    p.ranks_per_node = 8;
    p.nccl.simple.net_ring_hop_latency = 10e-6;
    p.nccl.simple.net_tree_hop_latency = 7e-6;
    CollectiveParams none = p;
    none.nccl.simple.net_ring_hop_latency = none.nccl.simple.net_tree_hop_latency = 0;
    const double m = 64 << 20;
    const auto extra = [&](const Topology& t, Collective c, Algorithm a) {
        return run(t, c, a, m, p, Protocol::Simple).time -
               run(t, c, a, m, none, Protocol::Simple).time;
    };
    const Topology four = rail_cluster(4);
    EXPECT_NEAR(extra(four, Collective::AllReduce, Algorithm::Ring), 8 * 10e-6, 1e-12);
    EXPECT_NEAR(extra(four, Collective::AllGather, Algorithm::Ring), 3 * 10e-6, 1e-12);
    // Four nodes: a double binary tree of 2 levels, climbed and descended.
    EXPECT_NEAR(extra(four, Collective::AllReduce, Algorithm::Tree), 4 * 7e-6, 1e-12);
    const Topology one = star(8, link("nvlink", 450));
    EXPECT_EQ(extra(one, Collective::AllReduce, Algorithm::Ring), 0);
    EXPECT_EQ(extra(one, Collective::AllReduce, Algorithm::Tree), 0);
}

TEST(Collective, HierarchyAndTreesPayOffOnAClusterWhereTheyShould) {
    // 16 nodes of 8 GPUs, one channel: its ring crosses between nodes through one NIC.
    const Topology t = rail_cluster(16);
    CollectiveParams p;
    p.step_latency = 0.5e-6;
    p.ranks_per_node = 8;
    const double big = 1 << 30, small = 1024;
    const auto ring = run(t, Collective::AllReduce, Algorithm::Ring, big, p);
    const auto hier = run(t, Collective::AllReduce, Algorithm::Hierarchical, big, p);
    EXPECT_GT(hier.busbw, 2 * ring.busbw);
    const auto ring_small = run(t, Collective::AllReduce, Algorithm::Ring, small, p, Protocol::LL);
    const auto tree_small = run(t, Collective::AllReduce, Algorithm::Tree, small, p, Protocol::LL);
    // The tree's 2 x (7 + log2 16) steps beat the ring's 2 x 127.
    EXPECT_LT(tree_small.time, ring_small.time / 3) << "log P steps beat 2(P-1) at small sizes";
    EXPECT_THROW(run(t, Collective::AllGather, Algorithm::Tree, big, p), std::invalid_argument);
    EXPECT_THROW(run(t, Collective::AllReduce, Algorithm::Nvls, big, p), std::invalid_argument)
        << "NVLS needs one NVSwitch";
    p.ranks_per_node = 3;
    EXPECT_THROW(run(t, Collective::AllReduce, Algorithm::Hierarchical, big, p),
                 std::invalid_argument);
}

}  // namespace
}  // namespace sim::net
