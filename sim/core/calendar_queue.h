// SPDX-License-Identifier: MIT
// A calendar queue of (cycle, id) events for models that advance many small C++ cores from one
// process (the ring and overflow heap are ring_calendar.h's). Events of one cycle come out in a
// deterministic order: those that waited beyond the horizon first (by id), then the rest in
// push order. It keeps whatever is pushed: callers that reschedule an id filter out the stale
// entries.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/core/ring_calendar.h"

namespace sim {

/// A slot is the list of its cycle's ids in push order.
struct ListSlots {
    std::vector<std::vector<uint32_t>> lists;
    void resize(uint64_t slots) { lists.resize(slots); }
    void put(uint64_t slot, uint32_t id) { lists[slot].push_back(id); }
    void take(uint64_t slot, std::vector<uint32_t>& out) {
        out.insert(out.end(), lists[slot].begin(), lists[slot].end());
        lists[slot].clear();
    }
};

class CalendarQueue : public RingCalendar<ListSlots> {
  public:
    /// horizon_log2: log2 of the ring size in cycles (6 .. 20).
    explicit CalendarQueue(unsigned horizon_log2 = 10) : RingCalendar(horizon_log2, {}) {}
};

}  // namespace sim
