// SPDX-License-Identifier: MIT
#include "models/hbm/hbm_target.h"

#include "models/hbm/request_check.h"
#include "sim/core/error.h"

namespace sim::hbm {

HbmTarget::HbmTarget(sc_core::sc_module_name name, const HbmParams& params)
    : sc_core::sc_module(name), clock_("hbm", params.core.clock_hz), system_(params.core) {
    tgt_socket.register_nb_transport_fw(this, &HbmTarget::nb_transport_fw);
    SC_METHOD(on_wakeup);
    sensitive << wake_event_;
    dont_initialize();
    SC_METHOD(on_response);
    sensitive << response_event_;
    dont_initialize();
}

uint64_t HbmTarget::now_cycle() const {
    return clock_.cycle_at(TimePs{sc_core::sc_time_stamp().value()}).value();
}

void HbmTarget::wake_at(uint64_t cycle) {
    const TimePs at = clock_.to_ps(Cycle{cycle});
    const TimePs now{sc_core::sc_time_stamp().value()};
    wake_event_.notify(sc_core::sc_time::from_value(at > now ? (at - now).value() : 0));
}

bool HbmTarget::try_accept(tlm::tlm_generic_payload& trans, uint64_t now) {
    if (idle_) {
        system_.skip_idle_refreshes(now);
        idle_ = false;
    }
    uint64_t id;
    if (free_ids_.empty()) {
        id = by_id_.size();
        by_id_.push_back(nullptr);
    } else {
        id = free_ids_.back();
        free_ids_.pop_back();
    }
    const bool write = trans.get_command() == tlm::TLM_WRITE_COMMAND;
    if (!system_.try_enqueue(id, trans.get_address(), write, trans.get_data_length(), now)) {
        free_ids_.push_back(id);
        return false;
    }
    by_id_[id] = &trans;
    wake_at(system_.next_event());
    return true;
}

tlm::tlm_sync_enum HbmTarget::nb_transport_fw(tlm::tlm_generic_payload& trans,
                                              tlm::tlm_phase& phase,
                                              sc_core::sc_time& delay) {
    if (phase == tlm::END_RESP) {
        response_in_progress_ = false;
        response_event_.notify(sc_core::SC_ZERO_TIME);
        return tlm::TLM_COMPLETED;
    }
    SIM_ASSERT(phase == tlm::BEGIN_REQ, "unexpected phase on the HBM target");
    SIM_ASSERT(blocked_ == nullptr,
               "BEGIN_REQ before END_REQ of the previous request (base protocol)");
    const tlm::tlm_response_status status = request_status(system_, trans);
    if (status != tlm::TLM_OK_RESPONSE) {
        trans.set_response_status(status);
        return tlm::TLM_COMPLETED;
    }
    (void)delay;  // requests are taken at the current cycle; an annotated delay is not modelled
    if (try_accept(trans, now_cycle())) {
        phase = tlm::END_REQ;
        return tlm::TLM_UPDATED;
    }
    blocked_ = &trans;  // END_REQ follows once its pseudo-channel has room
    return tlm::TLM_ACCEPTED;
}

void HbmTarget::on_wakeup() {
    const uint64_t now = now_cycle();
    done_.clear();
    system_.advance(now, done_);
    for (const Completion& c : done_) {
        tlm::tlm_generic_payload* trans = by_id_[c.id];
        by_id_[c.id] = nullptr;
        free_ids_.push_back(c.id);
        finished_.push({c.done, trans});
    }
    if (!done_.empty()) response_event_.notify(sc_core::SC_ZERO_TIME);
    if (blocked_ && try_accept(*blocked_, now)) {
        tlm::tlm_generic_payload* trans = blocked_;
        blocked_ = nullptr;
        tlm::tlm_phase phase = tlm::END_REQ;
        sc_core::sc_time zero = sc_core::SC_ZERO_TIME;
        tgt_socket->nb_transport_bw(*trans, phase, zero);
    }
    if (system_.queued() == 0 && blocked_ == nullptr) {
        idle_ = true;  // sleep until the next request; only refreshes would wake us
        return;
    }
    const uint64_t next = system_.next_event();
    if (next != kNever) wake_at(next > now ? next : now + 1);
}

void HbmTarget::on_response() {
    if (response_in_progress_ || finished_.empty()) return;
    const uint64_t now = now_cycle();
    const Pending p = finished_.top();
    if (p.done_cycle > now) {
        const TimePs at = clock_.to_ps(Cycle{p.done_cycle});
        response_event_.notify(
            sc_core::sc_time::from_value((at - TimePs{sc_core::sc_time_stamp().value()}).value()));
        return;
    }
    finished_.pop();
    p.trans->set_response_status(tlm::TLM_OK_RESPONSE);
    tlm::tlm_phase phase = tlm::BEGIN_RESP;
    sc_core::sc_time zero = sc_core::SC_ZERO_TIME;
    ++completed_;
    response_in_progress_ = true;
    const tlm::tlm_sync_enum status = tgt_socket->nb_transport_bw(*p.trans, phase, zero);
    if (status == tlm::TLM_COMPLETED || (status == tlm::TLM_UPDATED && phase == tlm::END_RESP)) {
        response_in_progress_ = false;
    }
    if (!response_in_progress_) response_event_.notify(sc_core::SC_ZERO_TIME);
}

}  // namespace sim::hbm
