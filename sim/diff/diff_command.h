// SPDX-License-Identifier: MIT
// `wallsim diff RUN_A RUN_B`: what changed between two `wallsim run` outputs, totals and
// operators side by side, largest change first. docs/sweeps.md ("Comparing two runs") is the
// user's guide.
#pragma once

#include <string>
#include <vector>

namespace sim::diff {

/// Runs the command; throws ConfigError (or a Boost.ProgramOptions error) on bad input.
int diff_command(const std::vector<std::string>& args);

}  // namespace sim::diff
