// SPDX-License-Identifier: MIT
// The kernel library's lowering: grid shapes, vector widths, the hints a trace may give, and
// the operators it has no kernel for.
#include "models/gpu/kernels/kernels.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "models/gpu/core/occupancy.h"

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
    EXPECT_EQ(count(k, Opcode::LoopBegin), 0u);
}

size_t loops(const KernelLaunch& k) {
    return count(k, Opcode::LoopBegin);
}

Op row_op(OpKind kind, DType dtype, uint64_t rows, uint64_t cols) {
    Op op;
    op.kind = kind;
    op.dtype = dtype;
    op.params = RowParams{rows, cols};
    return op;
}

TEST(Kernels, RowsTooLongForRegistersAreWalkedTwiceWithoutClusters) {
    // Llama-3's vocabulary in BF16 on an A100 (no thread-block clusters): 128,256 columns =
    // 16,032 vectors of 8.
    const gpu::GpuParams a100 = testing::gpu_preset("a100");
    const KernelLaunch k =
        testing::lower_one(row_op(OpKind::Softmax, DType::BF16, 4096, 128256), a100);
    EXPECT_EQ(k.ctas, 4096u);
    EXPECT_EQ(k.threads_per_cta, 1024u);
    // One CTA per SM: the rows in flight (108 x 256 KB) fit the L2 for the second pass.
    EXPECT_EQ(occupancy_of(a100.core.sm, k).ctas_per_sm, 1u);
    ASSERT_EQ(loops(k), 2u);  // online max and sum; then normalise and write
    EXPECT_NO_THROW(k.validate());
    // Four vectors per thread per trip: ceil(16032 / (1024 x 4)) = 4 trips, each pass.
    const auto first = std::find_if(k.program.begin(), k.program.end(),
                                    [](const Instr& in) { return in.op == Opcode::LoopBegin; });
    EXPECT_EQ(first->count, 4u);
    EXPECT_TRUE(first->reread_later);
    // The sampler may fast-forward the second pass, never the first.
    const MainLoop main = main_loop_of(k);
    ASSERT_TRUE(main.found());
    EXPECT_GT(main.begin, static_cast<uint32_t>(first - k.program.begin()));
    // Trip i's copy u of thread t reads vector (4i + u) x 1024 + t of the CTA's row.
    const uint64_t row_bytes = 16032 * 16;
    EXPECT_EQ(k.streams[1].address(3, 2, 5) - k.streams[0].base,
              3 * row_bytes + ((2 * 4 + 1) * 1024 + 5) * 16);
    EXPECT_EQ(count(k, Opcode::Stg), 4u);
}

TEST(Kernels, RowsTooLongForRegistersAreSplitOverAClusterOnHopper) {
    // Llama-3's vocabulary in BF16 on an H100: one CTA's registers do not hold 16,032 vectors,
    // two, four or eight CTAs' do; eight is the fewest whose parts fit twice on an SM (256
    // threads of 96 registers, 8 vectors each: 2,004 vectors = 16,032 columns per CTA).
    const gpu::GpuParams h100 = testing::gpu_preset("h100");
    const KernelLaunch k = testing::lower_one(row_op(OpKind::Softmax, DType::BF16, 4096, 128256));
    EXPECT_EQ(k.cluster, 8u);
    EXPECT_EQ(k.ctas, 4096u * 8);
    EXPECT_EQ(k.threads_per_cta, 256u);
    EXPECT_EQ(occupancy_of(h100.core.sm, k).ctas_per_sm, 2u);
    EXPECT_NO_THROW(k.validate());
    EXPECT_EQ(loops(k), 0u);  // the part stays in registers: the row is read once
    EXPECT_EQ(count(k, Opcode::Ldg), 8u);
    EXPECT_EQ(count(k, Opcode::Stg), 8u);
    // Two exchanges with the cluster over the SM-to-SM network (the max, then the sum), no
    // copy through L2.
    EXPECT_EQ(count(k, Opcode::ClusterExchange), 2u);
    EXPECT_EQ(count(k, Opcode::Tma), 0u);
    // CTA c holds part c % 8 of row c / 8: consecutive parts, 16,032 BF16 apart.
    EXPECT_EQ(k.streams[0].address(11, 0, 0) - k.streams[0].base, 11u * 16032 * 2);
    // On an A100 the same row is walked twice by one CTA (the test above).
    EXPECT_EQ(testing::lower_one(row_op(OpKind::Softmax, DType::BF16, 4096, 128256),
                                 testing::gpu_preset("a100"))
                  .cluster,
              1u);
}

