// SPDX-License-Identifier: MIT
// Tiled GEMM kernels, the way CUTLASS and cuBLAS build them: each CTA computes a BM x BN tile
// of C, walking K in BK-wide k-tiles through a ring of `stages` shared-memory buffers, so that
// the copies of the next stages - 1 k-tiles are in flight while the Tensor Cores work on this
// one; an epilogue converts the FP32 accumulators and writes the tile back.
//   wgmma (Hopper): warp 0 issues one TMA bulk copy per operand tile; warpgroups of 4 warps
//     (64 rows of C each) run m64nBNk16 from shared memory.
//   mma.sync (Ampere): every warp copies its share with cp.async; each warp owns a 64 x 64 (or
//     smaller) warp tile, loads its fragments with ldmatrix and runs m16n8k16.
//   FP32 (no Tensor Core path): the classic SGEMM, 8 x 8 outputs per thread by FFMA.
// The tile is chosen the way cuBLAS's heuristic does: by an estimate over candidate tiles of
// waves x tile time (Tensor Core rate, operand delivery) against the L2 traffic. On Hopper a
// pair of CTAs along M may form a cluster that multicasts their shared B tile, halving B's L2
// traffic (CUTLASS's 2x1 cluster shape). Pure C++.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "models/gpu/kernels/kernels.h"

namespace sim::gpu {

struct GemmProblem {
    uint64_t batch = 1, m = 0, n = 0, k = 0;
    DType dtype = DType::BF16;      ///< inputs
    DType out_dtype = DType::BF16;  ///< C
    bool a_transposed = false;      ///< A stored K x M (else M x K, row-major)
    bool b_transposed = false;      ///< B stored N x K (else K x N, row-major)
    bool sparse = false;            ///< 2:4 structured-sparse A
};

struct GemmTile {
    uint32_t bm = 128, bn = 128, bk = 64, stages = 3;
    uint32_t warps = 8;
    /// CTAs per cluster (wgmma only), along M: they share their B tile, which TMA multicasts;
    /// or along N (cluster_along_n): they share their A tile.
    uint32_t cluster = 1;
    bool cluster_along_n = false;
    /// Split-K: CTAs per C tile, each walking an equal share of K's k-tiles and writing its
    /// FP32 partial sums to a workspace that a second kernel adds up (cuBLAS's split-K GEMM and
    /// its splitKreduce kernel). 1: no split.
    uint32_t k_splits = 1;
    /// Stream-K (Hopper's persistent kernels): the first tiles shared by units that walk their
    /// k-tiles back to back (TileGrid::StreamK; plan_stream_k). units 0: none.
    TileGrid::StreamK stream_k;
};

/// CUTLASS's stream-K heuristic for Hopper (PersistentTileSchedulerSm90StreamKParams,
/// docs/references.md [cutlass-streamk]): none when the tiles fill their last wave, when that
/// wave is at least half full, or when a tile has 8 k-tiles or fewer; otherwise the last two
/// waves' tiles (all of them if there are fewer) are shared by up to a wave of CTAs, each
/// walking at least 8 k-tiles, in whole clusters. ctas_per_wave: SMs x CTAs per SM.
TileGrid::StreamK plan_stream_k(uint64_t tiles,
                                uint64_t ctas_per_wave,
                                uint32_t cluster,
                                uint64_t k_tiles);

/// Most K splits a split-K GEMM takes: its reduce kernel adds up to this many partials per
/// output in one pass.
inline constexpr uint32_t kMaxKSplits = 16;

/// A row-major matrix (batch of them) allocated in space, copied in tiles of tile_rows x
/// tile_row_bytes whose coordinates along rows and columns are the grid's row_axis and col_axis.
AddressStream tile_stream(const std::string& name,
                          AddressSpace& space,
                          uint64_t batch,
                          uint64_t rows,
                          uint64_t row_bytes,
                          AddressStream::Axis row_axis,
                          AddressStream::Axis col_axis,
                          uint64_t tile_rows,
                          uint64_t tile_row_bytes);

/// Whole rows of a matrix in blocks of tile_rows along `axis` (attention's Q, K, V and O: a
/// block holds every head dimension).
AddressStream rows_stream(const std::string& name,
                          AddressSpace& space,
                          uint64_t batch,
                          uint64_t rows,
                          uint64_t row_bytes,
                          AddressStream::Axis axis,
                          uint64_t tile_rows);

/// Warps of a BM x BN CTA of p's kernel on target: wgmma warpgroups of 64 rows (16 a warp),
/// mma.sync's 64 x 64 (32 x 32) warp tiles, or FP32's 8 x 8 outputs per thread.
uint32_t gemm_warps(const GemmProblem& p, const GpuTarget& target, uint32_t bm, uint32_t bn);

/// The tile the heuristic picks for p on target (hints may force block, not the tile). With
/// stream_k, the kernel will share its last waves' tiles as plan_stream_k says (gemm_kernels),
/// so a partial last wave costs its share of the SMs' time, not a whole wave.
GemmTile choose_gemm_tile(const GemmProblem& p, const GpuTarget& target, bool stream_k = false);

/// How many ways t's GEMM splits K (GemmTile::k_splits), as a split-K heuristic decides: only
/// when the grid leaves SMs idle in its one wave, into the number of splits (a divisor of the
/// k-tiles, at most kMaxKSplits, filling at most one wave) that minimises the estimate
/// wave x (k-tiles per CTA + pipeline fill) x k-tile time + the partials' trip through L2.
uint32_t choose_k_splits(const GemmProblem& p, const GemmTile& t, const GpuTarget& target);

/// The GEMM kernel of p with tile t. A, B and C are allocated in space unless given. With
/// t.k_splits > 1 it writes FP32 partial sums to a workspace instead of C (see gemm_kernels).
KernelLaunch gemm_kernel(const GemmProblem& p,
                         const GemmTile& t,
                         const GpuTarget& target,
                         AddressSpace& space,
                         const std::string& name = "gemm");

/// The kernel library whose heuristic picks a GEMM's tile.
enum class GemmLibrary {
    Cublas,    ///< choose_gemm_tile, split-K and stream-K (cuBLAS, CUTLASS)
    DeepGemm,  ///< choose_deepgemm_tile: data-parallel tiles, no split (deepgemm_tile.h)
};

/// What a trace asks of a GEMM's kernel (its kernel: hints). Zeros leave the choice to the
/// library's heuristic.
struct GemmRequest {
    GemmLibrary library = GemmLibrary::Cublas;
    std::optional<uint64_t> split_k;
    uint32_t tile_m = 0, tile_n = 0;        ///< the CTA tile (both or neither)
    uint32_t cluster_m = 0, cluster_n = 0;  ///< CTAs per cluster along M and N (both or neither)
};

/// A GEMM operator's kernels: the tile the library's heuristic picks (or the requested one),
/// split along K as choose_k_splits decides (or `split_k` splits when given); a split GEMM is
/// followed by the kernel that adds its partials and writes C. With cuBLAS on Hopper (wgmma)
/// a grid of more than one wave that choose_k_splits leaves whole runs stream-K as
/// plan_stream_k says, unless split_k is given. Throws NotLowerable for a split_k that does
/// not divide the k-tiles evenly or exceeds kMaxKSplits, and std::invalid_argument for a
/// request the GPU or the library cannot honour (a tile the MMA cannot cover, a cluster that
/// does not pair the grid's tiles, DeepGEMM off Hopper or with split-K).
std::vector<KernelLaunch> gemm_kernels(const GemmProblem& p,
                                       const GpuTarget& target,
                                       const GemmRequest& request);
inline std::vector<KernelLaunch> gemm_kernels(const GemmProblem& p,
                                              const GpuTarget& target,
                                              std::optional<uint64_t> split_k = std::nullopt) {
    GemmRequest r;
    r.split_k = split_k;
    return gemm_kernels(p, target, r);
}

}  // namespace sim::gpu

