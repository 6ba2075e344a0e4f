// SPDX-License-Identifier: MIT
#include "models/hbm/hbm_controller_target.h"

#include <stdexcept>
#include <string>

#include "models/hbm/direct_dram_extension.h"
#include "models/hbm/request_check.h"
#include "sim/core/error.h"
#include "sim/tlm/sc_time_ps.h"

namespace sim::hbm {

using tlm_util::now_ps;

HbmControllerTarget::HbmControllerTarget(sc_core::sc_module_name name, const HbmCoreConfig& config)
    : sc_core::sc_module(name),
      clock_("hbm", config.clock_hz),
      system_(config),
      held_(2 * system_.pseudo_channel_count()) {
    in.register_nb_transport_fw(this, &HbmControllerTarget::nb_transport_fw);
    in.register_transport_dbg(this, &HbmControllerTarget::transport_dbg);
    SC_METHOD(on_wakeup);
    sensitive << wake_event_;
    dont_initialize();
}

void HbmControllerTarget::end_of_elaboration() {
    if (static_cast<size_t>(in.size()) != ports()) {
        throw std::invalid_argument(std::string(name()) + ".in has " + std::to_string(in.size()) +
                                    " bindings; expected " + std::to_string(ports()) +
                                    " (a read and a write port per pseudo-channel)");
    }
}

uint64_t HbmControllerTarget::now_cycle() const {
    return clock_.cycle_at(now_ps()).value();
}

void HbmControllerTarget::wake_at(uint64_t cycle) {
    const TimePs at = clock_.to_ps(Cycle{cycle});
    const TimePs now = now_ps();
    wake_event_.notify(tlm_util::span(now, at > now ? at : now));
}

bool HbmControllerTarget::well_formed(int port, tlm::tlm_generic_payload& trans) const {
    tlm::tlm_response_status status = request_status(system_, trans);
    // It also comes through the port of its pseudo-channel and direction.
    if (status == tlm::TLM_OK_RESPONSE &&
        2 * system_.pseudo_channel_of(trans.get_address()) + (trans.is_write() ? 1 : 0) !=
            static_cast<size_t>(port))
        status = tlm::TLM_ADDRESS_ERROR_RESPONSE;
    if (status == tlm::TLM_OK_RESPONSE) return true;
    trans.set_response_status(status);
    return false;
}

bool HbmControllerTarget::try_send(int port, tlm::tlm_generic_payload& trans, uint64_t arrival) {
    uint64_t id;
    if (free_ids_.empty()) {
        id = by_id_.size();
        by_id_.emplace_back();
    } else {
        id = free_ids_.back();
        free_ids_.pop_back();
    }
    const AddressParts at = system_.mapping().decode(trans.get_address());
    const bool write = port % 2 == 1;
    if (!system_.try_send(static_cast<size_t>(port / 2),
                          system_.request_for(id, at, write, trans.get_data_length()), arrival)) {
        free_ids_.push_back(id);
        return false;
    }
    by_id_[id] = {&trans, port};
    wake_at(system_.next_event());
    return true;
}

tlm::tlm_sync_enum HbmControllerTarget::nb_transport_fw(int port,
                                                        tlm::tlm_generic_payload& trans,
                                                        tlm::tlm_phase& phase,
                                                        sc_core::sc_time& delay) {
    if (phase == tlm::END_RESP) return tlm::TLM_COMPLETED;
    SIM_ASSERT(phase == tlm::BEGIN_REQ, "unexpected phase on " << name());
    SIM_ASSERT(held_[port].trans == nullptr,
               name() << ": BEGIN_REQ on port " << port
                      << " before END_REQ of its previous request (base protocol)");
    if (!well_formed(port, trans)) return tlm::TLM_COMPLETED;
    // After idle time nobody woke the memory for its refreshes: they are booked now, as
    // HbmTarget does, and the wake-ups they left behind are passed.
    const uint64_t now = now_cycle();
    if (system_.next_event() < now) {
        system_.skip_idle_refreshes(now);
        done_.clear();
        system_.advance(now - 1, done_);
        SIM_ASSERT(done_.empty(), name() << " had requests in flight while nobody woke it");
    }
    const uint64_t arrival = clock_.cycle_at(now_ps() + TimePs{delay.value()}).value();
    if (try_send(port, trans, arrival)) {
        phase = tlm::END_REQ;
        delay = sc_core::SC_ZERO_TIME;
        return tlm::TLM_UPDATED;
    }
    held_[port] = {&trans, arrival};  // END_REQ follows once its queue has room
    return tlm::TLM_ACCEPTED;
}

unsigned int HbmControllerTarget::transport_dbg(int, tlm::tlm_generic_payload& trans) {
    if (auto* direct = trans.get_extension<DirectDramExtension>()) direct->system = &system_;
    return 0;
}

void HbmControllerTarget::on_wakeup() {
    const uint64_t now = now_cycle();
    for (uint64_t due = system_.next_event(); due <= now; due = system_.next_event()) {
        SIM_ASSERT(due == now, name() << " fell behind: DRAM event of cycle " << due
                                      << " handled at cycle " << now);
        done_.clear();
        touched_.clear();
        system_.advance(due, done_, &touched_);
        for (const Completion& c : done_)
            respond(c);
        for (size_t pc : touched_) {
            retry(static_cast<int>(2 * pc));
            retry(static_cast<int>(2 * pc + 1));
        }
    }
    const uint64_t next = system_.next_event();
    if (next != kNever) wake_at(next);
}

void HbmControllerTarget::respond(const Completion& c) {
    const InFlight f = by_id_[c.id];
    by_id_[c.id] = {};
    free_ids_.push_back(c.id);
    ++completed_;
    f.trans->set_response_status(tlm::TLM_OK_RESPONSE);
    tlm::tlm_phase phase = tlm::BEGIN_RESP;
    sc_core::sc_time delay = tlm_util::span(now_ps(), clock_.to_ps(Cycle{c.done}));
    const tlm::tlm_sync_enum status = in[f.port]->nb_transport_bw(*f.trans, phase, delay);
    SIM_ASSERT(
        status == tlm::TLM_COMPLETED || (status == tlm::TLM_UPDATED && phase == tlm::END_RESP),
        name() << ": an initiator must complete BEGIN_RESP at once");
}

void HbmControllerTarget::retry(int port) {
    Held& held = held_[port];
    if (!held.trans || !try_send(port, *held.trans, held.arrival)) return;
    tlm::tlm_generic_payload* trans = held.trans;
    held = {};
    tlm::tlm_phase phase = tlm::END_REQ;
    sc_core::sc_time zero = sc_core::SC_ZERO_TIME;
    in[port]->nb_transport_bw(*trans, phase, zero);  // the initiator may send its next now
}

}  // namespace sim::hbm
