// SPDX-License-Identifier: MIT
// `wallsim import` (PyTorch profiler and Chakra traces -> an operator trace) and
// `wallsim compare` (a run's simulated times against the measured ones it imported).
#pragma once

namespace sim {
class Registry;
namespace import {

void register_import(Registry& registry);

}  // namespace import
}  // namespace sim
