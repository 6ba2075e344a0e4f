// SPDX-License-Identifier: MIT
// The context axis of a decode step's kernels: which dimension grows with the context, the grid
// of lengths it is simulated at, and the ops that keep their shape.
#include "models/gpu/context_axis.h"

#include <gtest/gtest.h>

namespace sim::gpu {
namespace {

Op decode_step(OpParams params, uint64_t token = 40) {
    Op op;
    op.kind = std::holds_alternative<GemmParams>(params) ? OpKind::Gemm : OpKind::Softmax;
    op.dtype = DType::BF16;
    op.params = params;
    op.token = token;
    return op;
}

GemmParams gemm(uint64_t m, uint64_t n, uint64_t k, uint64_t batch = 32) {
    GemmParams g;
    g.m = m;
    g.n = n;
    g.k = k;
    g.batch = batch;
    return g;
}

TEST(ContextAxis, TheGridHasSixteenLengthsAnOctave) {
    for (uint64_t n = 1; n <= 32; ++n)
        EXPECT_TRUE(on_context_grid(n)) << n;
    EXPECT_TRUE(on_context_grid(128));
    EXPECT_TRUE(on_context_grid(136));  // 128 + 8
    EXPECT_FALSE(on_context_grid(168 + 1));
    EXPECT_TRUE(on_context_grid(12288));  // 8192 + 8 x 512
    EXPECT_FALSE(on_context_grid(11008));
}

TEST(ContextAxis, AttentionScoresGrowAlongN) {
    const auto a = context_axis(decode_step(gemm(1, 169, 128)));
    ASSERT_TRUE(a);
    EXPECT_EQ(a->value, 169u);
    EXPECT_EQ(a->lower, 168u);
    EXPECT_EQ(a->upper, 176u);
    // The same family whatever the length.
    EXPECT_EQ(context_axis(decode_step(gemm(1, 171, 128)))->family, a->family);
    const Op at = with_context(decode_step(gemm(1, 169, 128)), 176);
    EXPECT_EQ(std::get<GemmParams>(at.params).n, 176u);
    EXPECT_EQ(std::get<GemmParams>(at.params).k, 128u);
}

TEST(ContextAxis, AttentionTimesValuesGrowAlongK) {
    const auto a = context_axis(decode_step(gemm(1, 128, 300)));
    ASSERT_TRUE(a);
    EXPECT_EQ(a->lower, 288u);
    EXPECT_EQ(a->upper, 304u);
}

TEST(ContextAxis, OnlyDecodeStepsWithOneLengthOffTheGrid) {
    EXPECT_FALSE(context_axis(decode_step(gemm(1, 169, 128), 0))) << "the prefill pass";
    Op training = decode_step(gemm(1, 169, 128));
    training.token.reset();
    EXPECT_FALSE(context_axis(training)) << "not an inference step";
    EXPECT_FALSE(context_axis(decode_step(gemm(1, 4096, 4096)))) << "on the grid: as it is";
    EXPECT_FALSE(context_axis(decode_step(gemm(1, 169, 300)))) << "two lengths off the grid";
    RowParams rows;
    rows.rows = 32;
    rows.cols = 1030;
    const auto softmax = context_axis(decode_step(rows));
    ASSERT_TRUE(softmax);
    EXPECT_EQ(softmax->lower, 1024u);
    EXPECT_EQ(softmax->upper, 1088u);
}

}  // namespace
}  // namespace sim::gpu
