// SPDX-License-Identifier: MIT
#include "sim/tlm/interconnect.h"

#include "sim/core/error.h"

namespace sim::tlm_util {

Interconnect::Interconnect(sc_core::sc_module_name name, const InterconnectParams& params)
    : sc_core::sc_module(name), params_(params) {
    SIM_ASSERT(params_.queue_chunks >= 1, "an interconnect queue holds at least one request");
    tgt_socket.register_nb_transport_fw(this, &Interconnect::nb_transport_fw);
    init_socket.register_nb_transport_bw(this, &Interconnect::nb_transport_bw);
}

void Interconnect::forward() {
    while (!open_ && !queue_.empty()) {
        Waiting w = queue_.front();
        queue_.pop_front();
        if (!blocked_.empty()) {
            // Room in the queue: the oldest held input gets its END_REQ now.
            Waiting b = blocked_.front();
            blocked_.pop_front();
            b.delay = sc_core::SC_ZERO_TIME;  // it has waited; it arrives now
            queue_.push_back(b);
            tlm::tlm_phase phase = tlm::END_REQ;
            sc_core::sc_time zero = sc_core::SC_ZERO_TIME;
            tgt_socket[b.input]->nb_transport_bw(*b.trans, phase, zero);
        }
        origin_[w.trans] = w.input;
        ++forwarded_;
        tlm::tlm_phase phase = tlm::BEGIN_REQ;
        sc_core::sc_time delay = w.delay + sc_core::sc_time::from_value(params_.latency.value());
        const tlm::tlm_sync_enum s = init_socket->nb_transport_fw(*w.trans, phase, delay);
        if (s == tlm::TLM_ACCEPTED || (s == tlm::TLM_UPDATED && phase == tlm::BEGIN_REQ)) {
            open_ = w.trans;
        } else if (s == tlm::TLM_COMPLETED || (s == tlm::TLM_UPDATED && phase == tlm::BEGIN_RESP)) {
            // Answered at once (an ideal memory): pass the answer back.
            tlm::tlm_phase up = tlm::BEGIN_RESP;
            sc_core::sc_time back = delay + sc_core::sc_time::from_value(params_.latency.value());
            origin_.erase(w.trans);
            tgt_socket[w.input]->nb_transport_bw(*w.trans, up, back);
        }
    }
}

tlm::tlm_sync_enum Interconnect::nb_transport_fw(int input,
                                                 tlm::tlm_generic_payload& trans,
                                                 tlm::tlm_phase& phase,
                                                 sc_core::sc_time& delay) {
    if (phase == tlm::END_RESP) {
        auto it = response_open_.find(&trans);
        SIM_ASSERT(it != response_open_.end(), "END_RESP for no open response");
        response_open_.erase(it);
        tlm::tlm_phase down = tlm::END_RESP;
        sc_core::sc_time zero = sc_core::SC_ZERO_TIME;
        init_socket->nb_transport_fw(trans, down, zero);
        return tlm::TLM_COMPLETED;
    }
    SIM_ASSERT(phase == tlm::BEGIN_REQ, "unexpected phase into an interconnect");
    if (queue_.size() >= params_.queue_chunks) {
        blocked_.push_back({&trans, delay, input});
        return tlm::TLM_ACCEPTED;
    }
    queue_.push_back({&trans, delay, input});
    phase = tlm::END_REQ;
    forward();
    return tlm::TLM_UPDATED;
}

tlm::tlm_sync_enum Interconnect::nb_transport_bw(tlm::tlm_generic_payload& trans,
                                                 tlm::tlm_phase& phase,
                                                 sc_core::sc_time& delay) {
    if (phase == tlm::END_REQ) {
        open_ = nullptr;
        forward();
        return tlm::TLM_ACCEPTED;
    }
    SIM_ASSERT(phase == tlm::BEGIN_RESP, "unexpected phase back into an interconnect");
    if (open_ == &trans) open_ = nullptr;  // BEGIN_RESP implies END_REQ
    auto it = origin_.find(&trans);
    SIM_ASSERT(it != origin_.end(), "an answer to a request this interconnect never sent");
    const int input = it->second;
    origin_.erase(it);
    tlm::tlm_phase up = tlm::BEGIN_RESP;
    sc_core::sc_time back = delay + sc_core::sc_time::from_value(params_.latency.value());
    const tlm::tlm_sync_enum s = tgt_socket[input]->nb_transport_bw(trans, up, back);
    tlm::tlm_sync_enum result = tlm::TLM_COMPLETED;
    if (s == tlm::TLM_ACCEPTED) {
        response_open_[&trans] = input;
        result = tlm::TLM_ACCEPTED;
    }
    forward();
    return result;
}

}  // namespace sim::tlm_util
