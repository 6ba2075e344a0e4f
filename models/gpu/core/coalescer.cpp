// SPDX-License-Identifier: MIT
#include "models/gpu/core/coalescer.h"

#include <algorithm>

namespace sim::gpu {

namespace {

constexpr uint32_t kFullWarp = ~0u;

/// The lines of a full warp reading one contiguous run of bytes [first, first + bytes), each
/// lane an aligned access: every sector the run overlaps holds some lane's address, so this is
/// what the per-lane walk gives, in the same (ascending) order.
size_t contiguous_lines(uint64_t first, uint64_t bytes, LineAccess* out) {
    const uint64_t last = first + bytes - 1;
    size_t n = 0;
    for (uint64_t line = first & ~uint64_t{127}; line <= last; line += 128) {
        const uint64_t lo = std::max(first, line), hi = std::min(last, line + 127);
        const uint32_t from = (lo >> 5) & 3, to = (hi >> 5) & 3;
        out[n++] = {line, static_cast<uint8_t>(((2u << to) - 1) & ~((1u << from) - 1))};
    }
    return n;
}

}  // namespace

size_t coalesce(const AddressStream& s,
                uint64_t cta,
                uint64_t iteration,
                uint32_t warp,
                uint32_t mask,
                LineAccess* out) {
    if (mask == kFullWarp && s.layout == AddressStream::Layout::Linear && s.thread_step == 1 &&
        s.base % s.access_bytes == 0) {
        // A full warp on consecutive vectors that do not wrap around the array: the lanes'
        // addresses form one run (AddressStream::address with lane 0 .. 31).
        const uint64_t v0 =
            (cta * s.cta_step + iteration * s.iteration_step + uint64_t{warp} * 32) % s.vectors;
        if (v0 + 32 <= s.vectors)
            return contiguous_lines(s.base + v0 * s.access_bytes, 32 * s.access_bytes, out);
    }
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