namespace sim::gpu {

/// conv2d (NHWC, groups = 1) as an implicit GEMM: M = batch x output pixels, N = output
/// channels, K = filter taps x input channels; A's tiles are gathered from the input by the
/// im2col addressing (overlapping windows hit in L2), B is the filter.
KernelLaunch conv2d_kernel(const Conv2dParams& c,
                           DType dtype,
                           const GpuTarget& target,
                           AddressSpace& space);

/// Fused (FlashAttention-style) attention: one CTA per (batch x head, 128 query rows); K and V
/// blocks stream through shared memory while S = QKᵀ, the online softmax and O += PV stay on
/// chip. Causal attention visits only the blocks at or below the diagonal.
KernelLaunch flash_attention_kernel(const AttentionParams& p,
                                    DType dtype,
                                    const GpuTarget& target,
                                    AddressSpace& space);

/// FlashAttention-2's backward pass: one CTA per (batch x head, block of K/V rows), dK and dV on
/// chip, the query blocks streamed through shared memory, dQ reduce-added in FP32.
KernelLaunch flash_attention_backward_kernel(const AttentionParams& p,
                                             DType dtype,
                                             const GpuTarget& target,
                                             AddressSpace& space);

/// Naive attention: S = QKᵀ (batched GEMM, S in HBM), the softmax kernel, O = PV.
std::vector<KernelLaunch> naive_attention_kernels(const AttentionParams& p,
                                                  DType dtype,
                                                  const KernelHints& hints,
                                                  const GpuTarget& target);

}  // namespace sim::gpu
