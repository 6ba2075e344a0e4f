// SPDX-License-Identifier: MIT
// Stream-K GEMMs on Hopper: the decomposition CUTLASS's heuristic picks, the grid that walks
// every tile's k-tiles exactly once across its units, and what sharing the last waves' tiles
// buys when the tiles do not fill their last wave.
#include <gtest/gtest.h>

#include <map>
#include <tuple>

#include "models/gpu/core/gpu_core.h"
#include "models/gpu/core/occupancy.h"
#include "models/gpu/kernels/gemm.h"
#include "models/gpu/kernels/kernel_shape.h"
#include "tests/testing/gpu_presets.h"

namespace sim::gpu {
namespace {

using testing::gemm_of;
using testing::run_kernel;
using testing::small_h100;
using testing::target_of;

TEST(StreamK, PlansAsCutlassHeuristicDoes) {
    // 320 tiles on 132 CTAs: two full waves and 56 tiles, under half a wave. The last full
    // wave and the 56 (188 tiles) are shared by a wave of units; 94 k-tiles per tile.
    const TileGrid::StreamK one = plan_stream_k(320, 132, 1, 94);
    EXPECT_EQ(one.units, 132u);
    EXPECT_EQ(one.tiles, 188u);
    EXPECT_EQ(one.iters, 94u * 188 / 132);      // 133
    EXPECT_EQ(one.big, 94u * 188 - 133 * 132);  // 116 units walk 134
    // In clusters of two: 66 units of two CTAs over 94 pairs of tiles.
    const TileGrid::StreamK two = plan_stream_k(320, 132, 2, 94);
    EXPECT_EQ(two.units, 132u);
    EXPECT_EQ(two.tiles, 188u);
    EXPECT_EQ(two.iters, 94u * 94 / 66);      // 133
    EXPECT_EQ(two.big, 94u * 94 - 133 * 66);  // 58
    // Many waves: only the last full one and the tail are shared.
    const TileGrid::StreamK many = plan_stream_k(8192, 132, 2, 128);
    EXPECT_EQ(many.tiles, 8192u - 61 * 132);
    EXPECT_EQ(many.units, 132u);
    // Data-parallel: waves that come out even, a last wave at least half full, short K.
    EXPECT_EQ(plan_stream_k(264, 132, 1, 94).units, 0u);
    EXPECT_EQ(plan_stream_k(330, 132, 1, 94).units, 0u);  // 66 of 132: half full
    EXPECT_EQ(plan_stream_k(329, 132, 1, 94).units, 132u);
    EXPECT_EQ(plan_stream_k(320, 132, 1, 8).units, 0u);
}

TEST(TileGrid, StreamKUnitsWalkEveryKTileOfTheirTilesOnceAndClustersTogether) {
    TileGrid g;
    g.m_tiles = 2;
    g.n_tiles = 13;
    g.k_tiles = 10;
    g.stream_k = plan_stream_k(g.tiles(), 12, 2, g.k_tiles);
    ASSERT_EQ(g.stream_k.units, 12u);
    ASSERT_EQ(g.stream_k.tiles, 14u);
    EXPECT_EQ(g.ctas(), 12u + (26 - 14));
    std::map<std::tuple<uint64_t, uint64_t, uint64_t>, int> walked;
    for (uint64_t cta = 0; cta < g.ctas(); ++cta) {
        for (uint64_t i = 0; i < g.trips(cta); ++i) {
            const TileGrid::Coord c = g.of(cta, i);
            ASSERT_FALSE(c.past);
            ++walked[{c.m, c.n, c.k}];
            if (g.is_stream_k_unit(cta) && cta % 2 == 1) {
                // A cluster's second CTA: its partner's k-tile, on the next tile of the group.
                const TileGrid::Coord partner = g.of(cta - 1, i);
                EXPECT_EQ(c.k, partner.k);
                EXPECT_EQ(c.n, partner.n);
                EXPECT_EQ(c.m, partner.m + 1);
            }
        }
        if (g.is_stream_k_unit(cta)) {  // a unit's prefetch past its last trip copies nothing
            EXPECT_TRUE(g.of(cta, g.trips(cta)).past);
        }
    }
    EXPECT_EQ(walked.size(), 26u * 10);
    for (const auto& [key, times] : walked)
        EXPECT_EQ(times, 1);
    // The first units' share is one k-tile longer (70 k-tiles over 6 cluster units).
    EXPECT_EQ(g.trips(0), 12u);
    EXPECT_EQ(g.trips(11), 11u);
    EXPECT_EQ(g.trips(12), 10u);  // the data-parallel tiles after them
}

TEST(StreamK, SharingTheLastWavesTilesFinishesSooner) {
    // Nine 128 x 128 tiles of 64 k-tiles on eight SMs (one CTA each): whole tiles take two
    // waves, the second with one CTA; eight units of 72 k-tiles take about 1.1 tiles' time,
    // plus their partial sums.
    const GpuParams p = small_h100(8);
    const GpuTarget target = target_of(p);
    const GemmProblem g = gemm_of(9 * 128, 128, 64 * 64);
    GemmTile t;
    t.bm = t.bn = 128;
    t.bk = 64;
    t.stages = 4;
    t.warps = 8;
    KernelLaunch whole_probe;
    {
        AddressSpace space;
        whole_probe = gemm_kernel(g, t, target, space);
    }
    ASSERT_EQ(occupancy_of(p.core.sm, whole_probe).ctas_per_sm, 1u);
    GemmTile shared = t;
    shared.stream_k = plan_stream_k(9, 8, 1, 64);
    ASSERT_EQ(shared.stream_k.units, 8u);
    ASSERT_EQ(shared.stream_k.iters, 72u);
    AddressSpace space;
    const KernelLaunch k = gemm_kernel(g, shared, target, space);
    EXPECT_EQ(k.ctas, 8u);
    const KernelResult whole = run_kernel(p, whole_probe, false);
    const KernelResult split = run_kernel(p, k, false);
    EXPECT_DOUBLE_EQ(split.sm.tensor_flops, 2.0 * 9 * 128 * 128 * 64 * 64);
    RecordProperty("whole_cycles", std::to_string(whole.cycles));
    RecordProperty("stream_k_cycles", std::to_string(split.cycles));
    EXPECT_LT(double(split.cycles), 0.7 * double(whole.cycles));
    // Each unit stores its partial sums (128 x 128 FP32) and one tile of C (BF16), the tile
    // it finishes last: eight here, where whole tiles store nine.
    EXPECT_EQ(whole.memory.l2_write_sectors * 32, 9u * 128 * 128 * 2);
    EXPECT_EQ(split.memory.l2_write_sectors * 32, 8u * 128 * 128 * (4 + 2));
}

TEST(StreamK, TheTilePickerCountsTheEvenedOutLastWave) {
    // 1280 x 4096 FP8 outputs on an H100: 128 x 256 tiles make 160 tiles, 1.2 waves, which
    // whole tiles would run in two; stream-K runs them in about 1.2, so the wide tile (half
    // the L2 traffic per FLOP of 128 x 128) wins and shares its last waves.
    const GpuParams h = testing::gpu_preset("h100");
    GemmProblem g = gemm_of(1280, 4096, 12032);
    g.dtype = g.out_dtype = DType::FP8;
    const std::vector<KernelLaunch> k = gemm_kernels(g, target_of(h));
    ASSERT_EQ(k.size(), 1u);
    EXPECT_GT(k[0].grid.stream_k.units, 0u);
    EXPECT_EQ(k[0].grid.tiles(), 160u);
    // An explicit split_k fixes the decomposition: whole tiles, no stream-K.
    EXPECT_EQ(gemm_kernels(g, target_of(h), 1)[0].grid.stream_k.units, 0u);
    // Ampere keeps whole tiles.
    GemmProblem b = gemm_of(1280, 4096, 12032);
    EXPECT_EQ(gemm_kernels(b, target_of(testing::gpu_preset("a100")))[0].grid.stream_k.units, 0u);
}

TEST(StreamK, ClusterMembersFinishWhenTheMainLoopJumpPairsTheirCopiesAcrossTiles) {
    // 4096 x 576 x 7168 BF16 on an H100: stream-K units in clusters of two walk 160 tiles,
    // the last column of tiles half as wide (576 = 4.5 x 128). The main-loop fast-forward
    // jumps every warp by the same trips while a cluster's members stand a few k-tiles apart,
    // so their next multicast copies pair up across a tile boundary: B copies of 128 lines
    // and of 64. Each member must be owed its own lines; owed the other's, one waited for
    // ever (while DRAM refresh kept the simulation ticking).
    const GpuParams h = testing::gpu_preset("h100");
    GemmProblem g = gemm_of(4096, 576, 7168);
    g.dtype = g.out_dtype = DType::BF16;
    g.b_transposed = true;
    const std::vector<KernelLaunch> k = gemm_kernels(g, target_of(h));
    ASSERT_EQ(k.size(), 1u);
    ASSERT_GT(k[0].grid.stream_k.units, 0u);
    ASSERT_EQ(k[0].cluster, 2u);
    const KernelResult r = run_kernel(h, k[0], true);
    EXPECT_EQ(r.ctas, k[0].ctas);
    EXPECT_GT(r.cycles, 0u);
}

}  // namespace
}  // namespace sim::gpu
