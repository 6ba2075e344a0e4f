// SPDX-License-Identifier: MIT
// DeepGEMM's tile heuristic for its Hopper BF16 GEMM (docs/references.md [deepgemm]): the
// layout (BM x BN tile, a cluster of up to 2 CTAs that multicast A or B) with the fewest
// estimated cycles, where a layout's estimate is its L1 or L2 traffic over DeepGEMM's own
// bandwidth constants, divided by its wave efficiency. DeepGEMM runs the tiles
// data-parallel (a persistent grid, no split-K, no stream-K). Pure C++.
#pragma once

#include <cstdint>
#include <vector>

#include "models/gpu/kernels/gemm.h"

namespace sim::gpu {

/// One layout DeepGEMM weighs and its estimate (cycles, DeepGEMM's units).
struct DeepGemmLayout {
    uint32_t bm = 0, bn = 0;
    uint32_t cluster_m = 1, cluster_n = 1;
    uint32_t stages = 0;
    int64_t cycles = 0;
};

/// Every layout DeepGEMM's SM90 heuristic would weigh for p on target, in its order, each
/// with its estimate, less those whose cluster does not pair the grid's tiles (wallsim's
/// clusters pair whole tiles; DeepGEMM runs an odd last tile unpaired). Throws
/// std::invalid_argument off Hopper (DeepGEMM's SM90 kernels issue wgmma) and for inputs
/// other than BF16 (its FP8 kernels scale by blocks, which wallsim's GEMM does not).
std::vector<DeepGemmLayout> deepgemm_layouts(const GemmProblem& p, const GpuTarget& target);

/// The stages DeepGEMM gives a BM x BN tile of p: as many as fit in the CTA's shared memory
/// beside its C tile and barriers, at most 16.
uint32_t deepgemm_stages(const GemmProblem& p, const GpuTarget& target, uint32_t bm, uint32_t bn);

/// The tile of deepgemm_layouts with the fewest cycles (the first on a tie, as DeepGEMM's
/// strict comparison keeps it), as wallsim's wgmma kernel runs it.
GemmTile choose_deepgemm_tile(const GemmProblem& p, const GpuTarget& target);

}  // namespace sim::gpu
