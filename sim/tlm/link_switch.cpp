// SPDX-License-Identifier: MIT
#include "sim/tlm/link_switch.h"

#include "sim/core/error.h"
#include "sim/tlm/route_extension.h"
#include "sim/tlm/sc_time_ps.h"

namespace sim::tlm_util {

LinkSwitch::LinkSwitch(sc_core::sc_module_name name,
                       const std::string& kind,
                       const std::string& summary,
                       const std::vector<LinkSwitchPort>& ports,
                       const std::string& port_kind)
    : system::StructureModule(name, kind, summary) {
    for (const LinkSwitchPort& p : ports) {
        owned_.push_back(std::make_unique<LinkPort>(p.name.c_str(), port_kind, std::string(), *this,
                                                    p.bandwidth));
        ports_.push_back(owned_.back().get());
    }
    SC_METHOD(on_wakeup);
    sensitive << wake_;
    dont_initialize();
}

tlm::tlm_sync_enum LinkSwitch::arrived(LinkPort& port, tlm::tlm_generic_payload& trans, TimePs at) {
    // The first byte came in one serialisation over the incoming link before the last.
    const TimePs now = now_ps();
    const TimePs serial = port.serialisation(double(trans.get_data_length()));
    const TimePs head = at - std::min(at - now, serial);
    arrivals_.emplace(at, Arrival{&trans, &port, head});
    wake_.notify(sc_core::sc_time::from_value(at.value() - now.value()));
    return tlm::TLM_ACCEPTED;
}

void LinkSwitch::on_wakeup() {
    const TimePs now = now_ps();
    while (!arrivals_.empty() && arrivals_.begin()->first <= now) {
        const Arrival a = arrivals_.begin()->second;
        arrivals_.erase(arrivals_.begin());
        const uint32_t to = destination_of(*a.trans);
        SIM_ASSERT(to < routes_.to.size() && !routes_.to[to].empty(),
                   "a switch got a chunk for a device it has no route to");
        // The least busy port toward the destination (the first of equals: deterministic).
        LinkPort* out = nullptr;
        for (LinkPort* p : routes_.to[to]) {
            if (!out || p->free_at() < out->free_at()) out = p;
        }
        came_in_[a.trans] = a.in;
        ++forwarded_;
        bytes_ += double(a.trans->get_data_length());
        out->send(*a.trans, now, std::min(a.head, now));
    }
    if (!arrivals_.empty())
        next_trigger(sc_core::sc_time::from_value(arrivals_.begin()->first.value() - now.value()),
                     wake_);
}

void LinkSwitch::answered(LinkPort&, tlm::tlm_generic_payload& trans, TimePs at) {
    auto it = came_in_.find(&trans);
    SIM_ASSERT(it != came_in_.end(), "an answer to a chunk this switch never forwarded");
    LinkPort* in = it->second;
    came_in_.erase(it);
    in->answer(trans, at);
}

}  // namespace sim::tlm_util
