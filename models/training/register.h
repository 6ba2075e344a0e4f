// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace sim {
class Registry;
}

namespace sim::training {

/// Registers `wallsim memory`.
void register_training(Registry& r);

int run_memory_command(const Registry& registry, const std::vector<std::string>& args);

}  // namespace sim::training
