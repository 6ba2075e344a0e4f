// SPDX-License-Identifier: MIT
// A calendar of (cycle, index) events for a fixed set of indices 0 .. count - 1 (the
// controllers of a memory system), each cycle's events a set: a bit per index (the ring and
// overflow heap are ring_calendar.h's). An index pushed twice for one cycle is due once, and a
// cycle's indices come out in increasing order, however they were pushed. Where CalendarQueue
// keeps each cycle's events in push order, a caller that wanted them in index order sorted
// every cycle's list: with tens of controllers due at once that cost as much as pushing them.
// It keeps whatever is pushed: callers that reschedule an index filter out the stale entries.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "sim/core/ring_calendar.h"

namespace sim {

/// A slot is a bit set of words 64-bit words.
struct BitSetSlots {
    size_t words = 1;
    std::vector<uint64_t> bits;  ///< one set per slot, words words each
    void resize(uint64_t slots) { bits.assign(slots * words, 0); }
    void put(uint64_t slot, uint32_t index) {
        bits[slot * words + index / 64] |= uint64_t{1} << (index % 64);
    }
    void take(uint64_t slot, std::vector<uint32_t>& out) {
        uint64_t* set = &bits[slot * words];
        for (size_t w = 0; w < words; ++w) {
            for (uint64_t word = set[w]; word != 0; word &= word - 1)
                out.push_back(static_cast<uint32_t>(w * 64 + __builtin_ctzll(word)));
            set[w] = 0;
        }
    }
};

class IndexCalendar : public RingCalendar<BitSetSlots> {
  public:
    /// count: the number of indices; horizon_log2: log2 of the ring size in cycles (6 .. 20).
    explicit IndexCalendar(size_t count, unsigned horizon_log2 = 10)
        : RingCalendar(horizon_log2, BitSetSlots{std::max<size_t>(1, (count + 63) / 64), {}}),
          count_(count) {}

    /// Makes index due at cycle t; t must not be earlier than the last cycle popped.
    void push(uint64_t t, uint32_t index) {
        SIM_ASSERT(index < count_, "calendar index " << index << " out of range");
        RingCalendar::push(t, index);
    }

  private:
    size_t count_;
};

}  // namespace sim
