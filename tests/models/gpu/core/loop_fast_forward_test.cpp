// SPDX-License-Identifier: MIT
// Sampling inside a wave: the main loop a kernel has, caches taking the fills of skipped trips,
// and a fast-forwarded GEMM against the same GEMM run trip by trip.
#include "models/gpu/core/loop_fast_forward.h"

#include <gtest/gtest.h>

#include <cmath>

#include "models/gpu/core/gpu_core.h"
#include "models/gpu/core/sector_cache.h"
#include "models/gpu/kernels/gemm.h"
#include "tests/testing/gpu_presets.h"

namespace sim::gpu {
namespace {

using testing::run_kernel;
using testing::small_h100;

KernelLaunch gemm_launch(const GpuParams& p, uint64_t m, uint64_t n, uint64_t k, GemmTile& t) {
    GemmProblem g;
    g.m = m;
    g.n = n;
    g.k = k;
    const GpuTarget target{p.core, p.tensor};
    t = choose_gemm_tile(g, target);
    AddressSpace space;
    return gemm_kernel(g, t, target, space);
}

TEST(MainLoop, AGemmsIsItsKLoopAndJumpsKeepItsStages) {
    const GpuParams p = small_h100(8);
    GemmTile t;
    const KernelLaunch k = gemm_launch(p, 1024, 1024, 4096, t);
    const MainLoop loop = main_loop_of(k);
    ASSERT_TRUE(loop.found());
    EXPECT_EQ(k.program[loop.begin].op, Opcode::LoopBegin);
    EXPECT_EQ(loop.trips, k.grid.k_tiles);
    EXPECT_EQ(loop.trips, 4096u / t.bk);
    EXPECT_EQ(loop.trip_multiple, t.stages);  // the stage buffers rotate with the k-tile

    // An element-wise kernel unrolls: no loop to fast-forward.
    EXPECT_FALSE(main_loop_of(testing::lower_one(testing::elementwise_op(1 << 20))).found());
}

TEST(SectorCache, UnusedFillsTakeFreeWaysFirstThenTheLeastRecentlyUsed) {
    SectorCache c(4 * 128, 4);  // one set of four ways
    SectorCache::Victim v;
    c.fill(0, 0xF, true, v);  // dirty
    c.fill(128, 0xF, false, v);
    EXPECT_EQ(c.fill_unused(2), 0u);  // the two free ways
    EXPECT_EQ(c.lookup(0, 0xF), 0xF);
    EXPECT_EQ(c.lookup(128, 0xF), 0xF);  // now the most recent line
    // Further fills evict the least recently used: the two unused lines, then line 0.
    EXPECT_EQ(c.fill_unused(2), 0u);
    EXPECT_EQ(c.fill_unused(1), 4u);  // line 0's four dirty sectors go
    EXPECT_EQ(c.lookup(0, 0xF), 0);
    EXPECT_EQ(c.lookup(128, 0xF), 0xF);
    EXPECT_EQ(c.fill_unused(100), 0u);  // more fills than ways: nothing real is left
    EXPECT_EQ(c.lookup(128, 0xF), 0);
}

TEST(SectorCache, UnusedFillsEvictWhatFillsOfNewLinesWould) {
    // One set of 16 ways, used in a shuffled order with some ways freed again: k unused fills
    // must evict the same lines, and as many dirty sectors, as k fills of new lines do.
    for (uint64_t k = 1; k <= 16; ++k) {
        SectorCache unused(16 * 128, 16), fresh(16 * 128, 16);
        SectorCache::Victim v;
        for (SectorCache* c : {&unused, &fresh}) {
            for (uint64_t i = 0; i < 16; ++i)
                c->fill((i * 7 % 16) * 128, 0xF, i % 3 == 0, v);
            c->lookup(5 * 128, 0xF);  // touched again: among the most recent
            c->invalidate(9 * 128);   // free ways come first
            c->invalidate(2 * 128);
        }
        const uint64_t dirty = unused.fill_unused(k);
        uint64_t fresh_dirty = 0;
        for (uint64_t f = 0; f < k; ++f) {
            fresh.fill((100 + f) * 128, 0xF, false, v);
            fresh_dirty += static_cast<uint64_t>(__builtin_popcount(v.dirty));
        }
        EXPECT_EQ(dirty, fresh_dirty) << k << " fills";
        for (uint64_t i = 0; i < 16; ++i)
            EXPECT_EQ(unused.lookup(i * 128, 0xF), fresh.lookup(i * 128, 0xF)) << "line " << i;
    }
}

TEST(LoopFastForward, AFastForwardedGemmAgreesWithTheTripByTripRun) {
    // 16 CTAs of 256 k-tiles on 8 SMs: two waves, each fast-forwarded.
    const GpuParams p = small_h100(8);
    GemmTile t;
    const uint64_t m = 1024, n = 512, k = 16384;
    const KernelLaunch kernel = gemm_launch(p, m, n, k, t);
    ASSERT_EQ(kernel.ctas, 16u);
    const KernelResult full = run_kernel(p, kernel, false);
    const KernelResult fast = run_kernel(p, kernel, true);
    EXPECT_EQ(full.skipped_trips, 0u);
    ASSERT_GT(fast.skipped_trips, 0u);
    EXPECT_TRUE(fast.extrapolated);
    EXPECT_EQ(fast.simulated_ctas, fast.ctas);  // every CTA ran its epilogue
    EXPECT_LT(fast.sm.warp_instructions, full.sm.warp_instructions / 2);
    // The jumps' time and work come from measured trips: the time within 4% (the model's
    // cycle-vs-sampled agreement, docs/performance.md), the FLOPs within a trip's worth.
    EXPECT_NEAR(double(fast.cycles) / double(full.cycles), 1.0, 0.04);
    EXPECT_NEAR(fast.totals.tensor_flops / (2.0 * m * n * k), 1.0, 0.01);
    EXPECT_NEAR(fast.totals.dram_read_bytes / full.totals.dram_read_bytes, 1.0, 0.05);
    EXPECT_NEAR(fast.totals.warp_instructions / full.totals.warp_instructions, 1.0, 0.02);
}

}  // namespace
}  // namespace sim::gpu
