// SPDX-License-Identifier: MIT
// An interconnect (crossbar, NoC) that lets several initiators share one target: the only legal
// way in a system file to put two devices on one memory (a TLM target socket binds one
// initiator). Requests from all inputs wait in one bounded queue and go out in arrival order,
// one at a time as the target accepts them (END_REQ), so back-pressure from the target reaches
// every input; answers go back to the input they came from. Each direction adds the link's
// latency (an annotated delay, TLM-2.0 base protocol).
#pragma once

#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <systemc>
#include <tlm>

#include <deque>
#include <unordered_map>

#include "sim/core/types.h"

namespace sim::tlm_util {

struct InterconnectParams {
    TimePs latency{0};           ///< added each way
    uint32_t queue_chunks = 16;  ///< requests it holds before END_REQ waits, >= 1
};

class Interconnect : public sc_core::sc_module {
  public:
    tlm_utils::multi_passthrough_target_socket<Interconnect> tgt_socket{"tgt_socket"};
    tlm_utils::simple_initiator_socket<Interconnect> init_socket{"init_socket"};

    Interconnect(sc_core::sc_module_name name, const InterconnectParams& params);
    const char* kind() const override { return "interconnect"; }
    const InterconnectParams& params() const { return params_; }
    uint64_t forwarded() const { return forwarded_; }

  private:
    tlm::tlm_sync_enum nb_transport_fw(int input,
                                       tlm::tlm_generic_payload& trans,
                                       tlm::tlm_phase& phase,
                                       sc_core::sc_time& delay);
    tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& trans,
                                       tlm::tlm_phase& phase,
                                       sc_core::sc_time& delay);
    void forward();

    struct Waiting {
        tlm::tlm_generic_payload* trans;
        sc_core::sc_time delay;
        int input;
    };
    InterconnectParams params_;
    std::deque<Waiting> queue_;
    std::deque<Waiting> blocked_;               // inputs whose END_REQ waits for queue room
    tlm::tlm_generic_payload* open_ = nullptr;  // sent downstream, END_REQ not yet back
    std::unordered_map<tlm::tlm_generic_payload*, int> origin_;
    std::unordered_map<tlm::tlm_generic_payload*, int> response_open_;  // upstream owes END_RESP
    uint64_t forwarded_ = 0;
};

}  // namespace sim::tlm_util
