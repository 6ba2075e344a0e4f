// SPDX-License-Identifier: MIT
// The textbook's memory-wall arithmetic, produced by the analytic model: element-wise FP32
// a+b=c (1 FLOP per 12 bytes) runs at a tiny fraction of peak FLOP/s while at peak bandwidth;
// large GEMMs sit on the flat roof; square-GEMM intensity grows as n/6 (fp32).
#include <gtest/gtest.h>

#include "models/analytic/core/roofline.h"
#include "sim/config/loader.h"
#include "sim/trace/op_cost.h"
#include "tests/testing/ops.h"
#include "tests/testing/temp_dir.h"

namespace sim::analytic {
namespace {

hw::HardwareParams preset(const std::string& name) {
    return hw::HardwareParams::from_config(
        ConfigNode::root_of(load_config(testing::source_path("configs/hw/" + name + ".yaml"))));
}

using testing::square_gemm;
using testing::vector_add;

TEST(MemoryWall, ElementwiseAddOnA100UsesUnderFivePercentOfTensorPeak) {
    const hw::HardwareParams hw = preset("a100");
    const RooflineCore core(hw);
    const OpCost cost = cost_of(vector_add(1ULL << 28));
    EXPECT_NEAR(cost.intensity(), 0.0833, 0.0005);  // chapter: "≈0.08 FLOP/B", 12 B per FLOP
    const RooflineTiming t = core.time(cost);
    const double achieved = cost.flops / to_seconds(t.duration);
    EXPECT_EQ(t.bound, "memory");
    EXPECT_LT(achieved / (312e12), 0.05);  // chapter: "a 312 TFLOP/s card runs at <5%"
    // It is bandwidth that limits it: the bytes move at (almost) peak bandwidth.
    EXPECT_GT(cost.dram_bytes / to_seconds(t.duration) / hw.hbm_bandwidth(), 0.99);
    // Three orders of magnitude below the ridge point (chapter ).
    EXPECT_GT(hw.ridge_point(ComputeUnit::Tensor, DType::FP16) / cost.intensity(), 1000);
}

TEST(MemoryWall, MoreFlopsPerByteOnlyHelpsUntilTheKnee) {
    const hw::HardwareParams hw = preset("h100");
    const RooflineCore core(hw);
    double previous = 0;
    for (uint64_t flops_per_element = 1; flops_per_element <= 4096; flops_per_element *= 2) {
        Op op = vector_add(1ULL << 26);
        std::get<ElementwiseParams>(op.params).flops_per_element = flops_per_element;
        const OpCost cost = cost_of(op);
        const double achieved = cost.flops / to_seconds(core.time(cost).duration);
        EXPECT_GE(achieved, previous * 0.999);  // never slower with more reuse
        EXPECT_LE(achieved, hw.peak_flops(ComputeUnit::Vector, DType::FP32) * 1.0001);
        previous = achieved;
    }
    // Past the FP32 knee (ridge ≈ 20 FLOP/B on H100 CUDA cores) it is on the flat roof.
    EXPECT_GT(previous / hw.peak_flops(ComputeUnit::Vector, DType::FP32), 0.95);
}

TEST(MemoryWall, GemmEfficiencyRisesWithSize) {
    const hw::HardwareParams hw = preset("h100");
    const RooflineCore core(hw);
    double previous = 0;
    for (uint64_t n = 64; n <= 16384; n *= 2) {
        const OpCost cost = cost_of(square_gemm(n, DType::BF16));
        const double util = cost.flops / to_seconds(core.time(cost).duration) /
                            hw.peak_flops(ComputeUnit::Tensor, DType::BF16);
        EXPECT_GE(util, previous) << n;
        previous = util;
    }
    EXPECT_GT(previous, 0.99);  // the analytic bound: a large GEMM reaches the flat roof
    // A 64^3 GEMM is bound by its launch overhead, far from the roof.
    const OpCost small = cost_of(square_gemm(64, DType::BF16));
    EXPECT_EQ(core.time(small).bound, "launch");
}

}  // namespace
}  // namespace sim::analytic
