// SPDX-License-Identifier: MIT
// A one-line progress bar on stderr for long runs. It draws only when stderr is a terminal and
// the run has lasted longer than half a second, so piped output and short runs stay quiet.
#pragma once

#include <chrono>
#include <cstdint>

namespace sim {

class ProgressBar {
  public:
    /// total: number of operators; enabled: false silences it (--no-progress).
    ProgressBar(uint64_t total, bool enabled);
    ~ProgressBar();
    ProgressBar(const ProgressBar&) = delete;
    ProgressBar& operator=(const ProgressBar&) = delete;

    /// Reports done operators; redraws at most ten times a second.
    void update(uint64_t done, double sim_seconds);
    /// Ends the line if anything was drawn.
    void finish();

  private:
    using Clock = std::chrono::steady_clock;
    uint64_t total_;
    bool enabled_;
    bool drawn_ = false;
    Clock::time_point start_;
    Clock::time_point last_draw_;
};

}  // namespace sim
