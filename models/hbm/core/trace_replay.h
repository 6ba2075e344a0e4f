// SPDX-License-Identifier: MIT
// Replays a DRAM address trace (models/hbm/core/dram_trace.h) through an HbmSystem the way the
// trace front ends of Ramulator 2 (LoadStoreTrace) and DRAMSim3 (TraceBasedCPU) do: requests
// go in file order, one at a time; one refused by its full controller queue is offered again
// every cycle and holds back all after it (no reordering in front of the controllers), so at
// most the controller queues' capacity is outstanding. A DRAMSim3 access is not sent before
// its cycle. Each access is one request of request_bytes at its address rounded down to a
// multiple of request_bytes (Ramulator drops the bits below its transaction size), wrapped
// into the capacity. Pure C++.
#pragma once

#include <cstdint>

#include "models/hbm/core/dram_trace.h"
#include "models/hbm/core/hbm_system.h"
#include "models/hbm/core/traffic.h"

namespace sim::hbm {

struct TraceReplayParams {
    uint32_t request_bytes = 32;  ///< bytes per access: a multiple of the burst size
    /// Requests the front end may send per memory clock; 0: as many as the controllers take
    /// (Ramulator 2 with a front-end clock much faster than the memory's). DRAMSim3's trace CPU
    /// sends at most one per memory clock.
    uint32_t issue_per_cycle = 0;
    /// Hold each access until its cycle (DRAMSim3's third field; 0 in Ramulator traces).
    bool honour_cycles = true;
};

/// Runs trace to completion on system (every access's data moved). Throws
/// std::invalid_argument for a request size the mapping cannot serve whole.
TrafficResult replay_trace(HbmSystem& system, const DramTrace& trace, const TraceReplayParams& p);

}  // namespace sim::hbm
