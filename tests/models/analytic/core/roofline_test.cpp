// SPDX-License-Identifier: MIT
// The analytic timing against hand-computed Roofline values on a small made-up device.
#include "models/analytic/core/roofline.h"

#include <gtest/gtest.h>

#include "sim/config/loader.h"
#include "sim/core/timeline.h"

namespace sim::analytic {
namespace {

// 1 SM at 1 GHz: vector fp32 1 TFLOP/s, tensor fp16 10 TFLOP/s; HBM 100 GB/s (ridge 100);
// NVLink 50 GB/s per direction; no launch gap unless set (a graph node's is a tenth of it).
hw::HardwareParams device(const std::string& launch = "0us") {
    auto doc = parse_config_text(
        "name: t\ndevice: gpu\nsm: {count: 1}\nclocks: {core: 1GHz}\n"
        "compute:\n  vector: {clock: core, flops_per_clock: {fp32: 1000}}\n"
        "  tensor: {clock: core, flops_per_clock: {fp16: 10000}}\n"
        "hbm: {stacks: 1, bus_width_bits: 800, pin_rate: 1Gbps}\n"
        "nvlink: {links: 2, link_bandwidth: 50GB/s}\n"
        "runtime: {stream_gap: " +
            launch + ", graph_node_gap: " + launch + "}\n",
        "t.yaml");
    return hw::HardwareParams::from_config(ConfigNode::root_of(doc));
}

OpCost cost(double flops, double bytes, ComputeUnit unit, DType dtype) {
    OpCost c;
    c.flops = flops;
    c.dram_bytes = bytes;
    c.unit = unit;
    c.dtype = dtype;
    return c;
}

TEST(Roofline, BelowTheRidgeTimeIsBytesOverBandwidth) {
    const hw::HardwareParams hw = device();
    const RooflineCore core(hw);
    // 1e9 FLOP and 1.2e10 B (the fp32 a+b=c intensity): 0.12 s of memory vs 1 ms of compute.
    const RooflineTiming t = core.time(cost(1e9, 12e9, ComputeUnit::Vector, DType::FP32));
    EXPECT_EQ(t.bound, "memory");
    EXPECT_EQ(t.duration, TimePs{120'000'000'000ULL});
    EXPECT_DOUBLE_EQ(t.compute_seconds, 1e-3);
}

TEST(Roofline, AboveTheRidgeTimeIsFlopsOverPeak) {
    const hw::HardwareParams hw = device();
    const RooflineCore core(hw);
    const RooflineTiming t = core.time(cost(1e13, 1e9, ComputeUnit::Tensor, DType::FP16));
    EXPECT_EQ(t.bound, "compute");
    EXPECT_EQ(t.duration, TimePs{1'000'000'000'000ULL});  // 1e13 / 1e13 FLOP/s = 1 s
    EXPECT_DOUBLE_EQ(t.roof_flops, 1e13);
}

TEST(Roofline, AtTheRidgeBothRoofsAgree) {
    const hw::HardwareParams hw = device();
    const RooflineCore core(hw);
    const RooflineTiming t = core.time(cost(100e9, 1e9, ComputeUnit::Tensor, DType::FP16));
    EXPECT_DOUBLE_EQ(t.compute_seconds, t.memory_seconds);
}

TEST(Roofline, LaunchGapIsAddedAndCanDominate) {
    hw::HardwareParams hw = device("5us");
    hw.launch.graph_node_gap_ps = 500'000;
    const RooflineCore core(hw);
    const OpCost small = cost(1e3, 1e3, ComputeUnit::Vector, DType::FP32);
    const RooflineTiming tiny = core.time(small);
    EXPECT_EQ(tiny.bound, "launch");
    EXPECT_EQ(tiny.duration, TimePs{5'000'000 + 10'000});  // 1 kB at 100 GB/s = 10 ns
    // A graph node pays the graph's smaller gap.
    EXPECT_EQ(core.time(small, LaunchMode::Graph).duration, TimePs{500'000 + 10'000});
}

TEST(Roofline, CollectivesUseTheLinkBandwidth) {
    const hw::HardwareParams hw = device();
    const RooflineCore core(hw);
    OpCost c;
    c.unit = ComputeUnit::Network;
    c.wire_bytes = 50e9;
    const RooflineTiming t = core.time(c);
    EXPECT_EQ(t.bound, "network");
    EXPECT_EQ(t.duration, TimePs{1'000'000'000'000ULL});
}

TEST(Roofline, MissingRatesAndLinksAreExplained) {
    const hw::HardwareParams hw = device();
    const RooflineCore core(hw);
    Op op;
    EXPECT_NE(core.unsupported_reason(op, cost(1, 1, ComputeUnit::Tensor, DType::FP8))
                  .find("no tensor rate for fp8"),
              std::string::npos);
    OpCost host;
    host.unit = ComputeUnit::Host;
    EXPECT_NE(core.unsupported_reason(op, host).find("no host link"), std::string::npos);
    EXPECT_TRUE(core.unsupported_reason(op, cost(1, 1, ComputeUnit::Vector, DType::FP32)).empty());
}

TEST(Timeline, ServesInArrivalOrder) {
    Timeline engine;
    EXPECT_EQ(engine.reserve(TimePs{0}, TimePs{10}), TimePs{0});
    EXPECT_EQ(engine.reserve(TimePs{3}, TimePs{5}), TimePs{10});   // waits for the first job
    EXPECT_EQ(engine.reserve(TimePs{40}, TimePs{1}), TimePs{40});  // idle engine starts at once
    EXPECT_EQ(engine.busy(), TimePs{16});
}

}  // namespace
}  // namespace sim::analytic

namespace sim::analytic {
namespace {

TEST(Roofline, AReplayedDurationIsTheOpsTimePlusTheLaunch) {
    const hw::HardwareParams hw = device("2us");
    const RooflineCore core(hw);
    OpCost c = cost(1e12, 0, ComputeUnit::Vector, DType::FP32);  // 1 s on the roof
    c.replay_ps = 7'000'000;                                     // 7 us measured
    const RooflineTiming t = core.time(c);
    EXPECT_EQ(t.duration, TimePs{9'000'000});
    EXPECT_EQ(t.bound, "measured");
}

}  // namespace
}  // namespace sim::analytic
