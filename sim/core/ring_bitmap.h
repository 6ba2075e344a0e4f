// SPDX-License-Identifier: MIT
// The occupancy bitmap of a ring of per-cycle slots (calendar_queue.h, index_calendar.h): a
// bit per slot, set while the slot holds events.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/core/error.h"

namespace sim {

/// Slots from start, going round the ring of 64 * bits.size() slots, to the first occupied one
/// (start itself included). Throws SimBug when none is: callers ask only when one must be.
inline uint64_t distance_to_first_occupied(const std::vector<uint64_t>& bits, uint64_t start) {
    const size_t words = bits.size();
    const uint64_t size = 64 * words;
    size_t w = start / 64;
    uint64_t word = bits[w] & (~uint64_t{0} << (start % 64));
    for (size_t step = 0; step <= words; ++step) {
        if (word != 0) {
            const uint64_t slot = w * 64 + static_cast<uint64_t>(__builtin_ctzll(word));
            return (slot + size - start) & (size - 1);
        }
        w = (w + 1) % words;
        word = bits[w];
    }
    throw SimBug("calendar ring count says occupied but no slot is");
}

}  // namespace sim
