// SPDX-License-Identifier: MIT
// SystemC time as wallsim's picoseconds (the kernel's time resolution is 1 ps), for the
// modules that keep their own schedules in TimePs.
#pragma once

#include <systemc>

#include "sim/core/types.h"

namespace sim::tlm_util {

/// The current simulated time.
inline TimePs now_ps() {
    return TimePs{sc_core::sc_time_stamp().value()};
}

/// The SystemC delay from `from` to `to` (to >= from).
inline sc_core::sc_time span(TimePs from, TimePs to) {
    return sc_core::sc_time::from_value(to.value() - from.value());
}

}  // namespace sim::tlm_util
