// SPDX-License-Identifier: MIT
// A block with link ports, as the system's router sees it (sim/system/fabric.h): its ports,
// whether it forwards chunks between them (a switch, a host's PCIe root, a NIC) or only sends
// and receives (a device), and the routes the router computed for it.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "sim/tlm/link_port.h"

namespace sim::tlm_util {

/// For each destination device (by link id), the ports of this block that start a shortest
/// path to it; an empty list: unreachable.
struct LinkRoutes {
    uint32_t self = 0;                              ///< this block's link id
    std::vector<std::vector<LinkPort*>> to;         ///< by destination link id
    std::unordered_map<std::string, uint32_t> ids;  ///< devices' link ids by instance name
};

class LinkNode {
  public:
    virtual ~LinkNode() = default;
    virtual const std::vector<LinkPort*>& link_ports() const = 0;
    virtual bool forwards() const = 0;
    virtual void set_routes(LinkRoutes routes) = 0;
};

}  // namespace sim::tlm_util
