// SPDX-License-Identifier: MIT
// `wallsim validate`: runs the validation cases of configs/validation/*.yaml, each as its own
// wallsim process (a SystemC kernel runs once per process), reads the simulated figure from the
// case's output, and prints and writes a table: measured, simulated, error, tolerance, pass,
// with validations apart from consistency checks (figures that hold by construction).
#pragma once

#include <string>
#include <vector>

namespace sim {

/// argv0: the wallsim binary, run for every case. Returns 0 when every case ran (pass or not),
/// 1 when a case's command failed. Throws ConfigError for bad options or cases.
int run_validate_command(const std::string& argv0, const std::vector<std::string>& args);

}  // namespace sim
