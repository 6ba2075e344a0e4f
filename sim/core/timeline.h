// SPDX-License-Identifier: MIT
// An engine that serves one job at a time in arrival order (a GPU's kernel engine, its link
// engine). Jobs reserve an interval: it starts when both the job and the engine are ready.
// Pure C++; the SystemC shell waits until the returned end time. A device's engines are shared
// by all its models (EngineSet), so a cycle-level op and an analytic kernel cannot both use
// the same engine at once.
#pragma once

#include <map>
#include <string>

#include "sim/core/types.h"

namespace sim {

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

/// The named engines of one device ("kernel", "link", "copy"), shared by its models.
class EngineSet {
  public:
    /// The engine called name, created idle on first use.
    Timeline& get(const std::string& name) { return engines_[name]; }

  private:
    std::map<std::string, Timeline> engines_;
};

}  // namespace sim
