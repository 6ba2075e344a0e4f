// SPDX-License-Identifier: MIT
// The machinery the calendars of the cycle-level models share (calendar_queue.h,
// index_calendar.h): events of cycles within `horizon` of the earliest one sit in a ring of
// per-cycle slots with an occupancy bitmap, so push and pop are O(1) and finding the next busy
// cycle is a find-first-set over the bitmap; events further out wait in a binary heap and move
// into the ring when it reaches them. What a slot holds, and so the order a cycle's events
// come out in, is the Slots policy's:
//   void resize(uint64_t slots)            makes room for that many empty slots
//   void put(uint64_t slot, uint32_t id)   adds id
//   void take(uint64_t slot, std::vector<uint32_t>& out)   appends the slot's ids, empties it
// A calendar keeps whatever is pushed: callers that reschedule an id filter out the stale
// entries.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <queue>
#include <utility>
#include <vector>

#include "sim/core/error.h"

namespace sim {

template <typename Slots>
class RingCalendar {
  public:
    static constexpr uint64_t kEmpty = std::numeric_limits<uint64_t>::max();

    /// Queues id at cycle t; t must not be earlier than the last cycle popped.
    void push(uint64_t t, uint32_t id) {
        SIM_ASSERT(t >= cursor_, "event at cycle " << t << " is in the past (" << cursor_ << ")");
        if (t < cursor_ + size_) {
            put_in_ring(t, id);
        } else {
            overflow_.push({t, id});
        }
    }

    bool empty() const { return occupied_slots_ == 0 && overflow_.empty(); }

    /// The earliest queued cycle, kEmpty when nothing is queued.
    uint64_t next_time() const {
        // Every overflow event lies beyond every ring event.
        if (occupied_slots_ == 0) return overflow_.empty() ? kEmpty : overflow_.top().first;
        return cursor_ + distance_to_first_occupied(cursor_ & (size_ - 1));
    }

    /// Removes the events of cycle next_time() and appends their ids to out, in the order the
    /// Slots policy keeps. Returns that cycle. Requires !empty().
    uint64_t pop_earliest(std::vector<uint32_t>& out) {
        const uint64_t t = next_time();
        SIM_ASSERT(t != kEmpty, "pop from an empty calendar");
        cursor_ = t;
        refill();
        const uint64_t slot = t & (size_ - 1);
        slots_.take(slot, out);
        occupied_[slot / 64] &= ~(uint64_t{1} << (slot % 64));
        --occupied_slots_;
        return t;
    }

  protected:
    /// horizon_log2: log2 of the ring size in cycles (6 .. 20); slots is resized to it.
    RingCalendar(unsigned horizon_log2, Slots slots) : slots_(std::move(slots)) {
        SIM_ASSERT(horizon_log2 >= 6 && horizon_log2 <= 20, "calendar horizon out of range");
        size_ = uint64_t{1} << horizon_log2;
        slots_.resize(size_);
        occupied_.assign(size_ / 64, 0);
    }
    Slots& slots() { return slots_; }

  private:
    using Event = std::pair<uint64_t, uint32_t>;

    void put_in_ring(uint64_t t, uint32_t id) {
        const uint64_t slot = t & (size_ - 1);
        slots_.put(slot, id);
        uint64_t& word = occupied_[slot / 64];
        const uint64_t bit = uint64_t{1} << (slot % 64);
        if (!(word & bit)) {
            word |= bit;
            ++occupied_slots_;
        }
    }
    /// Moves overflow events that now fall within the horizon into the ring.
    void refill() {
        while (!overflow_.empty() && overflow_.top().first < cursor_ + size_) {
            put_in_ring(overflow_.top().first, overflow_.top().second);
            overflow_.pop();
        }
    }
    /// Slots from start, going round the ring, to the first occupied one (occupied_slots_ > 0).
    uint64_t distance_to_first_occupied(uint64_t start) const {
        const size_t words = occupied_.size();
        size_t w = start / 64;
        uint64_t bits = occupied_[w] & (~uint64_t{0} << (start % 64));
        for (size_t step = 0; step <= words; ++step) {
            if (bits != 0) {
                const uint64_t slot = w * 64 + static_cast<uint64_t>(__builtin_ctzll(bits));
                return (slot + size_ - start) & (size_ - 1);
            }
            w = (w + 1) % words;
            bits = occupied_[w];
        }
        throw SimBug("calendar says a slot is occupied but none is");
    }

    uint64_t size_ = 0;
    Slots slots_;
    std::vector<uint64_t> occupied_;
    uint64_t cursor_ = 0;  ///< the last cycle popped; every queued event is at or after it
    uint64_t occupied_slots_ = 0;
    std::priority_queue<Event, std::vector<Event>, std::greater<>> overflow_;
};

}  // namespace sim
