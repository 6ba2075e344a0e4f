// SPDX-License-Identifier: MIT
// A calendar of (cycle, index) events for a fixed set of indices 0 .. count - 1 (the
// controllers of a memory system), each cycle's events a set: a bit per index. An index pushed
// twice for one cycle is due once, and a cycle's indices come out in increasing order, however
// they were pushed. Cycles within `horizon` of the earliest event sit in a ring of bit sets with
// an occupancy bitmap, as in CalendarQueue (calendar_queue.h); events further out wait in a
// binary heap and move into the ring when it reaches them. Where CalendarQueue keeps each
// cycle's events in push order, a caller that wants them in index order sorted every cycle's
// list: with tens of controllers due at once that cost as much as pushing them.
// It keeps whatever is pushed: callers that reschedule an index filter out the stale entries.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <queue>
#include <utility>
#include <vector>

#include "sim/core/error.h"
#include "sim/core/ring_bitmap.h"

namespace sim {

class IndexCalendar {
  public:
    static constexpr uint64_t kEmpty = std::numeric_limits<uint64_t>::max();

    /// count: the number of indices; horizon_log2: log2 of the ring size in cycles (6 .. 20).
    explicit IndexCalendar(size_t count, unsigned horizon_log2 = 10)
        : size_(uint64_t{1} << horizon_log2),
          words_((count + 63) / 64),
          count_(count),
          sets_(size_ * words_, 0),
          occupied_(size_ / 64, 0) {
        SIM_ASSERT(horizon_log2 >= 6 && horizon_log2 <= 20, "calendar horizon out of range");
    }

    /// Makes index due at cycle t; t must not be earlier than the last cycle popped.
    void push(uint64_t t, uint32_t index) {
        SIM_ASSERT(t >= cursor_, "event at cycle " << t << " is in the past (" << cursor_ << ")");
        SIM_ASSERT(index < count_, "calendar index " << index << " out of range");
        if (t < cursor_ + size_) {
            put_in_ring(t, index);
        } else {
            overflow_.push({t, index});
        }
    }

    bool empty() const { return ring_cycles_ == 0 && overflow_.empty(); }

    /// The earliest cycle with an index due, kEmpty when none is.
    uint64_t next_time() const {
        // Every overflow event lies beyond every ring event.
        if (ring_cycles_ == 0) return overflow_.empty() ? kEmpty : overflow_.top().first;
        return cursor_ + distance_to_first_occupied(occupied_, cursor_ & (size_ - 1));
    }

    /// Removes the indices due at cycle next_time() and appends them to out in increasing
    /// order, each once. Returns that cycle. Requires !empty().
    uint64_t pop_earliest(std::vector<uint32_t>& out) {
        const uint64_t t = next_time();
        SIM_ASSERT(t != kEmpty, "pop from an empty calendar");
        cursor_ = t;
        refill();
        const uint64_t slot = t & (size_ - 1);
        uint64_t* set = &sets_[slot * words_];
        for (size_t w = 0; w < words_; ++w) {
            for (uint64_t bits = set[w]; bits != 0; bits &= bits - 1)
                out.push_back(static_cast<uint32_t>(w * 64 + __builtin_ctzll(bits)));
            set[w] = 0;
        }
        --ring_cycles_;
        occupied_[slot / 64] &= ~(uint64_t{1} << (slot % 64));
        return t;
    }

  private:
    using Event = std::pair<uint64_t, uint32_t>;

    void put_in_ring(uint64_t t, uint32_t index) {
        const uint64_t slot = t & (size_ - 1);
        sets_[slot * words_ + index / 64] |= uint64_t{1} << (index % 64);
        uint64_t& occupied = occupied_[slot / 64];
        const uint64_t bit = uint64_t{1} << (slot % 64);
        if (!(occupied & bit)) {
            occupied |= bit;
            ++ring_cycles_;
        }
    }
    /// Moves overflow events that now fall within the horizon into the ring.
    void refill() {
        while (!overflow_.empty() && overflow_.top().first < cursor_ + size_) {
            put_in_ring(overflow_.top().first, overflow_.top().second);
            overflow_.pop();
        }
    }
    uint64_t size_;
    size_t words_;  ///< 64-bit words of one cycle's set
    size_t count_;
    std::vector<uint64_t> sets_;  ///< size_ sets of words_ words, one per ring slot
    std::vector<uint64_t> occupied_;
    uint64_t cursor_ = 0;       ///< the last cycle popped; every queued event is at or after it
    uint64_t ring_cycles_ = 0;  ///< ring slots with a non-empty set
    std::priority_queue<Event, std::vector<Event>, std::greater<>> overflow_;
};

}  // namespace sim
