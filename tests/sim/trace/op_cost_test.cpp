// SPDX-License-Identifier: MIT
// FLOPs and compulsory bytes per operator kind, against hand-computed values.
#include "sim/trace/op_cost.h"

#include <gtest/gtest.h>

namespace sim {
namespace {

Op make(OpKind kind, DType dtype, OpParams params) {
    Op op;
    op.kind = kind;
    op.dtype = dtype;
    op.params = std::move(params);
    return op;
}

TEST(OpCost, ElementwiseFp32AddIsTwelveBytesPerFlop) {
    ElementwiseParams p;
    p.elements = 1000;  // c = a + b: 2 reads, 1 write, 1 FLOP each
    const OpCost c = cost_of(make(OpKind::Elementwise, DType::FP32, p));
    EXPECT_DOUBLE_EQ(c.flops, 1000);
    EXPECT_DOUBLE_EQ(c.dram_bytes, 12000);
    EXPECT_NEAR(c.intensity(), 1.0 / 12.0, 1e-12);  // the textbook's ≈0.08 FLOP/B
    EXPECT_EQ(c.unit, ComputeUnit::Vector);
}

TEST(OpCost, SquareGemmIntensityGrowsLinearly) {
    GemmParams p;
    p.m = p.n = p.k = 1024;
    p.out_dtype = DType::FP32;
    const OpCost fp32 = cost_of(make(OpKind::Gemm, DType::FP32, p));
    // 2n³ FLOPs over 3n² fp32 values = n/6 FLOP/B: the textbook's "≈171 at n = 1024".
    EXPECT_DOUBLE_EQ(fp32.flops, 2.0 * 1024 * 1024 * 1024);
    EXPECT_NEAR(fp32.intensity(), 1024.0 / 6.0, 1e-9);
    EXPECT_EQ(fp32.unit, ComputeUnit::Vector);
    p.out_dtype = DType::BF16;
    const OpCost bf16 = cost_of(make(OpKind::Gemm, DType::BF16, p));
    EXPECT_NEAR(bf16.intensity(), 1024.0 / 3.0, 1e-9);
    EXPECT_EQ(bf16.unit, ComputeUnit::Tensor);
}

TEST(OpCost, BatchedGemmWithWideOutput) {
    GemmParams p;
    p.m = 2;
    p.n = 3;
    p.k = 4;
    p.batch = 5;
    p.out_dtype = DType::FP32;
    const OpCost c = cost_of(make(OpKind::Gemm, DType::FP16, p));
    EXPECT_DOUBLE_EQ(c.flops, 2.0 * 5 * 2 * 3 * 4);
    EXPECT_DOUBLE_EQ(c.dram_bytes, 5.0 * ((2 * 4 + 4 * 3) * 2 + 2 * 3 * 4));
}

TEST(OpCost, Conv2dWithPaddingStrideAndGroups) {
    Conv2dParams p;
    p.batch = 1;
    p.in_channels = 4;
    p.out_channels = 8;
    p.height = p.width = 8;
    p.kernel_h = p.kernel_w = 3;
    p.stride = 2;
    p.padding = 1;
    p.groups = 2;
    EXPECT_EQ(p.out_height(), 4u);  // (8 + 2 - 3) / 2 + 1
    const OpCost c = cost_of(make(OpKind::Conv2d, DType::FP16, p));
    EXPECT_DOUBLE_EQ(c.flops, 2.0 * 1 * 8 * 16 * 2 * 9);
    EXPECT_DOUBLE_EQ(c.dram_bytes, (1.0 * 4 * 64 + 8 * 2 * 9 + 8 * 16) * 2);
}

TEST(OpCost, SoftmaxAndLayernorm) {
    RowParams p;
    p.rows = 10;
    p.cols = 100;
    const OpCost s = cost_of(make(OpKind::Softmax, DType::FP16, p));
    EXPECT_DOUBLE_EQ(s.flops, 5000);
    EXPECT_DOUBLE_EQ(s.dram_bytes, 4000);
    const OpCost l = cost_of(make(OpKind::Layernorm, DType::FP32, p));
    EXPECT_DOUBLE_EQ(l.flops, 8000);
    EXPECT_DOUBLE_EQ(l.dram_bytes, (2000 + 200) * 4);
}

TEST(OpCost, NaiveAttentionMovesTheScoreMatrix) {
    AttentionParams p;
    p.batch = 1;
    p.heads = 2;
    p.seq = p.kv_seq = 128;
    p.head_dim = 64;
    const OpCost fused = cost_of(make(OpKind::Attention, DType::FP16, p));
    p.fused = false;
    const OpCost naive = cost_of(make(OpKind::Attention, DType::FP16, p));
    EXPECT_DOUBLE_EQ(fused.flops, naive.flops);
    EXPECT_DOUBLE_EQ(fused.dram_bytes, 2.0 * 4 * 128 * 64 * 2);
    EXPECT_DOUBLE_EQ(naive.dram_bytes - fused.dram_bytes, 4.0 * 2 * 128 * 128 * 2);
    p.causal = true;
    EXPECT_DOUBLE_EQ(cost_of(make(OpKind::Attention, DType::FP16, p)).flops, naive.flops / 2);
}

TEST(OpCost, AttentionBackwardIsFiveProductsAndEightTensors) {
    AttentionParams p;
    p.batch = 1;
    p.heads = 2;
    p.seq = p.kv_seq = 128;
    p.head_dim = 64;
    p.backward = true;
    const OpCost c = cost_of(make(OpKind::Attention, DType::FP16, p));
    const double scores = 2.0 * 128 * 128;
    EXPECT_DOUBLE_EQ(c.flops, 10.0 * scores * 64 + 5.0 * scores);  // 2.5x the forward's products
    // Q, O, dO, dQ, K, V, dK, dV in FP16, and an FP32 logsumexp per query row.
    EXPECT_DOUBLE_EQ(c.dram_bytes, 8.0 * 2 * 128 * 64 * 2 + 4.0 * 2 * 128);
}

TEST(OpCost, RingAllReduceMovesTwoPMinusOneOverPTimesM) {
    CollectiveParams p;
    p.bytes = 14'000'000'000ULL;  // 7B parameters of FP16 gradients
    p.group = 8;
    const OpCost c = cost_of(make(OpKind::AllReduce, DType::FP16, p));
    EXPECT_DOUBLE_EQ(c.wire_bytes, 2.0 * 7 / 8 * 14e9);
    EXPECT_EQ(c.unit, ComputeUnit::Network);
    EXPECT_DOUBLE_EQ(cost_of(make(OpKind::AllGather, DType::FP16, p)).wire_bytes, 7.0 / 8 * 14e9);
}

TEST(OpCost, MemcpyDirections) {
    MemcpyParams p;
    p.bytes = 100;
    EXPECT_DOUBLE_EQ(cost_of(make(OpKind::Memcpy, DType::FP32, p)).dram_bytes, 200);
    p.direction = "h2d";
    const OpCost h = cost_of(make(OpKind::Memcpy, DType::FP32, p));
    EXPECT_DOUBLE_EQ(h.host_bytes, 100);
    EXPECT_EQ(h.unit, ComputeUnit::Host);
}

}  // namespace
}  // namespace sim
