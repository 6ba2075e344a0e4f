// SPDX-License-Identifier: MIT
// The HBM stacks' memory controllers as a TLM-2.0 target (approximately timed, base
// protocol) with a read port and a write port per pseudo-channel, as a memory partition's
// link to its controllers has separate read and write request channels (AXI's AR and AW):
// binding 2·pc takes pseudo-channel pc's reads, binding 2·pc+1 its writes, so a full write
// queue holds back no read and one pseudo-channel none of the others.
//   BEGIN_REQ (delay = when it reaches the controller) -> END_REQ at once when that queue has
//     room, otherwise when it has (back-pressure: the initiator sends nothing more on that
//     binding meanwhile);
//   BEGIN_RESP as the DRAM model completes the request, its delay the time until the last data
//     beat moves; the initiator answers TLM_COMPLETED.
// One SC_METHOD advances every pseudo-channel at the DRAM's next event (refreshes included,
// never per cycle). It also offers its DRAM model through the binding
// (direct_dram_extension.h). Timing only: payload data is left untouched.
// HbmTarget is the single-socket target for initiators that see the memory as one port.
#pragma once

#include <tlm_utils/multi_passthrough_target_socket.h>
#include <systemc>
#include <tlm>

#include <vector>

#include "models/hbm/core/hbm_system.h"
#include "sim/time/clock_domain.h"

namespace sim::hbm {

class HbmControllerTarget : public sc_core::sc_module {
  public:
    tlm_utils::multi_passthrough_target_socket<HbmControllerTarget> in{"in"};

    SC_HAS_PROCESS(HbmControllerTarget);
    HbmControllerTarget(sc_core::sc_module_name name, const HbmCoreConfig& config);

    /// Bindings `in` needs: a read and a write port per pseudo-channel.
    size_t ports() const { return 2 * system_.pseudo_channel_count(); }
    const HbmSystem& system() const { return system_; }
    uint64_t completed() const { return completed_; }

  private:
    void end_of_elaboration() override;
    tlm::tlm_sync_enum nb_transport_fw(int port,
                                       tlm::tlm_generic_payload& trans,
                                       tlm::tlm_phase& phase,
                                       sc_core::sc_time& delay);
    unsigned int transport_dbg(int port, tlm::tlm_generic_payload& trans);
    /// Checks a request against its port; sets an error response and returns false if bad.
    bool well_formed(int port, tlm::tlm_generic_payload& trans) const;
    /// Queues port's request at its controller; false when the queue is full.
    bool try_send(int port, tlm::tlm_generic_payload& trans, uint64_t arrival);
    void on_wakeup();  // advances the DRAM through every event due now
    void respond(const Completion& c);
    /// A request held back on port goes in if its queue has room now (END_REQ).
    void retry(int port);
    uint64_t now_cycle() const;
    void wake_at(uint64_t cycle);

    struct InFlight {
        tlm::tlm_generic_payload* trans = nullptr;
        int port = 0;
    };
    struct Held {
        tlm::tlm_generic_payload* trans = nullptr;
        uint64_t arrival = 0;
    };

    ClockDomain clock_;
    HbmSystem system_;
    sc_core::sc_event wake_event_;
    std::vector<Held> held_;       // per port: a request waiting for queue room
    std::vector<InFlight> by_id_;  // per DRAM request id
    std::vector<uint64_t> free_ids_;
    std::vector<Completion> done_;
    std::vector<size_t> touched_;
    uint64_t completed_ = 0;
};

}  // namespace sim::hbm
