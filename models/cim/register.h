// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace sim {
class Registry;
}

namespace sim::cim {

/// Registers the "cim" device, its "cim.crossbar" model and the `wallsim cim` command.
void register_cim(Registry& r);
/// `wallsim cim` (models/cim/cim_command.cpp).
int run_cim_command(const Registry& registry, const std::vector<std::string>& args);

}  // namespace sim::cim

namespace sim::system {
class KindRegistry;
}
namespace sim::cim {
/// The `cim` module kind (models/cim/module_kinds.cpp).
void register_cim_kinds(system::KindRegistry& kinds);
}  // namespace sim::cim
