// SPDX-License-Identifier: MIT
// The tiled kernels: the CTA raster, tile copies, the tile heuristic, and GEMM, convolution and
// attention run on a small H100 (8 SMs), where the counted FLOPs must be the operator's.
#include <gtest/gtest.h>

#include <set>

#include "models/gpu/core/gpu_core.h"
#include "models/gpu/kernel_charge.h"
#include "models/gpu/kernels/gemm.h"
#include "tests/testing/gpu_presets.h"

namespace sim::gpu {
namespace {

using testing::gemm_of;
using testing::run_kernel;
using testing::small_h100;
using testing::target_of;

TEST(TileGrid, VisitsEveryTileOnceInGroupsOfMTiles) {
    TileGrid g;
    g.batch = 2;
    g.m_tiles = 11;  // not a multiple of the group
    g.n_tiles = 5;
    g.group = 4;
    std::set<std::tuple<uint64_t, uint64_t, uint64_t>> seen;
    for (uint64_t c = 0; c < g.ctas(); ++c) {
        const TileGrid::Coord t = g.of(c);
        ASSERT_LT(t.m, g.m_tiles);
        ASSERT_LT(t.n, g.n_tiles);
        seen.insert({t.batch, t.m, t.n});
    }
    EXPECT_EQ(seen.size(), g.ctas());
    // The first CTAs walk down a group of 4 M-tiles before moving across N.
    EXPECT_EQ(g.of(1).m, 1u);
    EXPECT_EQ(g.of(4).n, 1u);
    EXPECT_EQ(g.of(4).m, 0u);
}

TEST(TileLines, ATileIsWholeLinesAndStopsAtTheMatrixEdge) {
    AddressSpace space;
    GemmProblem p;
    p.m = 200;  // the second M-tile has 72 rows
    p.n = 256;
    p.k = 128;
    const GpuParams h = testing::gpu_preset("h100");
    GemmTile t;
    t.bm = 128;
    t.bn = 128;
    t.bk = 64;
    t.stages = 2;
    t.warps = 8;
    const KernelLaunch k = gemm_kernel(p, t, target_of(h), space);
    std::vector<LineAccess> lines;
    tile_lines(k.streams[0], k.grid, 0, 0, 0, 1, lines);
    ASSERT_EQ(lines.size(), 128u);  // 128 rows of 64 BF16 = one 128-byte line each
    for (const LineAccess& l : lines)
        EXPECT_EQ(l.sectors, 0xF);
    lines.clear();
    tile_lines(k.streams[0], k.grid, 1, 0, 0, 1, lines);  // CTA 1: M-tile 1
    EXPECT_EQ(lines.size(), 72u);
    lines.clear();
    tile_lines(k.streams[0], k.grid, 0, 2, 0, 1, lines);  // k-tile 2 is past K = 128
    EXPECT_TRUE(lines.empty());
    // Four warps sharing the copy (cp.async) take a quarter of the rows each.
    lines.clear();
    tile_lines(k.streams[0], k.grid, 0, 0, 3, 4, lines);
    EXPECT_EQ(lines.size(), 32u);
}

TEST(GemmTile, LargeGemmsTakeTheWideTileAndSmallOnesSmallTiles) {
    const GpuParams h = testing::gpu_preset("h100");
    GemmProblem big;
    big.m = big.n = big.k = 8192;
    const GemmTile t = choose_gemm_tile(big, target_of(h));
    EXPECT_EQ(t.bm * t.bn, 128u * 256);
    EXPECT_EQ(t.bk, 64u);
    EXPECT_GE(t.stages, 3u);
    GemmProblem small = big;
    small.m = small.n = 256;
    const GemmTile s = choose_gemm_tile(small, target_of(h));
    EXPECT_LT(s.bm * s.bn, t.bm * t.bn);  // more CTAs for 132 SMs
}

TEST(GemmTile, AmpereTilesKeepTwoWarpsPerScheduler) {
    // A 64 x 128 tile would cut wave quantisation for this GEMM, but one such CTA fits per A100
    // SM: one warp per scheduler, whose ldmatrix loads then stall its own MMAs.
    const GpuParams a = testing::gpu_preset("a100");
    const GemmProblem g = gemm_of(4096, 4096, 11008);
    const GemmTile t = choose_gemm_tile(g, target_of(a));
    AddressSpace space;
    const KernelLaunch k = gemm_kernel(g, t, target_of(a), space);
    EXPECT_GE(occupancy_of(a.core.sm, k).ctas_per_sm * t.warps, 2 * a.core.sm.sub_partitions);
}

TEST(GemmTile, AmpereTakesHalfLineKTilesWhenTheyFitTwiceAsManyCtas) {
    // A 2048^3 FP16 GEMM on an A100: a 128 x 128 tile with 64-wide k-tiles (4 stages, 128 KiB)
    // fits once per SM, one warp per scheduler. With 32-wide k-tiles, as CUTLASS's SM80 kernel
    // list has them, the same stages take half the shared memory and a larger tile than 64 x 64
    // keeps two warps per scheduler. mma.sync only: wgmma's TMA copies whole lines.
    const GpuParams a = testing::gpu_preset("a100");
    GemmProblem g = gemm_of(2048, 2048, 2048);
    g.dtype = DType::FP16;
    const GemmTile t = choose_gemm_tile(g, target_of(a));
    EXPECT_EQ(t.bk, 32u);
    EXPECT_GT(t.bm * t.bn, 64u * 64);
    AddressSpace space;
    const KernelLaunch k = gemm_kernel(g, t, target_of(a), space);
    EXPECT_GE(occupancy_of(a.core.sm, k).ctas_per_sm * t.warps, 2 * a.core.sm.sub_partitions);
    const GpuParams h = testing::gpu_preset("h100");
    for (uint64_t n : {1024u, 2048u, 8192u}) {
        g.m = g.n = g.k = n;
        EXPECT_EQ(choose_gemm_tile(g, target_of(h)).bk, 64u) << n;
    }
}

TEST(GemmTile, OneMmaSyncWarpPerSchedulerLeavesTheTensorCoresIdle) {
    // What the rule above avoids, measured: on an 8-SM A100, a 64 x 128 tile (4 warps, one CTA
    // per SM) against a 128 x 128 one with two CTAs per SM, both with every SM busy.
    const GpuParams a = testing::gpu_preset(
        "a100", {"sm.count=8", "hbm.stacks=1", "hbm.capacity=16GB", "l2.size=4MB", "l2.slices=8"});
    const GemmProblem g = gemm_of(1024, 1024, 2048);
    const auto rate = [&](uint32_t bm, uint32_t bn, uint32_t warps, uint32_t shared) {
        GemmTile t;
        t.bm = bm;
        t.bn = bn;
        t.bk = 64;
        t.stages = 3;
        t.warps = warps;
        AddressSpace space;
        KernelLaunch k = gemm_kernel(g, t, target_of(a), space);
        k.shared_bytes_per_cta = shared;
        const KernelResult r = run_kernel(a, k);
        return r.sm.tensor_flops / double(r.cycles);
    };
    const double one_warp = rate(64, 128, 4, 100 * 1024);   // 1 CTA per SM: 1 warp/scheduler
    const double two_warps = rate(128, 128, 4, 80 * 1024);  // 2 CTAs per SM: 2 warps/scheduler
    RecordProperty("one_warp", std::to_string(one_warp));
    RecordProperty("two_warps", std::to_string(two_warps));
    EXPECT_LT(one_warp, 0.8 * two_warps);
}

TEST(GemmKernel, FollowsTheGenerationsInstructionsAndRejectsMissingPrecisions) {
    const GpuParams h = testing::gpu_preset("h100");
    const GpuParams a = testing::gpu_preset("a100");
    GemmProblem p;
    p.m = p.n = p.k = 1024;
    AddressSpace space;
    const auto has = [](const KernelLaunch& k, Opcode op) {
        for (const Instr& in : k.program)
            if (in.op == op) return true;
        return false;
    };
    const KernelLaunch hopper =
        gemm_kernel(p, choose_gemm_tile(p, target_of(h)), target_of(h), space);
    EXPECT_TRUE(has(hopper, Opcode::Mma));
    EXPECT_FALSE(has(hopper, Opcode::Lds));  // wgmma reads shared memory itself
    const KernelLaunch ampere =
        gemm_kernel(p, choose_gemm_tile(p, target_of(a)), target_of(a), space);
    EXPECT_TRUE(has(ampere, Opcode::Lds));  // ldmatrix before mma.sync
    GemmProblem f32 = p;
    f32.dtype = DType::FP32;
    const KernelLaunch sgemm =
        gemm_kernel(f32, choose_gemm_tile(f32, target_of(h)), target_of(h), space);
    EXPECT_TRUE(has(sgemm, Opcode::Ffma));
    EXPECT_FALSE(has(sgemm, Opcode::Mma));
    GemmProblem f8 = p;
    f8.dtype = DType::FP8;
    EXPECT_THROW(choose_gemm_tile(f8, target_of(a)), NotLowerable);  // Ampere has no FP8
}

TEST(GemmKernel, CountsExactlyTheGemmsFlopsAndReadsEachOperandFromDramOnce) {
    const GpuParams p = small_h100(8);
    const GemmProblem g = gemm_of(1024, 1024, 512);
    AddressSpace space;
    const KernelLaunch k = gemm_kernel(g, choose_gemm_tile(g, target_of(p)), target_of(p), space);
    const KernelResult r = run_kernel(p, k);
    EXPECT_EQ(r.simulated_ctas, r.ctas);
    EXPECT_DOUBLE_EQ(r.sm.tensor_flops, 2.0 * 1024 * 1024 * 512);
    // A and B (1 MiB each) fit in the 4 MB L2: each is read from DRAM once.
    EXPECT_EQ(r.memory.dram_read_bytes, 2u * 1024 * 512 * 2);
    // Compute-bound: over half the small GPU's Tensor Core peak (8 k-tiles per CTA, so the
    // pipeline's fill and the epilogue take a good part of the rest).
    const double peak = 8.0 * 4 * 512 * 2;  // FLOP per cycle: SMs x sub-partitions x MACs x 2
    EXPECT_GT(r.sm.tensor_flops / double(r.cycles) / peak, 0.5);
}

// A TMA load pays the TMA unit's latency on top of its lines' round trip (sm.tma_latency); a
// GEMM of one k-tile per CTA waits for its first copies once, so its time grows by the latency
// (and the few cycles by which its DRAM accesses then meet other bank states and clock edges).
// cp.async copies (Ampere's mma.sync GEMM, split over the warps) take the loads' path.
TEST(GemmKernel, ATmaLoadPaysTheTmaUnitsLatencyAndCpAsyncDoesNot) {
    const GemmProblem g = gemm_of(128, 128, 64);
    const auto cycles = [&](GpuParams p, uint32_t latency) {
        p.core.sm.tma_latency = latency;
        AddressSpace space;
        const KernelLaunch k =
            gemm_kernel(g, choose_gemm_tile(g, target_of(p)), target_of(p), space);
        return run_kernel(p, k).cycles;
    };
    // Refresh off: 500 cycles later, the copy's lines would meet the DRAM's refreshes
    // elsewhere, which moves the kernel by more than the DRAM clock's edges (the bound's 5).
    const GpuParams h100 = small_h100(1, {"hbm.timing.t_refi=1000us"});
    const uint64_t added = cycles(h100, 505) - cycles(h100, 5);
    EXPECT_GE(added, 495u);
    EXPECT_LT(added, 550u);
    const GpuParams a100 = testing::gpu_preset("a100", {"sm.count=1"});
    EXPECT_EQ(cycles(a100, 500), cycles(a100, 0));
}

// The shared memory a GEMM moves, which the energy model charges (models/gpu/kernel_charge.h):
// each CTA's copies land its A and B tiles for every k-tile, wgmma reads them as operands, and
// the epilogue's bulk store reads the staged C tile.
TEST(GemmKernel, CountsTheSharedMemoryItsCopiesWriteAndItsMmasRead) {
    const GpuParams p = small_h100(8);
    const GemmProblem g = gemm_of(1024, 1024, 512);
    const GemmTile t = choose_gemm_tile(g, target_of(p));
    AddressSpace space;
    const KernelLaunch k = gemm_kernel(g, t, target_of(p), space);
    ASSERT_GT(k.mma[0].shared_bytes, 0.0);  // wgmma: A and B from shared memory
    const KernelResult r = run_kernel(p, k);
    const double m_tiles = 1024.0 / t.bm, n_tiles = 1024.0 / t.bn;
    const double copies = 2.0 * (1024.0 * 512 * n_tiles + 1024.0 * 512 * m_tiles);
    const double operands = r.sm.tensor_flops / k.mma[0].flops * k.mma[0].shared_bytes;
    const double c_tile = 2.0 * 1024 * 1024;
    EXPECT_DOUBLE_EQ(r.totals.shared_async_bytes, copies + operands + c_tile);
    // mma.sync takes its operands by ldmatrix (LDS, counted as wavefronts), not as MMA reads.
    const GpuParams a = testing::gpu_preset("a100");
    const KernelLaunch ka = gemm_kernel(g, choose_gemm_tile(g, target_of(a)), target_of(a), space);
    EXPECT_DOUBLE_EQ(ka.mma[0].shared_bytes, 0.0);
}

// The charge of a GEMM's events: wgmma's multiplicands as the shared-memory reads they are,
// mma.sync's as register reads (ldmatrix's shared-memory reads counted as LDS).
TEST(KernelCharge, WgmmaPaysForItsOperandsInSharedMemoryAndMmaSyncInRegisters) {
    const energy::EnergyTable t = energy::EnergyTable::horowitz_45nm();
    const GemmProblem g = gemm_of(1024, 1024, 512);
    for (const GpuParams& p : {small_h100(8), testing::gpu_preset("a100", {"sm.count=8"})}) {
        AddressSpace space;
        const KernelLaunch k =
            gemm_kernel(g, choose_gemm_tile(g, target_of(p)), target_of(p), space);
        const bool wgmma = k.mma[0].shared_bytes > 0;
        EXPECT_EQ(wgmma, p.tensor.family == tensor_core::MmaFamily::Wgmma);
        GpuCore core(core_config_for(p, k), p.hbm.core, k);
        SamplingOptions whole;
        whole.enabled = false;
        const KernelResult r = core.run(whole);
        const EnergyBreakdown e = kernel_energy(t, p.hbm, k, r, core, DType::BF16);
        const KernelTotals& n = r.totals;
        EXPECT_DOUBLE_EQ(
            e.compute,
            (n.thread_flops - n.tensor_flops) / 2 * t.fma_energy(ComputeUnit::Vector, DType::FP32) +
                n.tensor_flops / 2 * t.fma_energy(ComputeUnit::Tensor, DType::BF16, !wgmma));
        EXPECT_DOUBLE_EQ(e.sram,
                         (n.l1_sectors * 32 + n.shared_wavefronts * 128 + n.shared_async_bytes) *
                             t.sram_per_byte);
        EXPECT_GT(n.shared_async_bytes, 0.0);  // the tile copies land in shared memory
    }
}

TEST(GemmKernel, AClusterMulticastsItsSharedBTileAndReadsItFromL2Once) {
    const GpuParams p = small_h100(8);
    const GemmProblem g = gemm_of(1024, 1024, 512);
    GemmTile t = choose_gemm_tile(g, target_of(p));
    t.cluster = 1;
    AddressSpace space;
    const KernelLaunch alone = gemm_kernel(g, t, target_of(p), space);
    t.cluster = 2;
    const KernelLaunch paired = gemm_kernel(g, t, target_of(p), space);
    EXPECT_EQ(paired.cluster, 2u);
    const KernelResult a = run_kernel(p, alone), b = run_kernel(p, paired);
    EXPECT_EQ(b.simulated_ctas, b.ctas);
    EXPECT_DOUBLE_EQ(b.sm.tensor_flops, a.sm.tensor_flops);
    // Every CTA still gets all of A and B; the L2 serves each pair's B tile once.
    const uint64_t k_tiles = g.k / t.bk;
    const uint64_t a_bytes = uint64_t{t.bm} * t.bk * 2, b_bytes = uint64_t{t.bn} * t.bk * 2;
    const uint64_t sector = GpuCoreConfig::kSectorBytes;
    EXPECT_EQ(a.memory.l2_read_sectors * sector, a.ctas * k_tiles * (a_bytes + b_bytes));
    EXPECT_EQ(b.memory.l2_read_sectors * sector, b.ctas * k_tiles * (a_bytes + b_bytes / 2));
}

TEST(GemmKernel, HopperPicksClustersWhenL2BandwidthLimitsAndAmpereHasNone) {
    const GemmProblem g = gemm_of(8192, 8192, 8192);
    const GpuParams h = testing::gpu_preset("h100");
    const GpuParams a = testing::gpu_preset("a100");
    EXPECT_EQ(choose_gemm_tile(g, target_of(h)).cluster, 2u);
    EXPECT_EQ(choose_gemm_tile(g, target_of(a)).cluster, 1u);
    GemmTile t = choose_gemm_tile(g, target_of(a));
    t.cluster = 2;
    AddressSpace space;
    EXPECT_THROW(gemm_kernel(g, t, target_of(a), space), NotLowerable);
}

TEST(GemmKernel, AMulticastCopyMustShareItsTileAcrossTheCluster) {
    const GpuParams p = small_h100(8);
    const GemmProblem g = gemm_of(1024, 1024, 512);
    GemmTile t = choose_gemm_tile(g, target_of(p));
    t.cluster = 2;
    AddressSpace space;
    KernelLaunch k = gemm_kernel(g, t, target_of(p), space);
    EXPECT_NO_THROW(k.validate());
    for (Instr& in : k.program) {
        if (in.op == Opcode::Tma && in.stream == 0) in.multicast = true;  // A moves along M
    }
    EXPECT_THROW(k.validate(), std::invalid_argument);
    KernelLaunch odd = gemm_kernel(g, t, target_of(p), space);
    odd.cluster = 1;
    EXPECT_THROW(odd.validate(), std::invalid_argument);
}

TEST(GemmKernel, TwoToFourSparsityIsFaster) {
    const GpuParams p = small_h100(8);
    const GemmProblem g = gemm_of(1024, 1024, 1024);
    GemmProblem s = g;
    s.sparse = true;
    AddressSpace space;
    const GemmTile t = choose_gemm_tile(g, target_of(p));
    const KernelResult dense = run_kernel(p, gemm_kernel(g, t, target_of(p), space));
    const KernelResult sparse = run_kernel(p, gemm_kernel(s, t, target_of(p), space));
    // Half the math and half of A's bytes; B's copies stay (the 128x256 tile's 48 KB per
    // k-tile become 40 KB). Per k-tile, dense needs 1024 cycles of math and 768 of L2 reads
    // (8 slices), sparse 512 and 640; both also wait on each k-tile's DRAM misses, and on the
    // TMA unit walking B's 32 KB copy at 32 B a cycle (1024 cycles, stages walking side by
    // side). So far less than 2x: measured 0.90 of dense (77,662 against 86,258 cycles; 0.85
    // before copies were walked, 2026-12-07).
    EXPECT_LT(double(sparse.cycles), 0.95 * double(dense.cycles));
    EXPECT_EQ(sparse.sm.tensor_flops, dense.sm.tensor_flops);  // useful FLOPs, not issued
    EXPECT_EQ(sparse.memory.l2_read_sectors * 6, dense.memory.l2_read_sectors * 5);
}

TEST(Attention, CausalFlashAttentionVisitsAboutHalfTheBlocks) {
    const GpuParams p = small_h100(8);
    AttentionParams a{1, 8, 1024, 1024, 128, true, false};
    AddressSpace space;
    const KernelResult full =
        run_kernel(p, flash_attention_kernel(a, DType::BF16, target_of(p), space));
    a.causal = true;
    const KernelResult causal =
        run_kernel(p, flash_attention_kernel(a, DType::BF16, target_of(p), space));
    // 8 query blocks: 36 of the 64 (block, block) pairs are at or below the diagonal.
    EXPECT_DOUBLE_EQ(causal.sm.tensor_flops, full.sm.tensor_flops * 36 / 64);
    // Fused: Q, K, V read and O written once (S never leaves the chip).
    EXPECT_EQ(full.memory.dram_read_bytes, 3u * 8 * 1024 * 128 * 2);
}

TEST(Attention, AKernelIssuingMmaSyncOnHopperRunsAtTheMmaSyncRate) {
    // FlashAttention-2 issues Ampere's mma.sync on Hopper (kernel: {mma: mma_sync}).
    const GpuParams p = small_h100(8);
    Op op;
    op.kind = OpKind::Attention;
    op.dtype = DType::BF16;
    op.params = AttentionParams{1, 8, 1024, 1024, 128, true, false};
    const KernelLaunch wgmma = testing::lower_one(op, p);
    op.kernel.mma = "mma_sync";
    const KernelLaunch sync = testing::lower_one(op, p);
    // m16n8k16 is 2048 MACs: 6 clocks at 2/3 of H100's 512 BF16 MACs per clock per
    // sub-partition, where a wgmma m16n128k16 takes 64.
    EXPECT_EQ(sync.mma[0].interval, 6u);
    EXPECT_EQ(wgmma.mma[0].interval, 64u);
    const KernelResult fast = run_kernel(p, wgmma);
    const KernelResult slow = run_kernel(p, sync);
    EXPECT_DOUBLE_EQ(slow.sm.tensor_flops, fast.sm.tensor_flops);
    // Tensor-bound, so near 1.5 times as long: measured 259,848 against 175,880 cycles (1.48),
    // the mma.sync kernel in FlashAttention-2's shape (4 warps of 32 rows, 64-row KV blocks).
    EXPECT_GT(double(slow.cycles), 1.3 * double(fast.cycles));
    // Ampere has no wgmma to issue.
    op.kernel.mma = "wgmma";
    EXPECT_THROW(testing::lower_one(op, testing::gpu_preset("a100")), std::invalid_argument);
}

TEST(Attention, MmaSyncKernelsTakeFlashAttention2sShape) {
    // FlashAttention-2's forward launch on A100 and H100 (flash_fwd_launch_template.h): 128
    // query rows per CTA of 4 warps; 64 KV rows per block at head dim 128, 128 at head dim
    // 64; Q's fragments from shared memory again for every block.
    Op op;
    op.kind = OpKind::Attention;
    op.dtype = DType::BF16;
    op.params = AttentionParams{1, 8, 1024, 1024, 128, true, false};
    const GpuParams a100 = testing::gpu_preset("a100");
    const KernelLaunch d128 = testing::lower_one(op, a100);
    EXPECT_EQ(d128.threads_per_cta, 128u);
    EXPECT_EQ(d128.grid.k_tiles, 1024u / 64);
    // ldmatrix.x4 (512 bytes, four wavefronts) per warp and block: 32 rows of Q and 64 of K
    // (16 + 32), then 64 of V (32).
    std::vector<uint32_t> fragment_loads;
    for (const Instr& in : d128.program) {
        if (in.op != Opcode::Lds) continue;
        fragment_loads.push_back(in.count);
        EXPECT_EQ(in.shared_wavefronts, 4u);
    }
    EXPECT_EQ(fragment_loads, (std::vector<uint32_t>{48, 32}));
    // One shared-memory buffer each for K and V (flash_fwd_kernel.h): V's copy under S = QKᵀ,
    // the next K's under the softmax and O += PV, a barrier before each is used.
    EXPECT_EQ(d128.shared_bytes_per_cta, (128u + 2 * 64) * 128 * 2);
    int barriers_in_loop = 0, depth = 0;
    for (const Instr& in : d128.program) {
        depth += in.op == Opcode::LoopBegin ? 1 : in.op == Opcode::LoopEnd ? -1 : 0;
        barriers_in_loop += depth > 0 && in.op == Opcode::Bar;
    }
    EXPECT_EQ(barriers_in_loop, 2);
    op.params = AttentionParams{1, 8, 1024, 1024, 64, true, false};
    EXPECT_EQ(testing::lower_one(op, a100).grid.k_tiles, 1024u / 128);
    // Hopper's wgmma kernel: two warpgroups of 16-row warps, 128-row blocks.
    op.params = AttentionParams{1, 8, 1024, 1024, 128, true, false};
    const KernelLaunch wgmma = testing::lower_one(op, testing::gpu_preset("h100"));
    EXPECT_EQ(wgmma.threads_per_cta, 256u);
    EXPECT_EQ(wgmma.grid.k_tiles, 1024u / 128);
}

TEST(Attention, AWarpLeavesOnlyOnceItsPrefetchedBlockIsIn) {
    // Causal, four KV blocks: the last trip of each query block prefetches the block past the
    // diagonal, which nobody uses. Its CTA must not retire before that copy lands, or the next
    // CTA in the slot receives it (the run that found this: the README's attention sweep at
    // seq 512 on a full H100, 4096 CTAs).
    const GpuParams p = testing::gpu_preset("h100");
    const AttentionParams a{32, 32, 512, 512, 128, true, true};
    AddressSpace space;
    const KernelResult r =
        run_kernel(p, flash_attention_kernel(a, DType::BF16, target_of(p), space), true);
    EXPECT_GT(r.simulated_ctas, 2 * 132u);
    // 4 query blocks per head: 10 of the 16 block pairs are at or below the diagonal (sampled:
    // the CTAs not run are extrapolated at the steady waves' mean, hence the 2%).
    EXPECT_NEAR(r.totals.tensor_flops / (4.0 * 512 * 512 * 128 * 32 * 32 * 10 / 16), 1.0, 0.02);
}

TEST(Attention, FlashBackwardDoesFiveProductsAndSkipsTheBlocksAboveTheDiagonal) {
    const GpuParams p = small_h100(8);
    AttentionParams a{1, 8, 1024, 1024, 128, true, false, true};
    AddressSpace space;
    const KernelResult full =
        run_kernel(p, flash_attention_backward_kernel(a, DType::BF16, target_of(p), space));
    EXPECT_DOUBLE_EQ(full.sm.tensor_flops, 10.0 * 8 * 1024 * 1024 * 128);
    a.causal = true;
    const KernelResult causal =
        run_kernel(p, flash_attention_backward_kernel(a, DType::BF16, target_of(p), space));
    // 8 K/V blocks of 128 rows, 16 query blocks of 64: block j needs 16 - 2j of them, 72 of 128.
    EXPECT_DOUBLE_EQ(causal.sm.tensor_flops, full.sm.tensor_flops * 72 / 128);
    // Q, K, V and dO come from DRAM once (the 4 MB L2 holds them); dK, dV and dQ are written.
    EXPECT_EQ(full.memory.dram_read_bytes, 4u * 8 * 1024 * 128 * 2);
    EXPECT_LT(double(causal.cycles), 0.7 * double(full.cycles));
}

TEST(Attention, CausalBackwardWalksEachKvBlockFromItsDiagonal) {
    const GpuParams p = small_h100(8);
    // 192 rows: K/V blocks of 128 rows (0, 1), query blocks of 64 (0, 1, 2). Block 0 needs
    // query blocks 0-2, block 1 (rows 128-191) only block 2.
    const AttentionParams a{1, 1, 192, 192, 128, true, true, true};
    AddressSpace space;
    const KernelLaunch k = flash_attention_backward_kernel(a, DType::BF16, target_of(p), space);
    const KernelResult r = run_kernel(p, k);
    EXPECT_DOUBLE_EQ(r.sm.tensor_flops, 4 * 10.0 * 64 * 128 * 128);
    // Block 1's first query block is block 2: rows 128-191 of Q (stream 2).
    std::vector<LineAccess> lines;
    ASSERT_EQ(k.grid.of(1).m, 1u);
    tile_lines(k.streams[2], k.grid, 1, 0, 0, 1, lines);
    ASSERT_FALSE(lines.empty());
    EXPECT_EQ(lines.front().line, k.streams[2].base + 128 * 128 * 2);
}

TEST(GemmKernel, AClusterNeedsAsManyCtaSlotsAndItsMulticastsAFixedSchedule) {
    const GpuParams one = small_h100(1);
    const GemmProblem g = gemm_of(1024, 1024, 512);
    GemmTile t = choose_gemm_tile(g, target_of(one));
    t.cluster = 2;
    t.stages = 4;
    AddressSpace space;
    KernelLaunch k = gemm_kernel(g, t, target_of(one), space);
    k.shared_bytes_per_cta = 200 * 1024;  // one CTA per SM: one slot on a one-SM GPU
    const auto error_of = [](const auto& f) -> std::string {
        try {
            f();
        } catch (const std::invalid_argument& e) {
            return e.what();
        }
        return "no error";
    };
    EXPECT_NE(error_of([&] { GpuCore(one.core, one.hbm.core, k); }).find("CTA slots"),
              std::string::npos);
    // Members on different M tiles would run a causal loop a different number of times.
    k.program.insert(k.program.begin(), Instr{});
    k.program.front().op = Opcode::LoopBegin;
    k.program.front().count = 2;
    k.program.front().chains = 1;
    k.program.front().triangular = true;
    k.program.insert(k.program.end() - 1, Instr{});
    (k.program.end() - 2)->op = Opcode::LoopEnd;
    EXPECT_NE(error_of([&] { k.validate(); }).find("multicast"), std::string::npos);
}

TEST(Attention, NaiveAttentionIsThreeKernelsThroughHbm) {
    const GpuParams p = testing::gpu_preset("h100");
    const AttentionParams a{1, 8, 1024, 1024, 128, false, false};
    const std::vector<KernelLaunch> k = naive_attention_kernels(a, DType::BF16, {}, target_of(p));
    ASSERT_EQ(k.size(), 3u);
    EXPECT_EQ(k[0].name, "attention_qk");
    EXPECT_EQ(k[2].name, "attention_pv");
}

TEST(Conv2d, ImplicitGemmSkipsPaddingAndReusesTheInput) {
    const GpuParams p = small_h100(8);
    Conv2dParams c;
    c.batch = 2;
    c.in_channels = 64;
    c.out_channels = 128;
    c.height = c.width = 32;
    c.padding = 1;
    AddressSpace space;
    const KernelLaunch k = conv2d_kernel(c, DType::BF16, target_of(p), space);
    // The top-left tap of output pixel 0 falls in the padding: no line for that row.
    std::vector<LineAccess> lines;
    tile_lines(k.streams[0], k.grid, 0, 0, 0, 1, lines);
    EXPECT_LT(lines.size(), k.streams[0].tile_rows);
    const KernelResult r = run_kernel(p, k);
    // Nine taps read the input nine times through L2, but DRAM sees it about once.
    const double input = 2.0 * 32 * 32 * 64 * 2;
    const double filter = 9.0 * 64 * 128 * 2;
    EXPECT_LT(double(r.memory.dram_read_bytes), 1.5 * (input + filter));
}

}  // namespace
}  // namespace sim::gpu
