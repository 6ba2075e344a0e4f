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
