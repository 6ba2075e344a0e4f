// SPDX-License-Identifier: MIT
#include "models/gpu/core/coalescer.h"

namespace sim::gpu {

size_t coalesce(const AddressStream& s,
                uint64_t cta,
                uint64_t iteration,
                uint32_t warp,
                uint32_t mask,
                LineAccess* out) {
    size_t n = 0;
    while (mask) {
        const uint32_t lane = static_cast<uint32_t>(__builtin_ctz(mask));
        mask &= mask - 1;
        const uint64_t addr = s.address(cta, iteration, uint64_t{warp} * 32 + lane);
        const uint64_t line = addr & ~uint64_t{127};
        const uint8_t sector = static_cast<uint8_t>(1u << ((addr >> 5) & 3));
        // Lanes of a warp usually walk lines in order: check the last line first.
        if (n && out[n - 1].line == line) {
            out[n - 1].sectors |= sector;
            continue;
        }
        size_t i = 0;
        while (i < n && out[i].line != line)
            ++i;
        if (i < n) {
            out[i].sectors |= sector;
        } else {
            out[n++] = {line, sector};
        }
    }
    return n;
}

}  // namespace sim::gpu
