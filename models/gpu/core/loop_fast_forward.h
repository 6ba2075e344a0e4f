// SPDX-License-Identifier: MIT
// Sampling inside a wave: once a kernel's main loop (its longest top-level loop: a GEMM's
// k-loop, attention's KV loop) runs at a steady rate, the time of a number of trips at that
// rate (measured over the last windows of trips) is added to the kernel's, with their work,
// and each resident CTA's loop counter moves on by the trips its own rate over those windows
// makes in that time (GpuCore::skip_each_cta), so the CTAs drift apart as they would have.
// Everything after the jump — the last trips, the epilogue and its stores, the next CTAs and
// the wave tail — happens that time earlier, and is simulated. A CTA's warps keep their
// relative positions and pipeline stages (jumps are multiples of every rotating register's
// period). What is not simulated is the skipped trips' own memory traffic: the L2 never sees
// those lines. Pure C++.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "models/gpu/core/sampling.h"
#include "models/gpu/core/warp_program.h"

namespace sim::gpu {

class LoopFastForward {
  public:
    LoopFastForward(const MainLoop& loop, const SamplingOptions& sampling);
    bool enabled() const { return enabled_; }
    /// CTAs were launched or retired: the rate measured so far no longer holds.
    void reset();
    /// Whether the trips completed so far (by every CTA together) end a window.
    bool at_window(uint64_t trips) const { return trips >= next_window_; }

    struct Jump {
        uint32_t trips = 0;       ///< a CTA at the mean rate moves ahead this many trips
        double cycles = 0;        ///< the time they would have taken
        double bound_cycles = 0;  ///< about a 95% interval on that time
        KernelTotals work;        ///< the work they would have done (counters, as deltas)
        /// The windows the rate was measured over start at window `first_window` (counted from
        /// the last reset), at cycle `first_cycle`.
        size_t first_window = 0;
        uint64_t first_cycle = 0;
        uint32_t margin = 0;  ///< trips every warp keeps after the jump
        uint32_t period = 1;  ///< a CTA's jump is a multiple of it (MainLoop::trip_multiple)
    };
    /// Windows since the last reset.
    size_t windows() const { return marks_.size(); }
    /// A window ends at cycle now with `trips` done in all, totals counted so far and
    /// `resident` CTAs on the GPU; trips_left() gives the fewest trips any resident warp has
    /// left (0 when one is outside the loop). Returns the jump to make when the last windows
    /// were steady.
    std::optional<Jump> on_window(uint64_t now,
                                  uint64_t trips,
                                  const KernelTotals& totals,
                                  uint32_t resident,
                                  const std::function<uint32_t()>& trips_left,
                                  double dram_bytes_per_cycle);

  private:
    MainLoop loop_;
    SamplingOptions sampling_;
    bool enabled_;
    uint64_t next_window_ = 0;
    std::vector<uint64_t> marks_;  ///< cycles at window ends since the last reset
    std::vector<double> trips_;    ///< trips done at each
    std::vector<KernelTotals> totals_;
};

}  // namespace sim::gpu
