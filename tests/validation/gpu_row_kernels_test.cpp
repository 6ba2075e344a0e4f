// SPDX-License-Identifier: MIT
// Long-row softmax and layernorm on the full H100 preset, sampled: a vocabulary's logits
// (Llama-3's 128,256 columns in BF16, GPT-2's 50,257 in FP32) run as the two-pass kernels
// real libraries use for rows too long for registers, near the HBM bandwidth roof. The
// chapter's band for a well-written memory-bound kernel is 80-90% of bandwidth
// (docs/references.md [hw-chapter]); the second pass must find the row in L2, so DRAM moves
// the compulsory bytes (one read, one write) and little more.
#include <gtest/gtest.h>

#include "models/gpu/core/gpu_core.h"
#include "tests/testing/gpu_presets.h"

namespace sim::gpu {
namespace {

struct RowRun {
    double utilisation = 0;  ///< compulsory bytes / time / peak HBM bandwidth
    double dram_excess = 0;  ///< DRAM bytes / compulsory bytes - 1
};

RowRun run_rows(OpKind kind, DType dtype, uint64_t rows, uint64_t cols) {
    const GpuParams p = testing::gpu_preset("h100");
    Op op;
    op.kind = kind;
    op.dtype = dtype;
    op.params = RowParams{rows, cols};
    GpuCore core(p.core, p.hbm.core, testing::lower_one(op, p));
    const KernelResult r = core.run(SamplingOptions{});
    const double seconds = double(r.cycles) / double(p.core.clock_hz);
    const double compulsory = 2.0 * double(rows * cols * dtype_bytes(dtype));
    RowRun out;
    out.utilisation = compulsory / seconds / p.hbm.peak_bandwidth();
    out.dram_excess = (r.totals.dram_read_bytes + r.totals.dram_write_bytes) / compulsory - 1;
    return out;
}

// Not yet met: measured 61% of the roof, DRAM 20% above the compulsory bytes (the second
// pass misses L2 for a fifth of the row: 132 rows of 256 KB in flight plus the outputs
// streaming through a 50 MB L2). With 512-thread CTAs (two rows per SM) it was 53% and 55%.
TEST(GpuRowKernels, DISABLED_Llama3VocabularySoftmaxInBf16RunsNearTheBandwidthRoof) {
    const RowRun r = run_rows(OpKind::Softmax, DType::BF16, 4096, 128256);
    EXPECT_GE(r.utilisation, 0.80);
    EXPECT_LE(r.utilisation, 0.95);
    EXPECT_LT(r.dram_excess, 0.05);
}

// Not yet met either (measured 50% with 512-thread CTAs; not re-measured with 1024).
TEST(GpuRowKernels, DISABLED_Gpt2VocabularyLayernormInFp32RunsNearTheBandwidthRoof) {
    const RowRun r = run_rows(OpKind::Layernorm, DType::FP32, 2048, 50257);
    EXPECT_GE(r.utilisation, 0.80);
    EXPECT_LE(r.utilisation, 0.95);
    EXPECT_LT(r.dram_excess, 0.05);
}

}  // namespace
}  // namespace sim::gpu
