// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace sim {
class Registry;
}

namespace sim::net {

/// Registers the gpu.net model (collectives of traces) and `wallsim net`.
void register_net(Registry& r);

int run_net_command(const Registry& registry, const std::vector<std::string>& args);

}  // namespace sim::net

namespace sim::system {
class KindRegistry;
}
namespace sim::net {
/// The nvswitch, ib_switch, nic and host module kinds (models/net/module_kinds.cpp).
void register_net_kinds(system::KindRegistry& kinds);
}  // namespace sim::net
