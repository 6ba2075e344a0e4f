// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace sim {
class Registry;
}

namespace sim::hbm {

/// Registers the "hbm" component of GPU devices and the `wallsim hbm` command.
void register_hbm(Registry& r);
/// `wallsim hbm` (models/hbm/hbm_command.cpp).
int run_hbm_command(const Registry& registry, const std::vector<std::string>& args);

}  // namespace sim::hbm

namespace sim::system {
class KindRegistry;
}
namespace sim::hbm {
/// The `hbm` module kind (models/hbm/module_kinds.cpp).
void register_hbm_kinds(system::KindRegistry& kinds);
}  // namespace sim::hbm
