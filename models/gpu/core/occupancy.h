// SPDX-License-Identifier: MIT
// How many CTAs of a kernel fit on one SM at once, and which resource stops the next one:
// the CUDA occupancy calculation (threads, warps, registers in per-warp granules, shared memory,
// the CTA limit). Pure C++.
#pragma once

#include <cstdint>
#include <string>

#include "models/gpu/core/gpu_config.h"
#include "models/gpu/core/warp_program.h"

namespace sim::gpu {

struct Occupancy {
    uint32_t ctas_per_sm = 0;  ///< 0: the kernel does not fit on an SM at all
    uint32_t warps_per_sm = 0;
    std::string limiter;  ///< threads, warps, registers, shared_memory or ctas
    double fraction(const SmConfig& sm) const {
        return static_cast<double>(warps_per_sm) / sm.max_warps;
    }
};

Occupancy occupancy_of(const SmConfig& sm, const KernelLaunch& k);

}  // namespace sim::gpu
