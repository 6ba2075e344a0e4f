// SPDX-License-Identifier: MIT
// Requests whose last command has issued, until their data has moved: the traffic generator's
// and the trace front end's view of the data bus. A read's data is done a fixed time after its
// RD and a write's after its WR, and commands issue in time order, so each kind finishes in
// issue order: two FIFOs replace a priority queue. Pure C++.
#pragma once

#include <cstdint>
#include <deque>

#include "models/hbm/core/pseudo_channel.h"
#include "sim/core/error.h"

namespace sim::hbm {

class InFlight {
  public:
    void push(const Completion& c) {
        std::deque<Completion>& q = c.write ? writes_ : reads_;
        SIM_ASSERT(q.empty() || q.back().done <= c.done, "completions out of order");
        q.push_back(c);
    }
    bool empty() const { return reads_.empty() && writes_.empty(); }
    uint64_t earliest_done() const { return (reads_first() ? reads_ : writes_).front().done; }
    Completion pop() {
        std::deque<Completion>& q = reads_first() ? reads_ : writes_;
        const Completion c = q.front();
        q.pop_front();
        return c;
    }

  private:
    bool reads_first() const {
        return writes_.empty() || (!reads_.empty() && reads_.front().done <= writes_.front().done);
    }

    std::deque<Completion> reads_, writes_;
};

}  // namespace sim::hbm
