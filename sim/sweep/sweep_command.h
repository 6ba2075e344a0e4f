// SPDX-License-Identifier: MIT
// `wallsim sweep EXPERIMENT.yaml`: expands an experiment into points, runs the ones whose
// output is not already there (locally with --jobs, or as a Slurm job array with --slurm),
// and writes results.csv. docs/sweeps.md is the user's guide.
#pragma once

#include <string>
#include <vector>

namespace sim::sweep {

/// Exit code when N points failed: kExitFailedPoints + min(N, kMaxCountedFailures). 0 when
/// every point succeeded; 2 (bad input) and 1 (internal error) keep their meaning.
constexpr int kExitFailedPoints = 10;
constexpr int kMaxCountedFailures = 100;

/// Runs the command; commands lists what an experiment's `command:` may name.
int sweep_command(const std::vector<std::string>& commands, const std::vector<std::string>& args);

}  // namespace sim::sweep
