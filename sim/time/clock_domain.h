// SPDX-License-Identifier: MIT
// A named clock domain. It converts between cycles of this clock and absolute picoseconds
// without accumulating rounding: the frequency is kept as whole hertz and every conversion is
// one exact integer division (1830 MHz has no whole-ps period; 546 ps would drift by 0.08%).
#pragma once

#include <string>

#include "sim/core/types.h"

namespace sim {

class ClockDomain {
  public:
    /// A clock of frequency_hz (> 0, whole hertz). Throws std::invalid_argument otherwise.
    ClockDomain(std::string name, uint64_t frequency_hz);

    const std::string& name() const { return name_; }
    uint64_t frequency_hz() const { return frequency_hz_; }

    /// Start time of cycle c (cycle 0 starts at 0 ps), rounded up to the picosecond.
    TimePs to_ps(Cycle c) const;
    /// The cycle in progress at time t.
    Cycle cycle_at(TimePs t) const;
    /// The earliest edge at or after t.
    TimePs next_edge(TimePs t) const;
    /// Cycles needed to cover a duration, rounded up.
    Cycle cycles_for(TimePs duration) const;

  private:
    std::string name_;
    uint64_t frequency_hz_;
    // Below these the products fit in 64 bits and a 64-bit division gives the same result as
    // the 128-bit one (which is a library call on x86-64, on the path of every DRAM request).
    uint64_t max_cycle_64_;  ///< to_ps: c * kPsPerSecond + frequency_hz_ - 1 fits
    uint64_t max_ps_64_;     ///< cycle_at: t * frequency_hz_ fits
};

}  // namespace sim
