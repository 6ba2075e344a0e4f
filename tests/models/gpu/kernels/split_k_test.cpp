// SPDX-License-Identifier: MIT
// Split-K GEMMs: the grid's K splits, each split's share of K and its own partial sums, the
// reduce kernel that adds them, the heuristic that splits only an under-filled wave, and what
// splitting buys a long-K GEMM on idle SMs.
#include <gtest/gtest.h>

#include <set>
#include <tuple>

#include "models/gpu/core/gpu_core.h"
#include "models/gpu/kernels/gemm.h"
#include "models/gpu/kernels/kernel_shape.h"
#include "tests/testing/gpu_presets.h"

namespace sim::gpu {
namespace {

using testing::gemm_of;
using testing::run_kernel;
using testing::small_h100;
using testing::target_of;

GemmTile tile_128x128(uint32_t k_splits) {
    GemmTile t;
    t.bm = t.bn = 128;
    t.bk = 64;
    t.stages = 2;
    t.warps = 8;
    t.k_splits = k_splits;
    return t;
}

TEST(TileGrid, SplitKGivesEveryTileOneCtaPerSplitSplitsOutermost) {
    TileGrid g;
    g.batch = 2;
    g.m_tiles = 3;
    g.n_tiles = 2;
    g.k_splits = 3;
    ASSERT_EQ(g.ctas(), 2u * 3 * 3 * 2);
    std::set<std::tuple<uint64_t, uint64_t, uint64_t, uint64_t>> seen;
    for (uint64_t c = 0; c < g.ctas(); ++c) {
        const TileGrid::Coord t = g.of(c);
        ASSERT_LT(t.split, g.k_splits);
        seen.insert({t.batch, t.split, t.m, t.n});
    }
    EXPECT_EQ(seen.size(), g.ctas());
    // Inside a batch, the 6 tiles of split 0 come first, then those of split 1 (a grid's z).
    EXPECT_EQ(g.of(5).split, 0u);
    EXPECT_EQ(g.of(6).split, 1u);
    EXPECT_EQ(g.of(6).batch, 0u);
    EXPECT_EQ(g.of(18).batch, 1u);
    EXPECT_EQ(g.of(18).split, 0u);
}

TEST(SplitK, EachSplitReadsItsShareOfKAndWritesItsOwnPartials) {
    const GpuParams h = testing::gpu_preset("h100");
    const GemmProblem p = gemm_of(128, 128, 1024);  // 16 k-tiles of 64
    AddressSpace space;
    const KernelLaunch k = gemm_kernel(p, tile_128x128(2), target_of(h), space);
    EXPECT_EQ(k.ctas, 2u);
    EXPECT_EQ(k.grid.k_tiles, 8u);  // each CTA's main loop: its 8 k-tiles
    const AddressStream& a = k.streams[0];
    const AddressStream& c = k.streams[2];
    EXPECT_EQ(c.name, "C_partial");
    EXPECT_EQ(c.row_bytes, 128u * 4);  // FP32 partial sums
    std::vector<LineAccess> lines;
    // Split 1 (CTA 1) starts at k-tile 8: A's columns 512.. (1024 bytes into each row).
    tile_lines(a, k.grid, 1, 0, 0, 1, lines);
    ASSERT_FALSE(lines.empty());
    EXPECT_EQ(lines.front().line, a.base + 8 * 64 * 2);
    lines.clear();
    // Its last k-tile is K's last: nothing past the matrix on its last iteration.
    tile_lines(a, k.grid, 1, 7, 0, 1, lines);
    EXPECT_EQ(lines.front().line, a.base + 15 * 64 * 2);
    lines.clear();
    // Each split writes its own partial matrix.
    tile_lines(c, k.grid, 0, 0, 0, 1, lines);
    EXPECT_EQ(lines.front().line, c.base);
    lines.clear();
    tile_lines(c, k.grid, 1, 0, 0, 1, lines);
    EXPECT_EQ(lines.front().line, c.base + c.split_bytes);
    EXPECT_EQ(c.split_bytes, 128u * 128 * 4);
}

TEST(SplitK, SplitsThatCutAKTileAreRejected) {
    const GpuParams h = testing::gpu_preset("h100");
    AddressSpace space;
    EXPECT_THROW(gemm_kernel(gemm_of(128, 128, 1024), tile_128x128(3), target_of(h), space),
                 NotLowerable);
    EXPECT_THROW(gemm_kernels(gemm_of(128, 128, 1024), target_of(h), 3), NotLowerable);
    EXPECT_THROW(gemm_kernels(gemm_of(128, 128, 1024), target_of(h), kMaxKSplits + 1),
                 NotLowerable);
}

TEST(SplitK, TheHeuristicSplitsOnlyAnUnderfilledWaveWithLongK) {
    const GpuParams h = testing::gpu_preset("h100");
    const GpuTarget g = target_of(h);
    // 512 x 512 outputs are a fraction of a wave on 132 SMs: K is split to fill the idle SMs.
    const GemmProblem skinny = gemm_of(512, 512, 65536);
    const GemmTile t = choose_gemm_tile(skinny, g);
    const uint64_t tiles = ceil_div(skinny.m, t.bm) * ceil_div(skinny.n, t.bn);
    const uint32_t s = choose_k_splits(skinny, t, g);
    EXPECT_GT(s, 1u);
    EXPECT_LE(tiles * s, h.core.sm_count);
    EXPECT_EQ(ceil_div(skinny.k, t.bk) % s, 0u);
    // A grid that fills its waves is not split; nor is a short K (8 k-tiles).
    const GemmProblem square = gemm_of(8192, 8192, 8192);
    EXPECT_EQ(choose_k_splits(square, choose_gemm_tile(square, g), g), 1u);
    const GemmProblem short_k = gemm_of(512, 512, 512);
    EXPECT_EQ(choose_k_splits(short_k, choose_gemm_tile(short_k, g), g), 1u);
}

TEST(SplitK, TheReduceKernelAddsEverySplitsPartialsIntoC) {
    const GpuParams p = small_h100(8);
    const GemmProblem g = gemm_of(128, 256, 4096);
    const std::vector<KernelLaunch> k = gemm_kernels(g, target_of(p), 4);
    ASSERT_EQ(k.size(), 2u);
    EXPECT_EQ(k[0].name, "gemm_splitk");
    EXPECT_EQ(k[1].name, "splitk_reduce");
    const AddressStream& partials = k[0].streams[2];
    ASSERT_EQ(k[1].streams.size(), 5u);  // four partials in, C out
    for (uint32_t i = 0; i < 4; ++i)
        EXPECT_EQ(k[1].streams[i].base, partials.base + i * partials.split_bytes);
    const KernelResult gemm = run_kernel(p, k[0]);
    EXPECT_DOUBLE_EQ(gemm.sm.tensor_flops, 2.0 * 128 * 256 * 4096);  // the split GEMM's FLOPs
    // L2 holds nothing over from the GEMM: the reduce reads every partial from DRAM once and
    // writes C (BF16) once.
    const KernelResult reduce = run_kernel(p, k[1]);
    EXPECT_EQ(reduce.memory.dram_read_bytes, 4u * 128 * 256 * 4);
    EXPECT_EQ(reduce.memory.l2_write_sectors * 32, 128u * 256 * 2);
}

TEST(SplitK, FillingIdleSmsFinishesALongKGemmSooner) {
    // 512 x 512 outputs on an H100: unsplit, 64 tiles leave 68 of the 132 SMs idle; split as
    // the heuristic splits it, each SM walks its share of K and the reduce adds a few MB.
    const GpuParams p = testing::gpu_preset("h100");
    const GemmProblem g = gemm_of(512, 512, 65536);
    const uint32_t splits = choose_k_splits(g, choose_gemm_tile(g, target_of(p)), target_of(p));
    ASSERT_GT(splits, 1u);
    const auto cycles = [&](uint64_t s) {
        uint64_t total = 0;
        for (const KernelLaunch& k : gemm_kernels(g, target_of(p), s))
            total += run_kernel(p, k, true).cycles;
        return total;
    };
    const uint64_t whole = cycles(1), split = cycles(splits);
    RecordProperty("unsplit_cycles", std::to_string(whole));
    RecordProperty("split_cycles", std::to_string(split));
    // Twice the SMs at work: close to half the time (the L2 carries the same operand traffic
    // in less time, and the partials are extra).
    EXPECT_LT(double(split), 0.65 * double(whole));
}

}  // namespace
}  // namespace sim::gpu
