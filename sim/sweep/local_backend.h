// SPDX-License-Identifier: MIT
// Runs a sweep's points on this machine, at most `jobs` child processes at a time (--jobs).
#pragma once

#include <vector>

#include "sim/sweep/sweep_dir.h"
#include "sim/sweep/task.h"

namespace sim::sweep {

/// Runs every task as its own process, logging into dir and leaving a status file per task.
/// A failing or crashing task is recorded and the others go on.
void run_local(const std::vector<Task>& tasks, unsigned jobs, const SweepDir& dir, bool progress);

}  // namespace sim::sweep
