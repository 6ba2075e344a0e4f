// SPDX-License-Identifier: MIT
// MFU and HFU from per-operator results: recomputed operators count as hardware FLOPs only,
// and the roof is the one carrying the most FLOPs. Constructed results: consistency checks.
#include "sim/engine/utilization.h"

#include <gtest/gtest.h>

namespace sim {
namespace {

Op op_named(size_t index, bool recompute) {
    Op op;
    op.index = index;
    op.kind = OpKind::Gemm;
    op.recompute = recompute;
    return op;
}

OpResult result(double flops, double roof) {
    OpResult r;
    r.cost.flops = flops;
    r.roof_flops = roof;
    return r;
}

TEST(Utilization, RecomputationCountsAsHardwareFlopsOnly) {
    // Forward 2 units, backward 4, the forward again before the backward: HFU/MFU = 8/6 = 4/3.
    Trace t;
    t.ops = {op_named(0, false), op_named(1, true), op_named(2, false)};
    const std::vector<OpResult> results = {result(2e12, 1e15), result(2e12, 1e15),
                                           result(4e12, 1e15)};
    const Utilization u = utilization_of(t, results, 0.02);
    EXPECT_DOUBLE_EQ(u.model_flops, 6e12);
    EXPECT_DOUBLE_EQ(u.hardware_flops, 8e12);
    EXPECT_DOUBLE_EQ(u.peak_flops, 1e15);
    EXPECT_DOUBLE_EQ(u.mfu(), 6e12 / 0.02 / 1e15);
    EXPECT_DOUBLE_EQ(u.hfu() / u.mfu(), 4.0 / 3.0);
}

TEST(Utilization, TheRoofIsTheOneCarryingTheMostFlops) {
    // A bf16 Tensor Core GEMM and an fp32 optimizer step on the CUDA cores.
    Trace t;
    t.ops = {op_named(0, false), op_named(1, false)};
    const Utilization u = utilization_of(t, {result(9e12, 989e12), result(1e10, 67e12)}, 0.01);
    EXPECT_DOUBLE_EQ(u.peak_flops, 989e12);
}

TEST(Utilization, NoFlopsNoUtilization) {
    Trace t;
    t.ops = {op_named(0, false)};
    const Utilization u = utilization_of(t, {result(0, 0)}, 1.0);
    EXPECT_EQ(u.peak_flops, 0);
    EXPECT_EQ(u.mfu(), 0);
    EXPECT_EQ(u.hfu(), 0);
}

}  // namespace
}  // namespace sim
