// SPDX-License-Identifier: MIT
// A point that has to run, as the backends (local processes, a Slurm job array) see it, and the
// progress line they draw while points run.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

namespace sim::sweep {

struct Task {
    std::string key;                ///< the point's directory name
    std::vector<std::string> argv;  ///< the full command line, wallsim binary first
};

/// "[#####.....]  12/40 points  3 running  1 failed" on stderr, redrawn at most ten times a
/// second, only when stderr is a terminal.
class SweepProgress {
  public:
    SweepProgress(size_t total, bool enabled);
    ~SweepProgress();
    SweepProgress(const SweepProgress&) = delete;
    SweepProgress& operator=(const SweepProgress&) = delete;

    void update(size_t done, size_t running, size_t failed);
    void finish();

  private:
    size_t total_;
    bool enabled_;
    bool drawn_ = false;
    std::chrono::steady_clock::time_point last_draw_;
};

}  // namespace sim::sweep
