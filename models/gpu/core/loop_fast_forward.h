// SPDX-License-Identifier: MIT
// Sampling inside a wave: once a kernel's main loop (its longest top-level loop: a GEMM's
// k-loop, attention's KV loop) runs at a steady rate, every resident warp's loop counter is
// moved ahead by the same number of trips, and the time and work those trips would have taken
// (measured over the last windows of trips) are added to the kernel's. Every resident CTA
// loses the same trips, so everything after the jump — the last trips, the epilogue and its
// stores, the next CTAs and the wave tail — happens the same time earlier, and is simulated.
// Warps keep their relative positions and pipeline stages (jumps are multiples of every
// rotating register's period). What is not simulated is the skipped trips' own memory
// traffic: the L2 never sees those lines. Pure C++.
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
        uint32_t trips = 0;       ///< every resident CTA's loop moves ahead this many trips
        double cycles = 0;        ///< the time they would have taken
        double bound_cycles = 0;  ///< about a 95% interval on that time
        KernelTotals work;        ///< the work they would have done (counters, as deltas)
    };
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
