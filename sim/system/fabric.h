// SPDX-License-Identifier: MIT
// The router of a system's link fabric: once every link is wired, it finds for each block with
// link ports (devices, switches, hosts, NICs) the ports that start a shortest path to each
// device, and hands each block its routes (sim/tlm/link_node.h). Devices do not forward: a path
// runs from a device through switches to a device (or back to itself, for traffic a switch
// reduces and returns). A device with several kinds of port toward a destination uses the kind
// it lists first (NVLink before PCIe), as NCCL prefers NVLink to a path through the host.
#pragma once

#include <string>
#include <vector>

#include "sim/tlm/link_node.h"

namespace sim::system {

struct FabricNode {
    std::string name;  ///< instance name
    tlm_util::LinkNode* node = nullptr;
};

/// Computes and installs the routes of every node; devices get link ids (their index here).
void route_fabric(const std::vector<FabricNode>& nodes);

}  // namespace sim::system
