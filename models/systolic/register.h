// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace sim {
class Registry;
}

namespace sim::systolic {

/// Registers the "systolic" device, its array model and the `wallsim systolic` command.
void register_systolic(Registry& r);
/// `wallsim systolic` (models/systolic/systolic_command.cpp).
int run_systolic_command(const Registry& registry, const std::vector<std::string>& args);

}  // namespace sim::systolic

namespace sim::system {
class KindRegistry;
}
namespace sim::systolic {
/// The `systolic` module kind (models/systolic/module_kinds.cpp).
void register_systolic_kinds(system::KindRegistry& kinds);
}  // namespace sim::systolic
