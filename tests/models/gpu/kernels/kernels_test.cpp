// SPDX-License-Identifier: MIT
// The kernel library's lowering: grid shapes, vector widths, the hints a trace may give, and
// the operators it has no kernel for.
#include "models/gpu/kernels/kernels.h"

#include <gtest/gtest.h>

#include "tests/testing/gpu_presets.h"

namespace sim::gpu {
namespace {

using testing::elementwise_op;

size_t count(const KernelLaunch& k, Opcode op) {
    size_t n = 0;
    for (const Instr& in : k.program)
        n += in.op == op;
    return n;
}

TEST(Kernels, ElementwiseLoadsSixteenBytesPerThreadByDefault) {
    const KernelLaunch k = testing::lower_one(elementwise_op(1 << 20));
    EXPECT_EQ(k.threads_per_cta, 256u);
    EXPECT_EQ(k.ctas, (1u << 20) / 4 / 256);
    ASSERT_EQ(k.streams.size(), 3u);
    EXPECT_EQ(k.streams[0].access_bytes, 16u);
    EXPECT_EQ(count(k, Opcode::Ldg), 2u);
    EXPECT_EQ(count(k, Opcode::Stg), 1u);
    EXPECT_NO_THROW(k.validate());
}

TEST(Kernels, HintsShapeTheKernel) {
    KernelHints h;
    h.block = 128;
    h.vector = 2;
    h.registers = 64;
    h.shared_memory = 4096;
    h.divergence = 8;
    const KernelLaunch k = testing::lower_one(elementwise_op(1 << 20, 16, h));
    EXPECT_EQ(k.threads_per_cta, 128u);
    EXPECT_EQ(k.registers_per_thread, 64u);
    EXPECT_EQ(k.shared_bytes_per_cta, 4096u);
    EXPECT_EQ(k.streams[0].access_bytes, 8u);
    EXPECT_EQ(count(k, Opcode::Diverge), 1u);
    EXPECT_EQ(k.program[1].op, Opcode::Ldg);  // after the index arithmetic
}

TEST(Kernels, AVectorWiderThanSixteenBytesIsRefused) {
    KernelHints h;
    h.vector = 8;  // 32 B per thread: no such load
    EXPECT_THROW(testing::lower_one(elementwise_op(1024, 1, h)), std::invalid_argument);
}

TEST(Kernels, RowKernelsUseOneCtaPerRowAndKeepTheRowInRegisters) {
    Op op;
    op.kind = OpKind::Softmax;
    op.dtype = DType::FP16;
    op.params = RowParams{1000, 8192};
    const KernelLaunch k = testing::lower_one(op);
    EXPECT_EQ(k.ctas, 1000u);
    // 8192 FP16 = 1024 vectors of 8; at most 8 per thread: 128 threads, 8 loads each.
    EXPECT_EQ(k.threads_per_cta, 128u);
    EXPECT_EQ(count(k, Opcode::Ldg), 8u);
    EXPECT_EQ(count(k, Opcode::Stg), 8u);
    EXPECT_EQ(count(k, Opcode::Bar), 4u);  // two block reductions, two barriers each
    op.params = RowParams{10, 1 << 20};
    EXPECT_THROW(testing::lower_one(op), NotLowerable);
}

TEST(Kernels, AttentionSoftmaxScalesAndMasksEveryScore) {
    AttentionParams a;
    a.batch = 1;
    a.heads = 2;
    a.seq = 128;
    a.head_dim = 64;
    a.causal = true;
    AddressSpace space;
    const KernelLaunch k = attention_softmax_kernel(a, DType::FP16, {}, space);
    EXPECT_EQ(k.ctas, 256u);  // batch x heads x seq rows
    EXPECT_NO_THROW(k.validate());
    AddressSpace other;
    const KernelLaunch plain = softmax_kernel(RowParams{256, 128}, DType::FP16, {}, other);
    EXPECT_EQ(k.program.size(), plain.program.size() + 1);
}

TEST(Kernels, Fp64GemmsAndCollectivesHaveNoKernel) {
    Op op;
    op.kind = OpKind::Gemm;
    op.dtype = DType::FP64;
    op.params = GemmParams{1024, 1024, 1024};
    EXPECT_THROW(testing::lower_one(op), NotLowerable);
    op.kind = OpKind::AllReduce;
    op.params = CollectiveParams{1 << 20, 8};
    EXPECT_THROW(testing::lower_one(op), NotLowerable);
}

TEST(Kernels, EmbeddingGathersRowsOfTheTable) {
    Op op;
    op.kind = OpKind::Embedding;
    op.dtype = DType::FP16;
    op.params = EmbeddingParams{4096, 4096, 32000};
    const KernelLaunch k = testing::lower_one(op);
    EXPECT_EQ(k.streams[0].layout, AddressStream::Layout::Gather);
    const uint64_t row_bytes = 4096 * 2;
    // Two threads in one row read neighbouring vectors of one table row.
    EXPECT_EQ(k.streams[0].address(0, 0, 1) - k.streams[0].address(0, 0, 0), 16u);
    EXPECT_EQ((k.streams[0].address(0, 0, 0) - k.streams[0].base) % row_bytes, 0u);
}

}  // namespace
}  // namespace sim::gpu
