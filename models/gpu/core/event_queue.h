// SPDX-License-Identifier: MIT
// The one calendar of the cycle-level GPU, in SM clock cycles: SM wake-ups and the memory
// requests travelling between SMs and L2 slices. An event is a kind and a 29-bit payload (an
// SM index, a request slot or a bulk copy), packed into the calendar's 32-bit id. Pure C++.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/core/calendar_queue.h"

namespace sim::gpu {

enum class EventKind : uint8_t {
    SmWake,        ///< payload: SM index
    L2Arrive,      ///< payload: request slot; the request reaches its L2 slice
    L2ArriveCopy,  ///< payload: a bulk copy, whose lines reach their L2 slices together
    SmReturn,      ///< payload: request slot; the data reaches the SM's L1
    CopyReturn,    ///< payload: a bulk copy, whose last line reaches the SM(s)
    StoreWritten,  ///< payload: SM index; a store of that SM has been written in L2
    WriteRoom,     ///< payload: pseudo-channel; a DRAM write finished, its write queue has room
};

struct Event {
    EventKind kind;
    uint32_t payload;
};

class EventQueue {
  public:
    static constexpr uint32_t kMaxPayload = (1u << 29) - 1;

    EventQueue() : calendar_(12) {}
    void push(uint64_t cycle, Event e) {
        SIM_ASSERT(e.payload <= kMaxPayload, "event payload out of range");
        calendar_.push(cycle, (static_cast<uint32_t>(e.kind) << 29) | e.payload);
    }
    bool empty() const { return calendar_.empty(); }
    uint64_t next_time() const { return calendar_.next_time(); }
    /// Pops the events of the earliest cycle into out (cleared first); returns that cycle.
    uint64_t pop_earliest(std::vector<Event>& out) {
        ids_.clear();
        const uint64_t t = calendar_.pop_earliest(ids_);
        out.clear();
        for (uint32_t id : ids_)
            out.push_back({static_cast<EventKind>(id >> 29), id & kMaxPayload});
        return t;
    }

  private:
    CalendarQueue calendar_;
    std::vector<uint32_t> ids_;
};

}  // namespace sim::gpu
