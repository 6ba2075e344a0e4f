// SPDX-License-Identifier: MIT
// Where the memory system's DRAM requests go when the DRAM is not its own: a port to a memory
// outside the GPU's core (a TLM-2.0 target, models/gpu/tlm_kernel.h), with time kept outside
// too. Without one, MemorySystem drives an HbmSystem directly from GpuCore's event loop (the
// direct path). Both paths see the same requests at the same DRAM cycles and give the same
// kernel results. Pure C++.
#pragma once

#include <cstddef>
#include <cstdint>

#include "models/hbm/core/hbm_system.h"
#include "models/hbm/core/pseudo_channel.h"

namespace sim::gpu {

/// Told when a DRAM request sent through a DramPort has completed (MemorySystem).
class DramListener {
  public:
    /// Request c.id completed; the DRAM model advanced to cycle `due` to complete it (c.done,
    /// its last data beat, may lie ahead of due).
    virtual void dram_completed(const hbm::Completion& c, uint64_t due) = 0;

  protected:
    ~DramListener() = default;
};

class DramPort {
  public:
    virtual ~DramPort() = default;
    /// The listener for completions; set once, by the memory system that sends requests.
    virtual void connect(DramListener& listener) = 0;
    /// A DRAM request: id (the sender's, given back on completion), bytes at addr (one
    /// interleave granule at most), which maps to pseudo-channel pc; to arrive at DRAM cycle
    /// arrival (at or after the current time). The port takes it: while the controller's queue
    /// is full it holds the request, and later ones of the same pseudo-channel and direction
    /// behind it.
    struct Request {
        uint64_t id = 0;
        uint64_t addr = 0;
        uint32_t bytes = 0;
        bool write = false;
        size_t pseudo_channel = 0;
        uint64_t arrival = 0;
    };
    virtual void send(const Request& r) = 0;
    /// Lets time pass up to the start of SM cycle t (kNever: until a completion arrives).
    /// Returns true at t, with the DRAM's work up to t done; false when a completion arrived
    /// earlier (the caller's next event may have moved).
    virtual bool wait_until(uint64_t sm_cycle) = 0;
};

/// The DRAM a memory system sends its requests to: by default an HbmSystem of its own; or
/// another's HbmSystem, driven directly from the GPU core's loop (it must be idle, at cycle 0);
/// or a port (then `system` is not used).
struct DramAccess {
    hbm::HbmSystem* system = nullptr;
    DramPort* port = nullptr;
};

}  // namespace sim::gpu
