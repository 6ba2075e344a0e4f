// SPDX-License-Identifier: MIT
#include "models/gpu/kernels/deepgemm_tile.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "models/gpu/kernels/kernel_shape.h"

namespace sim::gpu {

namespace {

/// DeepGEMM's constants (csrc/jit_kernels/heuristics/sm90.hpp): a ring of at most 16 stages
/// with an 8-byte full and empty barrier each, and 64-row wgmma; its bandwidths, in bytes per
/// SM cycle (L2: 64 per SM, at most 8e6 / 1.3e3 in all; L1: 128 per SM), are written below.
constexpr int64_t kMaxStages = 16;
constexpr int64_t kBarrierBytes = kMaxStages * 8 * 2;
constexpr int64_t kWgmmaRows = 64;

int64_t align_up(int64_t v, int64_t to) {
    return (v + to - 1) / to * to;
}

/// TMA's swizzle for an operand whose inner dimension holds `bytes`: the largest of 128, 64,
/// 32 and 16 dividing it.
int64_t swizzle_of(int64_t bytes) {
    for (int64_t mode : {128, 64, 32, 16})
        if (bytes % mode == 0) return mode;
    return 0;
}

}  // namespace

uint32_t deepgemm_stages(const GemmProblem& p, const GpuTarget& g, uint32_t bm, uint32_t bn) {
    const int64_t es = int64_t(dtype_bytes(p.dtype));
    const int64_t bk = 128 / es;
    // The most dynamic shared memory a CTA may have: the SM's, less the 1 KB CUDA keeps.
    const int64_t capacity = int64_t(g.core.sm.shared_memory) - 1024;
    const int64_t smem_cd = align_up(int64_t(bm) * bn * int64_t(dtype_bytes(p.out_dtype)), 1024);
    const int64_t stages = (capacity - smem_cd - kBarrierBytes) / ((int64_t(bm) + bn) * bk * es);
    return uint32_t(std::clamp<int64_t>(stages, 0, kMaxStages));
}

std::vector<DeepGemmLayout> deepgemm_layouts(const GemmProblem& p, const GpuTarget& g) {
    if (g.tensor.family != tensor_core::MmaFamily::Wgmma)
        throw std::invalid_argument(
            "DeepGEMM's GEMM runs on Hopper (wgmma); this GPU issues mma.sync");
    if (p.dtype != DType::BF16 || p.sparse)
        throw std::invalid_argument(
            "wallsim models DeepGEMM's dense BF16 GEMM only (its FP8 kernels scale by blocks, "
            "which wallsim's GEMM does not), not " +
            to_string(p.dtype) + (p.sparse ? " sparse" : ""));
    if (p.out_dtype != DType::BF16 && p.out_dtype != DType::FP32)
        throw std::invalid_argument("DeepGEMM writes BF16 or FP32, not " + to_string(p.out_dtype));
    const int64_t es = int64_t(dtype_bytes(p.dtype));
    const int64_t cd_es = int64_t(dtype_bytes(p.out_dtype));
    const int64_t sms = g.core.sm_count;
    const int64_t bk = 128 / es;
    const bool batched = p.batch > 1;  // DeepGEMM's batched GEMM has no multicast

    std::vector<int64_t> block_ms = {64, 128};
    if (p.m <= 16) block_ms.push_back(16);
    if (p.m <= 32) block_ms.push_back(32);
    if (p.out_dtype != DType::FP32) block_ms.push_back(256);

    const int64_t l2_bandwidth = int64_t(std::min(64.0 * double(sms), 8e6 / 1.3e3));
    const int64_t l1_bandwidth = 128 * sms;
    const int64_t k = int64_t(p.k);

    std::vector<DeepGemmLayout> out;
    for (int64_t cm = 1; cm <= (batched ? 1 : 2); ++cm) {
        for (int64_t cn = 1; cn <= (batched ? 1 : 2); ++cn) {
            if (cm * cn > 2 || sms % (cm * cn) != 0) continue;
            for (int64_t bm : block_ms) {
                for (int64_t bn = 16; bn <= 256; bn += 16) {
                    if (bm > 128 && bn > 128) continue;  // registers
                    // A is K-major unless stored K x M; B is K-major when stored N x K.
                    const int64_t swizzle_a = swizzle_of((p.a_transposed ? bm : bk) * es);
                    const int64_t swizzle_b = swizzle_of((p.b_transposed ? bk : bn) * es);
                    if (swizzle_a % 64 != 0 || swizzle_b % 64 != 0) continue;
                    const int64_t stages = deepgemm_stages(p, g, uint32_t(bm), uint32_t(bn));
                    if (stages < 3 || (bm * bn < 128 * 192 && stages < 4)) continue;
                    const int64_t m_tiles = int64_t(ceil_div(p.m, bm));
                    const int64_t n_tiles = int64_t(ceil_div(p.n, bn));
                    if (m_tiles % cm != 0 || n_tiles % cn != 0) continue;  // wallsim's pairing

                    const int64_t blocks = m_tiles * n_tiles * int64_t(p.batch);
                    const int64_t waves = int64_t(ceil_div(blocks, sms));
                    const int64_t l2_ab = k * (bm / cn + bn / cm) * es;
                    const int64_t l1_ab = k * (bm + bn) * es;
                    const int64_t l1_tc =
                        k * (std::max(kWgmmaRows, bm) + bn) * es + bm * bn * cd_es;
                    const int64_t cd = bm * bn * cd_es;
                    const int64_t l2_cycles = (l2_ab + cd) * blocks / l2_bandwidth;
                    const int64_t l1_cycles = (l1_ab + l1_tc + cd) * blocks / l1_bandwidth;
                    const float efficiency = float(blocks) / float(waves * sms);
                    int64_t cycles =
                        static_cast<int64_t>(float(std::max(l1_cycles, l2_cycles)) / efficiency);
                    // One wave: the cluster's synchronisation is not worth the saved traffic.
                    if (cm * cn > 1 && waves <= 1) cycles = std::numeric_limits<int64_t>::max();
                    out.push_back({uint32_t(bm), uint32_t(bn), uint32_t(cm), uint32_t(cn),
                                   uint32_t(stages), cycles});
                }
            }
        }
    }
    return out;
}

GemmTile choose_deepgemm_tile(const GemmProblem& p, const GpuTarget& g) {
    const std::vector<DeepGemmLayout> layouts = deepgemm_layouts(p, g);
    if (layouts.empty())
        throw std::invalid_argument("no DeepGEMM layout fits this GPU's shared memory");
    DeepGemmLayout best = layouts.front();
    for (const DeepGemmLayout& l : layouts)
        if (l.cycles < best.cycles) best = l;
    GemmTile t;
    t.bm = best.bm;
    t.bn = best.bn;
    t.bk = uint32_t(128 / dtype_bytes(p.dtype));
    t.stages = best.stages;
    t.warps = gemm_warps(p, g, best.bm, best.bn);
    t.cluster = best.cluster_m * best.cluster_n;
    t.cluster_along_n = best.cluster_n > 1;
    return t;
}

}  // namespace sim::gpu
