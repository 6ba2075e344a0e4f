// SPDX-License-Identifier: MIT
#include "sim/tlm/link_port.h"

#include <algorithm>
#include <cmath>

#include "sim/core/error.h"
#include "sim/tlm/route_extension.h"
#include "sim/tlm/sc_time_ps.h"

namespace sim::tlm_util {

LinkPort::LinkPort(sc_core::sc_module_name name,
                   const std::string& kind,
                   const std::string& summary,
                   LinkOwner& owner,
                   double bandwidth)
    : system::StructureModule(name, kind, summary), owner_(owner), bandwidth_(bandwidth) {
    SIM_ASSERT(bandwidth > 0, "a link port needs a bandwidth");
    tx.register_nb_transport_bw(this, &LinkPort::nb_transport_bw);
    rx.register_nb_transport_fw(this, &LinkPort::nb_transport_fw);
}

void LinkPort::connect(LinkPort& peer, TimePs latency) {
    SIM_ASSERT(!peer_ && !peer.peer_, "a link port is wired once");
    tx.bind(peer.rx);
    peer.tx.bind(rx);
    peer_ = &peer;
    peer.peer_ = this;
    latency_ = peer.latency_ = latency;
    bandwidth_ = peer.bandwidth_ = std::min(bandwidth_, peer.bandwidth_);
}

TimePs LinkPort::serialisation(double bytes) const {
    return TimePs{static_cast<uint64_t>(std::ceil(bytes * double(kPsPerSecond) / bandwidth_))};
}

TimePs LinkPort::send(tlm::tlm_generic_payload& trans, TimePs now) {
    return send(trans, now, now);
}

TimePs LinkPort::send(tlm::tlm_generic_payload& trans, TimePs now, TimePs head) {
    SIM_ASSERT(peer_, "a chunk sent on a link port that is not wired");
    SIM_ASSERT(head <= now, "a chunk's first byte comes before its last");
    const double bytes = double(trans.get_data_length());
    const TimePs start = std::max(head, free_at_);
    const TimePs serial = serialisation(bytes);
    free_at_ = std::max(start + serial, now);
    counters_.busy += serial;
    ++counters_.chunks;
    counters_.bytes += bytes;
    const TimePs arrival = free_at_ + latency_;
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    sc_core::sc_time delay = span(now, arrival);
    const tlm::tlm_sync_enum s = tx->nb_transport_fw(trans, phase, delay);
    if (s == tlm::TLM_COMPLETED || (s == tlm::TLM_UPDATED && phase == tlm::BEGIN_RESP)) {
        // The peer was the destination: the answer crosses the link back.
        owner_.answered(*this, trans, now + TimePs{delay.value()} + latency_);
    } else {
        SIM_ASSERT(s == tlm::TLM_UPDATED && phase == tlm::END_REQ,
                   "a link port's peer accepts every chunk at once");
    }
    return arrival;
}

void LinkPort::answer(tlm::tlm_generic_payload& trans, TimePs at) {
    const TimePs now = now_ps();
    tlm::tlm_phase phase = tlm::BEGIN_RESP;
    sc_core::sc_time delay = span(now, std::max(now, at));
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    const tlm::tlm_sync_enum s = rx->nb_transport_bw(trans, phase, delay);
    SIM_ASSERT(s == tlm::TLM_COMPLETED, "a link answer is taken at once");
}

tlm::tlm_sync_enum LinkPort::nb_transport_fw(tlm::tlm_generic_payload& trans,
                                             tlm::tlm_phase& phase,
                                             sc_core::sc_time& delay) {
    SIM_ASSERT(phase == tlm::BEGIN_REQ, "unexpected phase into a link port");
    const TimePs at = now_ps() + TimePs{delay.value()};
    const tlm::tlm_sync_enum s = owner_.arrived(*this, trans, at);
    if (s == tlm::TLM_COMPLETED) {
        trans.set_response_status(tlm::TLM_OK_RESPONSE);
        return s;
    }
    phase = tlm::END_REQ;
    return tlm::TLM_UPDATED;
}

tlm::tlm_sync_enum LinkPort::nb_transport_bw(tlm::tlm_generic_payload& trans,
                                             tlm::tlm_phase& phase,
                                             sc_core::sc_time& delay) {
    SIM_ASSERT(phase == tlm::BEGIN_RESP, "unexpected phase back into a link port");
    owner_.answered(*this, trans, now_ps() + TimePs{delay.value()} + latency_);
    return tlm::TLM_COMPLETED;
}

uint32_t destination_of(const tlm::tlm_generic_payload& trans) {
    const RouteExtension* e = trans.get_extension<RouteExtension>();
    SIM_ASSERT(e, "a chunk on a link without a destination");
    return e->destination();
}

void set_destination(tlm::tlm_generic_payload& trans, uint32_t destination) {
    if (RouteExtension* e = trans.get_extension<RouteExtension>())
        e->set_destination(destination);
    else
        trans.set_extension(new RouteExtension(destination));
}

}  // namespace sim::tlm_util
