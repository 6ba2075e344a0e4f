// SPDX-License-Identifier: MIT
// The TPU v1 preset against the published figures of Jouppi et al., ISCA 2017: 92 TOPS peak
// from 256 x 256 MACs at 700 MHz, 34 GB/s weight memory, MLPs memory-bound at the DDR3's
// bandwidth and a large-batch CNN layer close to peak.
#include <gtest/gtest.h>

#include "models/systolic/core/fold_timing.h"
#include "models/systolic/systolic_params.h"
#include "sim/config/loader.h"

namespace sim::systolic {
namespace {

SystolicParams tpu_v1() {
    const auto doc = load_config(std::string(WALLSIM_SOURCE_DIR) + "/configs/hw/tpu_v1.yaml");
    return SystolicParams::from_config(ConfigNode::root_of(doc));
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

}  // namespace
}  // namespace sim::systolic
