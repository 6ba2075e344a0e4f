// SPDX-License-Identifier: MIT
// The entry points of `wallsim import` and `wallsim compare` (registered by register.cpp).
#pragma once

#include <string>
#include <vector>

namespace sim {
class Registry;
namespace import {

/// wallsim import pytorch|chakra ...; throws ConfigError on bad input.
int run_import_command(const Registry& registry, const std::vector<std::string>& args);
/// wallsim compare RUN [--csv FILE]; throws ConfigError on bad input.
int run_compare_command(const Registry& registry, const std::vector<std::string>& args);

}  // namespace import
}  // namespace sim
