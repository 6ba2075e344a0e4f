// SPDX-License-Identifier: MIT
// An engine that serves one job at a time in arrival order (a GPU's kernel engine, its link
// engine). Jobs reserve an interval: it starts when both the job and the engine are ready.
// Pure C++; the SystemC shell waits until the returned end time.
#pragma once

#include "sim/core/types.h"

namespace sim::analytic {

class Timeline {
  public:
    /// Reserves duration starting no earlier than now; returns the start time.
    TimePs reserve(TimePs now, TimePs duration) {
        const TimePs start = now > free_at_ ? now : free_at_;
        free_at_ = start + duration;
        busy_ += duration;
        return start;
    }
    TimePs free_at() const { return free_at_; }
    /// Total reserved time.
    TimePs busy() const { return busy_; }

  private:
    TimePs free_at_{0};
    TimePs busy_{0};
};

}  // namespace sim::analytic
