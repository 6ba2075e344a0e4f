// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace sim {
class Registry;
}

namespace sim::economics {

/// Registers the `economics` component of GPU-like hardware files and `wallsim cost`.
void register_economics(Registry& r);

int run_cost_command(const Registry& registry, const std::vector<std::string>& args);

}  // namespace sim::economics
