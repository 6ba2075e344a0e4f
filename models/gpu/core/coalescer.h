// SPDX-License-Identifier: MIT
// The coalescer of a load/store unit: the addresses of a warp's active threads become the
// 32-byte sectors they touch, grouped by 128-byte line (at most 32 lines per warp-instruction).
// A warp reading 16 contiguous bytes per thread touches 4 whole lines; a strided walk touches
// one sector per thread. Pure C++.
#pragma once

#include <cstddef>
#include <cstdint>

#include "models/gpu/core/memory_system.h"
#include "models/gpu/core/warp_program.h"

namespace sim::gpu {

/// Writes the lines (with their sector masks) that warp `warp` of `cta` touches on `iteration`
/// through stream s, for the threads in mask; returns how many (at most 32 for accesses of up
/// to 16 bytes; an access never straddles sectors because accesses are size-aligned).
size_t coalesce(const AddressStream& s,
                uint64_t cta,
                uint64_t iteration,
                uint32_t warp,
                uint32_t mask,
                LineAccess* out);

}  // namespace sim::gpu
