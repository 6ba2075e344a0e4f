// SPDX-License-Identifier: MIT
// A calendar queue of (cycle, id) events for models that advance many small C++ cores from one
// process. Events within `horizon` cycles of the earliest one sit in a ring of per-cycle
// buckets with an occupancy bitmap, so push and pop are O(1) and finding the next busy cycle is
// a find-first-set over the bitmap. Events further out wait in a binary heap and move into the
// ring when it reaches them. Events of one cycle come out in a deterministic order: those that
// waited beyond the horizon first (by id), then the rest in push order.
// It keeps whatever is pushed: callers that reschedule an id filter out the stale entries.
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

class CalendarQueue {
  public:
    static constexpr uint64_t kEmpty = std::numeric_limits<uint64_t>::max();

    /// horizon_log2: log2 of the ring size in cycles (6 .. 20).
    explicit CalendarQueue(unsigned horizon_log2 = 10)
        : size_(uint64_t{1} << horizon_log2), buckets_(size_), occupied_(size_ / 64, 0) {
        SIM_ASSERT(horizon_log2 >= 6 && horizon_log2 <= 20, "calendar horizon out of range");
    }

    /// Queues id at cycle t; t must not be earlier than the last cycle popped.
    void push(uint64_t t, uint32_t id) {
        SIM_ASSERT(t >= cursor_, "event at cycle " << t << " is in the past (" << cursor_ << ")");
        if (t < cursor_ + size_) {
            put_in_ring(t, id);
        } else {
            overflow_.push({t, id});
        }
    }

    bool empty() const { return ring_count_ == 0 && overflow_.empty(); }

    /// The earliest queued cycle, kEmpty when nothing is queued.
    uint64_t next_time() const {
        // Every overflow event lies beyond every ring event.
        if (ring_count_ == 0) return overflow_.empty() ? kEmpty : overflow_.top().first;
        return cursor_ + distance_to_first_occupied(occupied_, cursor_ & (size_ - 1));
    }

    /// Removes the events of cycle next_time() and appends their ids to out.
    /// Returns that cycle. Requires !empty().
    uint64_t pop_earliest(std::vector<uint32_t>& out) {
        const uint64_t t = next_time();
        SIM_ASSERT(t != kEmpty, "pop from an empty calendar");
        cursor_ = t;
        refill();
        const uint64_t slot = t & (size_ - 1);
        std::vector<uint32_t>& bucket = buckets_[slot];
        out.insert(out.end(), bucket.begin(), bucket.end());
        ring_count_ -= bucket.size();
        bucket.clear();
        occupied_[slot / 64] &= ~(uint64_t{1} << (slot % 64));
        return t;
    }

  private:
    using Event = std::pair<uint64_t, uint32_t>;

    void put_in_ring(uint64_t t, uint32_t id) {
        const uint64_t slot = t & (size_ - 1);
        buckets_[slot].push_back(id);
        occupied_[slot / 64] |= uint64_t{1} << (slot % 64);
        ++ring_count_;
    }
    /// Moves overflow events that now fall within the horizon into the ring.
    void refill() {
        while (!overflow_.empty() && overflow_.top().first < cursor_ + size_) {
            put_in_ring(overflow_.top().first, overflow_.top().second);
            overflow_.pop();
        }
    }
    uint64_t size_;
    std::vector<std::vector<uint32_t>> buckets_;
    std::vector<uint64_t> occupied_;
    uint64_t cursor_ = 0;  ///< the last cycle popped; every queued event is at or after it
    uint64_t ring_count_ = 0;
    std::priority_queue<Event, std::vector<Event>, std::greater<>> overflow_;
};

}  // namespace sim
