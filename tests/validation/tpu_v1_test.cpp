// SPDX-License-Identifier: MIT
// The TPU v1 preset against the published figures of Jouppi et al., ISCA 2017: 92 TOPS peak
// from 256 x 256 MACs at 700 MHz, 34 GB/s weight memory, MLPs memory-bound at the DDR3's
// bandwidth and a large-batch CNN layer close to peak.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "models/systolic/core/fold_timing.h"
#include "models/systolic/systolic_params.h"
#include "sim/config/loader.h"
#include "tests/testing/config_error.h"

namespace sim::systolic {
namespace {

SystolicParams load(const std::string& name, const std::vector<std::string>& overrides = {}) {
    const auto doc =
        load_config(std::string(WALLSIM_SOURCE_DIR) + "/configs/hw/" + name, overrides);
    return SystolicParams::from_config(ConfigNode::root_of(doc));
}

SystolicParams tpu_v1() {
    return load("tpu_v1.yaml");
}

TEST(TpuV1, PeakAndRidgeFromStructure) {
    const SystolicParams p = tpu_v1();
    EXPECT_NEAR(p.array.peak_ops() / 1e12, 92.0, 0.5);  // the paper's "92 TOPS"
    EXPECT_DOUBLE_EQ(p.dram_bandwidth, 34e9);
    // The paper counts a MAC as one op: its ridge point is half of ours, about 1350.
    EXPECT_NEAR(p.array.peak_ops() / 2 / p.dram_bandwidth, 1350, 5);
}

TEST(TpuV1, MlpIsMemoryBoundAtTheDdr3Bandwidth) {
    const SystolicParams p = tpu_v1();
    // MLP0's batch of 200 (Table 1) through a 2048 x 2048 int8 layer: 4 MiB of weights, each
    // used 200 times, 400 ops per weight byte, far below the ridge.
    const LayerTiming t = time_layer(p.array, Layer::gemm("mlp0", 200, 2048, 2048));
    EXPECT_TRUE(t.memory_bound);
    EXPECT_EQ(t.dram_bytes, 2048u * 2048u);
    const double seconds = t.seconds(p.array.clock_hz);
    EXPECT_GT(double(t.dram_bytes) / seconds, 0.95 * p.dram_bandwidth);
    EXPECT_LT(2.0 * double(t.macs) / seconds, 0.2 * p.array.peak_ops());
}

TEST(TpuV1, LargeBatchConvolutionIsComputeBound) {
    const SystolicParams p = tpu_v1();
    Layer l;  // 3x3 conv, 256 -> 256 channels, 14 x 14 (padded to 16), batch 32
    l.ifmap_h = l.ifmap_w = 16;
    l.filter_h = l.filter_w = 3;
    l.channels = 256;
    l.num_filters = 256;
    l.batch = 32;
    const LayerTiming t = time_layer(p.array, l);
    EXPECT_FALSE(t.memory_bound);
    EXPECT_GT(t.overall_utilisation, 0.85);
}

TEST(TpuV1Hbm, CycleLevelHbmSetsTheBandwidthAndLiftsTheMlp) {
    // One HBM2e stack, 1024 bit x 3.2 Gbps = 409.6 GB/s peak. Streaming weights through the
    // cycle-level model sustains most of it (refresh and row switches take the rest).
    const SystolicParams p = load("tpu_v1_hbm.yaml");
    ASSERT_TRUE(p.hbm_backing.has_value());
    EXPECT_DOUBLE_EQ(p.hbm_backing->peak_bandwidth, 409.6e9);
    EXPECT_GT(p.dram_bandwidth, 0.8 * 409.6e9);
    EXPECT_LT(p.dram_bandwidth, 409.6e9);
    EXPECT_GT(p.array.dram_energy_per_byte, 0.0);
    // The same MLP layer that waits on DDR3 is no longer memory-bound, and runs faster.
    const Layer mlp = Layer::gemm("mlp0", 200, 2048, 2048);
    const LayerTiming ddr3 = time_layer(tpu_v1().array, mlp);
    const LayerTiming hbm = time_layer(p.array, mlp);
    EXPECT_TRUE(ddr3.memory_bound);
    EXPECT_FALSE(hbm.memory_bound);
    EXPECT_LT(hbm.total_cycles * 3, ddr3.total_cycles * 2);
}

TEST(TpuV1Hbm, BandwidthAndDramEnergyComeFromTheModelOnly) {
    EXPECT_THAT(
        testing::config_error([] { load("tpu_v1_hbm.yaml", {"systolic.dram.bandwidth=100GB/s"}); }),
        ::testing::HasSubstr("systolic.dram.bandwidth: must be absent with model: hbm"));
    EXPECT_THAT(testing::config_error(
                    [] { load("tpu_v1_hbm.yaml", {"systolic.energy.dram_per_byte=1pJ"}); }),
                ::testing::HasSubstr("systolic.energy.dram_per_byte: must be absent"));
    EXPECT_THAT(testing::config_error([] { load("tpu_v1_hbm.yaml", {"hbm.stacks=0"}); }),
                ::testing::HasSubstr("hbm.stacks"));
}

}  // namespace
}  // namespace sim::systolic