TEST(Kernels, AClusterSplitRowIsReadFromDramOnceAndEveryClusterRuns) {
    // 7 SMs, two CTAs each: 14 slots, room for one whole cluster of 8 at a time (a cluster
    // launches whole, GpuCore::dispatch_clusters), so clusters wait for slots; every CTA still
    // runs, and the row is read from DRAM once.
    const gpu::GpuParams p = testing::small_h100(7);
    const uint64_t rows = 6, cols = 128256;
    const KernelLaunch k = testing::lower_one(row_op(OpKind::Softmax, DType::BF16, rows, cols), p);
    ASSERT_EQ(k.cluster, 8u);
    const KernelResult r = testing::run_kernel(p, k);
    EXPECT_EQ(r.simulated_ctas, k.ctas);
    const double row_bytes = double(rows * cols * 2);
    EXPECT_NEAR(r.totals.dram_read_bytes / row_bytes, 1.0, 0.02);
}

TEST(Kernels, EveryRowLengthLowersToAKernelThatFitsOnAnSm) {
    // The lengths that once found no kernel (FP32 rows of 32,769-65,536 columns, BF16 rows of
    // ~45k-131k: GPT-2's and Llama-3's vocabularies), around them, and far beyond.
    const std::vector<uint64_t> lengths{1,
                                        7,
                                        1000,
                                        32768,
                                        32769,
                                        45000,
                                        50257,
                                        65536,
                                        100000,
                                        128256,
                                        131072,
                                        1 << 20,
                                        (uint64_t{1} << 24) + 3};
    for (const char* gpu : {"a100", "h100"}) {
        const gpu::GpuParams p = testing::gpu_preset(gpu);
        for (OpKind kind : {OpKind::Softmax, OpKind::Layernorm}) {
            for (DType dtype : {DType::FP32, DType::BF16}) {
                for (uint64_t cols : lengths) {
                    SCOPED_TRACE(std::string(gpu) + " " + to_string(kind) + " " +
                                 std::to_string(cols));
                    const KernelLaunch k = testing::lower_one(row_op(kind, dtype, 64, cols), p);
                    EXPECT_NO_THROW(k.validate());
                    EXPECT_GT(occupancy_of(p.core.sm, k).ctas_per_sm, 0u);
                }
            }
        }
    }
}

TEST(Kernels, LongLayernormRowsReadGammaAndBetaBesideTheSecondPass) {
    const KernelLaunch k = testing::lower_one(row_op(OpKind::Layernorm, DType::FP32, 16, 65536),
                                              testing::gpu_preset("a100"));
    ASSERT_EQ(loops(k), 2u);
    EXPECT_EQ(count(k, Opcode::Ldg), 4u + 3 * 4u);  // x in pass 1; x, gamma, beta in pass 2
    EXPECT_NO_THROW(k.validate());
    // gamma is one row every CTA reads.
    const AddressStream& gamma = k.streams[8];
    EXPECT_EQ(gamma.address(0, 1, 0), gamma.address(7, 1, 0));
}

TEST(Kernels, AttentionSoftmaxScalesAndMasksEveryScore) {
    AttentionParams a;
    a.batch = 1;
    a.heads = 2;
    a.seq = 128;
    a.head_dim = 64;
    a.causal = true;
    AddressSpace space;
    const gpu::GpuParams p = testing::gpu_preset("h100");
    const GpuTarget target{p.core, p.tensor};
    const KernelLaunch k = attention_softmax_kernel(a, DType::FP16, {}, target, space);
    EXPECT_EQ(k.ctas, 256u);  // batch x heads x seq rows
    EXPECT_NO_THROW(k.validate());
    AddressSpace other;
    const KernelLaunch plain = softmax_kernel(RowParams{256, 128}, DType::FP16, {}, target, other);
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
