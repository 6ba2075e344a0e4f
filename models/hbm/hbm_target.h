// SPDX-License-Identifier: MIT
// The HBM stacks as a TLM-2.0 target (approximately timed, base protocol). A thin SystemC
// shell around HbmSystem: one SC_METHOD advances every pseudo-channel at the memory system's
// next event (never per cycle), converting between SystemC time and memory clocks.
//   BEGIN_REQ -> END_REQ at once when the pseudo-channel queue has room, otherwise later (the
//                initiator waits for END_REQ: back-pressure);
//   BEGIN_RESP when the last data beat has moved; END_RESP (or TLM_COMPLETED) releases the
//                response channel for the next one.
// While no request is queued the target sleeps; refreshes that fell due meanwhile are booked
// at their due times when traffic resumes, so an idle memory does not keep SystemC awake.
// Timing only: no data is stored, so payload data is left untouched.
#pragma once

#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

#include <deque>
#include <queue>
#include <vector>

#include "models/hbm/hbm_params.h"
#include "sim/time/clock_domain.h"

namespace sim::hbm {

class HbmTarget : public sc_core::sc_module {
  public:
    tlm_utils::simple_target_socket<HbmTarget> tgt_socket{"tgt_socket"};

    SC_HAS_PROCESS(HbmTarget);
    HbmTarget(sc_core::sc_module_name name, const HbmParams& params);

    const HbmSystem& system() const { return system_; }
    uint64_t completed() const { return completed_; }

  private:
    tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& trans,
                                       tlm::tlm_phase& phase,
                                       sc_core::sc_time& delay);
    void on_wakeup();    // advance the controllers, queue finished responses
    void on_response();  // send the next due BEGIN_RESP
    bool try_accept(tlm::tlm_generic_payload& trans, uint64_t now_cycle);
    uint64_t now_cycle() const;
    void wake_at(uint64_t cycle);

    struct Pending {
        uint64_t done_cycle;
        tlm::tlm_generic_payload* trans;
        bool operator>(const Pending& o) const { return done_cycle > o.done_cycle; }
    };

    ClockDomain clock_;
    HbmSystem system_;
    sc_core::sc_event wake_event_;
    sc_core::sc_event response_event_;
    tlm::tlm_generic_payload* blocked_ = nullptr;   // a request waiting for queue room
    std::vector<tlm::tlm_generic_payload*> by_id_;  // payload of each in-flight request id
    std::vector<uint64_t> free_ids_;
    std::priority_queue<Pending, std::vector<Pending>, std::greater<>> finished_;
    bool idle_ = true;                   // nothing queued: refresh wake-ups are not scheduled
    bool response_in_progress_ = false;  // BEGIN_RESP sent, END_RESP not yet received
    std::vector<Completion> done_;
    uint64_t completed_ = 0;
};

}  // namespace sim::hbm
