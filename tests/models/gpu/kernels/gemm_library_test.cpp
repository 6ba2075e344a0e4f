// SPDX-License-Identifier: MIT
// A GEMM's kernel as a library picks it: DeepGEMM's tile heuristic, a tile and cluster a trace
// asks for, and clusters along N that multicast A.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <set>
#include <stdexcept>
#include <utility>

#include "models/gpu/core/gpu_core.h"
#include "models/gpu/kernels/deepgemm_tile.h"
#include "models/gpu/kernels/gemm.h"
#include "tests/testing/gpu_presets.h"

namespace sim::gpu {
namespace {

using testing::gemm_of;
using testing::run_kernel;
using testing::small_h100;
using testing::target_of;

/// A BF16 GEMM as DeepGEMM's tests/test_bf16.py runs it: NT (A and B K-major), BF16 out.
GemmProblem nt_gemm(uint64_t m, uint64_t n, uint64_t k) {
    GemmProblem g = gemm_of(m, n, k);
    g.b_transposed = true;
    return g;
}

GemmRequest deepgemm() {
    GemmRequest r;
    r.library = GemmLibrary::DeepGemm;
    return r;
}

TEST(DeepGemmTile, PicksTheLayoutsDeepGemmsHeuristicPicks) {
    // Expected from a separate transcription of sm90.hpp's get_layout_candidates and
    // get_layout_info (DeepGEMM 2026-04, docs/references.md [deepgemm]) on 132 SMs.
    const GpuTarget h = target_of(testing::gpu_preset("h100"));
    struct Case {
        uint64_t m, n, k;
        uint32_t bm, bn, cluster;
        bool along_n;
        uint32_t stages;
    };
    for (const Case& c : {
             Case{4096, 576, 7168, 128, 144, 1, false, 5},   // one wave of 128 tiles
             Case{4096, 2112, 7168, 128, 176, 2, false, 4},  // B multicast down M
             Case{4096, 7168, 16384, 256, 128, 2, true, 3},  // A multicast across N
             Case{128, 7168, 16384, 64, 112, 1, false, 9},   // 128 tiles of 64 rows
             Case{1, 7168, 16384, 16, 64, 1, false, 16},     // m <= 16: 16-row tiles
         }) {
        const GemmTile t = choose_deepgemm_tile(nt_gemm(c.m, c.n, c.k), h);
        const std::string shape =
            std::to_string(c.m) + "x" + std::to_string(c.n) + "x" + std::to_string(c.k);
        EXPECT_EQ(t.bm, c.bm) << shape;
        EXPECT_EQ(t.bn, c.bn) << shape;
        EXPECT_EQ(t.cluster, c.cluster) << shape;
        EXPECT_EQ(t.cluster_along_n, c.along_n) << shape;
        EXPECT_EQ(t.stages, c.stages) << shape;
        EXPECT_EQ(t.bk, 64u) << shape;
    }
}

TEST(DeepGemmTile, EstimatesTrafficOverWaveEfficiencyAndKeepsOneWaveUnclustered) {
    // 4096 x 576 x 7168, 128 x 144: 128 tiles in one wave of 132 SMs. L2 traffic per tile is
    // 7168 x (128 + 144) x 2 B of A and B and 128 x 144 x 2 B of C, over 6153 B per cycle;
    // it exceeds the L1 side (the 128 tiles' bytes over 128 B per SM cycle), and the wave's
    // efficiency 128 / 132 scales it up.
    const GpuTarget h = target_of(testing::gpu_preset("h100"));
    const std::vector<DeepGemmLayout> all = deepgemm_layouts(nt_gemm(4096, 576, 7168), h);
    const auto it = std::find_if(all.begin(), all.end(), [](const DeepGemmLayout& l) {
        return l.bm == 128 && l.bn == 144 && l.cluster_m == 1 && l.cluster_n == 1;
    });
    ASSERT_NE(it, all.end());
    const int64_t l2 = (7168 * (128 + 144) * 2 + 128 * 144 * 2) * 128 / 6153;
    EXPECT_NEAR(double(it->cycles), double(l2) / (128.0 / 132.0), 1.0);
    // Clustered layouts of a single wave are never chosen.
    for (const DeepGemmLayout& l : all) {
        const uint64_t tiles = ((4096 + l.bm - 1) / l.bm) * ((576 + l.bn - 1) / l.bn);
        if (l.cluster_m * l.cluster_n > 1 && tiles <= 132) {
            EXPECT_EQ(l.cycles, std::numeric_limits<int64_t>::max()) << l.bm << "x" << l.bn;
        }
    }
}

TEST(DeepGemmTile, RefusesWhatDeepGemmDoesNotRun) {
    const GpuTarget h = target_of(testing::gpu_preset("h100"));
    GemmProblem fp8 = nt_gemm(4096, 4096, 4096);
    fp8.dtype = DType::FP8;
    EXPECT_THROW(gemm_kernels(fp8, h, deepgemm()), std::invalid_argument);
    EXPECT_THROW(
        gemm_kernels(nt_gemm(4096, 4096, 4096), target_of(testing::gpu_preset("a100")), deepgemm()),
        std::invalid_argument);
    GemmRequest split = deepgemm();
    split.split_k = 2;
    EXPECT_THROW(gemm_kernels(nt_gemm(4096, 4096, 4096), h, split), std::invalid_argument);
    // What it does run is one data-parallel kernel: no split, no stream-K.
    const std::vector<KernelLaunch> k = gemm_kernels(nt_gemm(4096, 2112, 7168), h, deepgemm());
    ASSERT_EQ(k.size(), 1u);
    EXPECT_EQ(k[0].grid.stream_k.units, 0u);
    EXPECT_EQ(k[0].grid.k_splits, 1u);
    EXPECT_EQ(k[0].ctas, 32u * 12);
}

TEST(TileGrid, AClusterAlongNTakesNeighbouringNTilesOfOneMTile) {
    TileGrid g;
    g.m_tiles = 12;  // a group of 8 and one of 4
    g.n_tiles = 6;
    g.cluster_n = 2;
    std::set<std::pair<uint64_t, uint64_t>> seen;
    for (uint64_t cta = 0; cta < g.ctas(); cta += 2) {
        const TileGrid::Coord a = g.of(cta), b = g.of(cta + 1);
        EXPECT_EQ(a.m, b.m) << cta;
        EXPECT_EQ(b.n, a.n + 1) << cta;
        EXPECT_EQ(a.n % 2, 0u) << cta;
        seen.insert({a.m, a.n});
        seen.insert({b.m, b.n});
    }
    EXPECT_EQ(seen.size(), 72u);  // every tile once
    // Down M first inside a group, as without clusters: CTAs 0 and 2 are M tiles 0 and 1.
    EXPECT_EQ(g.of(2).m, 1u);
    EXPECT_EQ(g.of(2).n, 0u);
}

TEST(GemmRequest, AClusterAlongNMulticastsAOnceToBothCtas) {
    // 512 x 512 x 1024 in 128 x 128 tiles: 16 CTAs read 128 x 1024 of A and of B each. Pairs
    // along N share A, so L2 serves A half as often: three quarters of the reads; pairs along
    // M share B, the same saving.
    const GpuParams h = small_h100();
    const GemmProblem g = nt_gemm(512, 512, 1024);
    const auto l2_reads = [&](uint32_t cm, uint32_t cn) {
        GemmRequest r;
        r.tile_m = r.tile_n = 128;
        r.cluster_m = cm;
        r.cluster_n = cn;
        r.split_k = 1;
        const std::vector<KernelLaunch> k = gemm_kernels(g, target_of(h), r);
        EXPECT_EQ(k[0].cluster, cm * cn);
        EXPECT_EQ(k[0].grid.cluster_n, cn);
        return run_kernel(h, k[0]).totals.l2_read_sectors;
    };
    const double none = l2_reads(1, 1);
    EXPECT_NEAR(l2_reads(1, 2) / none, 0.75, 0.03);
    EXPECT_NEAR(l2_reads(2, 1) / none, 0.75, 0.03);
}

TEST(GemmRequest, ATileOrClusterTheKernelCannotBuildIsRefused) {
    const GpuTarget h = target_of(testing::gpu_preset("h100"));
    const GpuTarget a = target_of(testing::gpu_preset("a100"));
    const auto with = [](uint32_t bm, uint32_t bn, uint32_t cm = 0, uint32_t cn = 0) {
        GemmRequest r;
        r.tile_m = bm;
        r.tile_n = bn;
        r.cluster_m = cm;
        r.cluster_n = cn;
        return r;
    };
    const GemmProblem g = nt_gemm(4096, 576, 7168);
    EXPECT_THROW(gemm_kernels(g, h, with(100, 128)), std::invalid_argument);    // not 64 rows
    EXPECT_THROW(gemm_kernels(g, h, with(128, 100)), std::invalid_argument);    // not 8 columns
    EXPECT_THROW(gemm_kernels(g, a, with(80, 128)), std::invalid_argument);     // mma.sync warps
    EXPECT_THROW(gemm_kernels(g, a, with(0, 0, 2, 1)), std::invalid_argument);  // no clusters
    EXPECT_THROW(gemm_kernels(nt_gemm(4096, 640, 7168), h, with(128, 128, 1, 2)),
                 std::invalid_argument);  // 5 N tiles do not pair
    EXPECT_THROW(gemm_kernels(g, h, with(256, 256)), std::invalid_argument);  // registers
    // A tile the kernel can build is built as asked, with the stages that fit.
    const std::vector<KernelLaunch> k = gemm_kernels(g, h, with(128, 144));
    EXPECT_EQ(k[0].grid.m_tiles, 32u);
    EXPECT_EQ(k[0].grid.n_tiles, 4u);
    EXPECT_EQ(k[0].cluster, 1u);
}

}  // namespace
}  // namespace sim::gpu
