// SPDX-License-Identifier: MIT
#include "models/tensor_core/tensor_core.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace sim::tensor_core {

std::string to_string(MmaFamily f) {
    return f == MmaFamily::MmaSync ? "mma_sync" : "wgmma";
}

MmaFamily parse_mma_family(const std::string& s) {
    if (s == "mma_sync") return MmaFamily::MmaSync;
    if (s == "wgmma") return MmaFamily::Wgmma;
    throw std::invalid_argument("expected mma_sync or wgmma, got '" + s + "'");
}

void TensorCoreConfig::validate() const {
    for (const auto& [dtype, rate] : macs_per_clock) {
        if (!(rate > 0) || !std::isfinite(rate))
            throw std::invalid_argument("Tensor Core rate for " + sim::to_string(dtype) +
                                        " must be positive");
    }
    if (!(sparsity_speedup >= 1)) throw std::invalid_argument("sparsity speed-up must be >= 1");
    if (sub_partitions == 0) throw std::invalid_argument("no sub-partitions");
    if (shared_bytes_per_clock == 0)
        throw std::invalid_argument("shared memory bandwidth must be positive");
    if (!(mma_sync_rate > 0 && mma_sync_rate <= 1))
        throw std::invalid_argument("mma_sync_rate must be in (0, 1]");
    if (family == MmaFamily::MmaSync && mma_sync_rate != 1)
        throw std::invalid_argument(
            "mma_sync_rate is for a wgmma core; with instruction mma_sync, mma.sync runs at the "
            "core's own rate");
}

TensorCoreConfig TensorCoreConfig::issuing(MmaFamily f) const {
    if (f == family) return *this;
    if (f == MmaFamily::Wgmma)
        throw std::invalid_argument(
            "this GPU's Tensor Cores have no wgmma (Hopper's warpgroup MMA)");
    TensorCoreConfig c = *this;
    c.family = MmaFamily::MmaSync;
    for (auto& [dtype, rate] : c.macs_per_clock)
        rate *= mma_sync_rate;
    c.mma_sync_rate = 1;
    return c;
}

uint32_t mma_k(DType d) {
    switch (d) {
        case DType::TF32: return 8;
        case DType::FP8:
        case DType::INT8: return 32;
        case DType::FP64: return 4;
        default: return 16;
    }
}

MmaTiming mma_timing(
    const TensorCoreConfig& c, const MmaShape& s, DType d, bool sparse, OperandA a) {
    const auto rate = c.macs_per_clock.find(d);
    if (rate == c.macs_per_clock.end())
        throw std::invalid_argument("the Tensor Core has no " + sim::to_string(d) + " path");
    if (s.m != 16 || s.k != mma_k(d) || s.n == 0 || s.n % 8 != 0 || s.n > 256)
        throw std::invalid_argument("a warp's MMA is m16 nN k" + std::to_string(mma_k(d)) +
                                    " with N a multiple of 8 up to 256");
    if (c.family == MmaFamily::MmaSync && s.n != 8)
        throw std::invalid_argument("mma.sync is m16n8k" + std::to_string(mma_k(d)));
    const double speedup = sparse ? c.sparsity_speedup : 1.0;
    MmaTiming t;
    t.math_cycles =
        static_cast<uint32_t>(std::max(1.0, std::ceil(s.macs() / rate->second / speedup)));
    if (c.family == MmaFamily::Wgmma) {
        // B is read once for the warpgroup (a quarter per warp); A per warp, unless it is in
        // registers. A sparse A is half its dense size (plus metadata, ignored).
        const double element = double(dtype_bytes(d));  // TF32 is stored in 4 bytes
        const double b_bytes = double(s.n) * s.k * element / 4;
        const double a_bytes =
            a == OperandA::SharedMemory ? double(s.m) * s.k * element / (sparse ? 2 : 1) : 0;
        const double per_clock = double(c.shared_bytes_per_clock) / c.sub_partitions;
        t.operand_cycles = static_cast<uint32_t>(std::ceil((a_bytes + b_bytes) / per_clock));
        t.shared_bytes = a_bytes + b_bytes;
    }
    t.interval = std::max(t.math_cycles, t.operand_cycles);
    t.latency = t.interval + c.latency;
    t.flops = 2 * s.macs();
    return t;
}

}  // namespace sim::tensor_core
