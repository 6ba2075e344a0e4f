// SPDX-License-Identifier: MIT
// A switch of a link fabric (an NVSwitch, an InfiniBand switch, a host's PCIe root complex, a
// NIC between PCIe and the network) as a TLM-2.0 module: its ports are child LinkPorts, and its
// one process forwards each chunk, in the order their last bytes arrive, to the least busy of
// the ports on a shortest path to the chunk's destination (sim/tlm/route_extension.h). It
// forwards cut-through: a chunk leaves as soon as its first byte is in and its out port is free,
// so a switch between two links of one speed adds no serialisation of its own. Answers go back
// through the port the chunk came in on.
#pragma once

#include <systemc>

#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "sim/system/structure.h"
#include "sim/tlm/link_node.h"

namespace sim::tlm_util {

struct LinkSwitchPort {
    std::string name;  ///< module name of the port, e.g. port_3
    double bandwidth;  ///< B/s per direction
};

class LinkSwitch final : public system::StructureModule, public LinkOwner, public LinkNode {
  public:
    SC_HAS_PROCESS(LinkSwitch);
    LinkSwitch(sc_core::sc_module_name name,
               const std::string& kind,
               const std::string& summary,
               const std::vector<LinkSwitchPort>& ports,
               const std::string& port_kind);

    const std::vector<LinkPort*>& link_ports() const override { return ports_; }
    bool forwards() const override { return true; }
    void set_routes(LinkRoutes routes) override { routes_ = std::move(routes); }

    uint64_t forwarded() const { return forwarded_; }
    double bytes_forwarded() const { return bytes_; }

  private:
    tlm::tlm_sync_enum arrived(LinkPort& port, tlm::tlm_generic_payload& trans, TimePs at) override;
    void answered(LinkPort& port, tlm::tlm_generic_payload& trans, TimePs at) override;
    void on_wakeup();

    struct Arrival {
        tlm::tlm_generic_payload* trans;
        LinkPort* in;
        TimePs head;  ///< when its first byte came in
    };
    std::vector<std::unique_ptr<LinkPort>> owned_;
    std::vector<LinkPort*> ports_;
    LinkRoutes routes_;
    std::multimap<TimePs, Arrival> arrivals_;  // by when the last byte is in
    std::unordered_map<tlm::tlm_generic_payload*, LinkPort*> came_in_;
    sc_core::sc_event wake_;
    uint64_t forwarded_ = 0;
    double bytes_ = 0;
};

}  // namespace sim::tlm_util
