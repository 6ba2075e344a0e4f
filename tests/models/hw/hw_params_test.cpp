// SPDX-License-Identifier: MIT
#include "models/hw/hw_params.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "sim/config/loader.h"
#include "sim/stats/group.h"
#include "tests/testing/config_error.h"
#include "tests/testing/temp_dir.h"

namespace sim::hw {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

const char* const kMinimal =
    "name: tiny\n"
    "device: gpu\n"
    "sm: {count: 2}\n"
    "clocks: {core: 1GHz, fast: 2GHz}\n"
    "compute:\n"
    "  vector: {clock: core, flops_per_clock: {fp32: 128}}\n"
    "  tensor:\n"
    "    clock: core\n"
    "    flops_per_clock: {fp16: 1024, fp64: {value: 64, clock: fast}}\n"
    "hbm: {stacks: 2, bus_width_bits: 1024, pin_rate: 2Gbps, capacity: 16GB}\n"
    "nvlink: {links: 4, link_bandwidth: 50GB/s}\n"
    "pcie: {lanes: 16, lane_rate: 32Gbps}\n"
    "runtime: {stream_launch: 3us, stream_gap: 1us, graph_launch: 4us, graph_node_gap: 0.5us}\n";

HardwareParams load(const std::string& text, const std::vector<std::string>& overrides = {}) {
    auto doc = parse_config_text(text, "hw.yaml");
    for (const auto& o : overrides)
        apply_override(*doc, o);
    return HardwareParams::from_config(ConfigNode::root_of(doc));
}

using sim::testing::config_error;

TEST(HardwareParams, DerivesPeaksFromStructure) {
    const HardwareParams p = load(kMinimal);
    EXPECT_DOUBLE_EQ(p.peak_flops(ComputeUnit::Vector, DType::FP32), 2 * 128 * 1e9);
    EXPECT_DOUBLE_EQ(p.peak_flops(ComputeUnit::Tensor, DType::FP16), 2 * 1024 * 1e9);
    EXPECT_DOUBLE_EQ(p.peak_flops(ComputeUnit::Tensor, DType::FP64),
                     2 * 64 * 2e9);                                        // its own clock
    EXPECT_DOUBLE_EQ(p.peak_flops(ComputeUnit::Tensor, DType::FP8), 0.0);  // absent
    EXPECT_DOUBLE_EQ(p.hbm_bandwidth(), 2 * 1024 * 2e9 / 8);
    EXPECT_DOUBLE_EQ(p.nvlink_bandwidth_per_direction(), 100e9);
    EXPECT_DOUBLE_EQ(p.pcie_bandwidth_per_direction(), 16 * 32e9 * 128 / 130 / 8);
    EXPECT_DOUBLE_EQ(p.ridge_point(ComputeUnit::Tensor, DType::FP16), 2048e9 / 512e9);
    EXPECT_EQ(p.launch.host_per_op_ps(LaunchMode::Stream), 3'000'000u);
    EXPECT_EQ(p.launch.host_once_ps(LaunchMode::Stream), 0u);
    EXPECT_EQ(p.launch.gap_ps(LaunchMode::Stream), 1'000'000u);
    EXPECT_EQ(p.launch.host_per_op_ps(LaunchMode::Graph), 0u);
    EXPECT_EQ(p.launch.host_once_ps(LaunchMode::Graph), 4'000'000u);
    EXPECT_EQ(p.launch.gap_ps(LaunchMode::Graph), 500'000u);
}

TEST(HardwareParams, TheOldLaunchOverheadKeyNamesItsReplacements) {
    EXPECT_THAT(
        config_error([] { load(kMinimal, {"runtime.launch_overhead=2us"}); }),
        HasSubstr("replaced by stream_launch, stream_gap, graph_launch and graph_node_gap"));
}

TEST(HardwareParams, WhatIfOverridesMoveDerivedFigures) {
    const HardwareParams base = load(kMinimal);
    const HardwareParams more = load(kMinimal, {"sm.count=4", "hbm.stacks=3"});
    EXPECT_DOUBLE_EQ(more.peak_flops(ComputeUnit::Tensor, DType::FP16),
                     2 * base.peak_flops(ComputeUnit::Tensor, DType::FP16));
    EXPECT_DOUBLE_EQ(more.hbm_bandwidth(), 1.5 * base.hbm_bandwidth());
}

TEST(HardwareParams, ImpossibleValuesAreRejectedWithTheirKey) {
    EXPECT_THAT(config_error([] { load(kMinimal, {"hbm.stacks=0"}); }),
                HasSubstr("hbm.stacks: = 0 is out of range: must be at least 1"));
    EXPECT_THAT(config_error([] { load(kMinimal, {"sm.count=0"}); }),
                HasSubstr("sm.count: = 0 is out of range: must be at least 1"));
    EXPECT_THAT(config_error([] { load(kMinimal, {"compute.vector.clock=turbo"}); }),
                HasSubstr("'turbo' is not a clock"));
    EXPECT_THAT(config_error([] { load(kMinimal, {"compute.vector.flops_per_clock.fp32=0"}); }),
                HasSubstr("must be greater than 0"));
    EXPECT_THAT(config_error([] { load(kMinimal, {"compute.vector.flops_per_clock.fp12=1"}); }),
                HasSubstr("'fp12' is not a dtype"));
    EXPECT_THAT(config_error([] { load(kMinimal, {"hbm.pin_rate=2"}); }), HasSubstr("has no unit"));
    EXPECT_THAT(config_error([] { load(kMinimal, {"hbm.generation=DDR4"}); }),
                HasSubstr("not one of: HBM2"));
    EXPECT_THAT(config_error([] { load(kMinimal, {"clocks.core=0Hz"}); }),
                HasSubstr("positive whole number"));
    EXPECT_THAT(config_error([] { load(kMinimal, {"runtime.stream_gap=-1us"}); }),
                HasSubstr("negative"));
}

TEST(HardwareParams, DatasheetKeysAreReadThroughTheirDescriptions) {
    const HardwareParams p = load(kMinimal);
    // A rate without its own clock runs at its unit's; one with a clock keeps it.
    EXPECT_EQ(p.tensor.at(DType::FP16).clock, "core");
    EXPECT_EQ(p.tensor.at(DType::FP64).clock, "fast");
    EXPECT_EQ(p.tensor_clock, "core");
    EXPECT_EQ(p.collective_channels, HardwareParams{}.collective_channels);
    EXPECT_THAT(config_error([] { load(kMinimal, {"network.channels=65"}); }),
                HasSubstr("network.channels: = 65 is out of range: must be between 1 and 64"));
    EXPECT_THAT(config_error([] { load(kMinimal, {"compute.tensor.sparsity_speedup=0.5"}); }),
                HasSubstr("= 0.5 is out of range: must be at least 1"));
    EXPECT_THAT(config_error([] { load(kMinimal, {"l2.size=lots"}); }), HasSubstr("l2.size"));
    const auto docs = clocks_param_table().describe();
    ASSERT_EQ(docs.size(), 1u);
    EXPECT_EQ(docs[0].unit, "Hz");
}

TEST(HardwareParams, MissingSectionIsNamed) {
    EXPECT_THAT(config_error([] { load("name: x\ndevice: gpu\nsm: {count: 1}\n"); }),
                HasSubstr("clocks: required section is missing"));
}

TEST(HardwareParams, PublishesPeaksAndRidgePoints) {
    StatGroup root(nullptr, "");
    load(kMinimal).publish(root.add_group("hw"));
    const Json j = root.to_json();
    EXPECT_DOUBLE_EQ(j["hw"]["peak_flops"]["tensor"]["fp16"]["value"].get<double>(), 2048e9);
    EXPECT_EQ(j["hw"]["peak_flops"]["tensor"]["fp16"]["unit"], "FLOP/s");
    EXPECT_DOUBLE_EQ(j["hw"]["ridge_point"]["tensor"]["fp16"]["value"].get<double>(), 4.0);
    EXPECT_DOUBLE_EQ(j["hw"]["hbm_bandwidth"]["value"].get<double>(), 512e9);
}

TEST(HardwareParams, ShippedPresetsLoad) {
    for (const char* name : {"a100.yaml", "h100.yaml", "h200.yaml"}) {
        const auto doc = load_config(testing::source_path(std::string("configs/hw/") + name));
        const ConfigNode root = ConfigNode::root_of(doc);
        EXPECT_NO_THROW(HardwareParams::from_config(root)) << name;
    }
}

}  // namespace
}  // namespace sim::hw
