// SPDX-License-Identifier: MIT
// One kernel on the cycle-level GPU core (models/gpu/core) in SystemC time, its L2's DRAM
// requests crossing TLM-2.0 sockets: `dram` binds to a memory's controller ports (a read and a
// write port per pseudo-channel, models/hbm/hbm_controller_target.h), requests go as BEGIN_REQ
// with their arrival at the controller as the delay, back-pressure holds the later requests of
// a port until END_REQ, and each BEGIN_RESP fills its L2 line at once (annotated with the time
// its data is back). The core's own process waits on SystemC time between its events, so the
// memory can be any target that follows the base protocol on those ports.
//
// Path::Direct asks the bound memory for its DRAM model through the binding
// (direct_dram_extension.h) and drives it from the core's loop with no transactions at all:
// the path wallsim's GPU operator model takes. Both paths give identical results; the kernel
// starts at time zero (the memory idle), one kernel per elaboration.
#pragma once

#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <systemc>
#include <tlm>

#include <deque>
#include <memory>
#include <vector>

#include "models/gpu/core/dram_port.h"
#include "models/gpu/core/gpu_core.h"
#include "sim/time/clock_domain.h"

namespace sim::gpu {

class TlmKernel : public sc_core::sc_module, private DramPort {
  public:
    enum class Path { Tlm, Direct };

    tlm_utils::multi_passthrough_initiator_socket<TlmKernel> dram{"dram"};

    SC_HAS_PROCESS(TlmKernel);
    /// hbm is the organisation of the memory `dram` binds to (its address mapping picks the
    /// port of each request). stop_when_done calls sc_stop() when the kernel has finished
    /// (the memory's refreshes would keep the simulation going).
    TlmKernel(sc_core::sc_module_name name,
              const GpuCoreConfig& gpu,
              const hbm::HbmCoreConfig& hbm,
              const KernelLaunch& kernel,
              const SamplingOptions& sampling,
              Path path,
              bool stop_when_done = true);

    bool finished() const { return finished_; }
    const KernelResult& result() const { return result_; }
    /// Notified when the kernel has finished (at its last cycle).
    const sc_core::sc_event& done() const { return done_; }
    /// DRAM transactions sent through `dram` (0 on the direct path).
    uint64_t transactions() const { return transactions_; }
    /// BEGIN_REQs the memory held back until its queue had room.
    uint64_t held_back() const { return held_back_; }

  private:
    /// A payload that knows its DRAM request id; one per id, reused (a pool: none is
    /// allocated per request once the pool has grown to the requests in flight).
    struct DramPayload : tlm::tlm_generic_payload {
        uint64_t id = 0;
        uint64_t arrival = 0;  ///< DRAM cycle it reaches the controller, stamped by the L2
    };
    struct Port {           ///< a binding's request channel
        bool busy = false;  ///< a BEGIN_REQ waits for its END_REQ
        std::deque<DramPayload*> queued;
    };

    void run();
    // DramPort
    void connect(DramListener& listener) override { listener_ = &listener; }
    void send(const Request& r) override;
    bool wait_until(uint64_t sm_cycle) override;
    /// Sends trans on port; false when the memory holds it back (port busy until END_REQ).
    bool begin_request(int port, DramPayload& trans);
    tlm::tlm_sync_enum nb_transport_bw(int port,
                                       tlm::tlm_generic_payload& trans,
                                       tlm::tlm_phase& phase,
                                       sc_core::sc_time& delay);

    GpuCoreConfig gpu_;
    hbm::HbmCoreConfig hbm_;
    KernelLaunch kernel_;
    SamplingOptions sampling_;
    Path path_;
    bool stop_when_done_;
    ClockDomain sm_clock_;
    ClockDomain dram_clock_;
    DramListener* listener_ = nullptr;
    std::vector<std::unique_ptr<DramPayload>> payloads_;  // by request id
    std::vector<Port> ports_;
    sc_core::sc_event completed_;  // a completion may have moved the core's next event
    sc_core::sc_event done_;
    KernelResult result_;
    bool finished_ = false;
    uint64_t transactions_ = 0;
    uint64_t held_back_ = 0;
};

}  // namespace sim::gpu
