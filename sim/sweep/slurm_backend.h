// SPDX-License-Identifier: MIT
// Runs a sweep's points on a Slurm cluster (--slurm): one job array, one point per array task
// (sbatch --array=0-N%M), polled with squeue while it runs, its tasks' end states taken from
// sacct (or scontrol where the cluster keeps no accounting). A task that ended without running
// its point for a node reason (NODE_FAIL, BOOT_FAIL, PREEMPTED, no trace) is submitted once
// more. Each task leaves the same log and status files as a local run, so the results are
// gathered the same way [slurm]. The sweep directory and the wallsim binary must be visible at
// the same paths on the compute nodes (a shared file system), as for any Slurm job.
#pragma once

#include <string>
#include <vector>

#include "sim/sweep/sweep_dir.h"
#include "sim/sweep/task.h"

namespace sim::sweep {

struct SlurmOptions {
    std::string partition;     ///< --partition (empty: the cluster's default)
    std::string time_limit;    ///< --time per task, in sbatch's syntax (empty: the default)
    unsigned max_running = 0;  ///< --max-running: the %M of --array (0: no limit)
    double poll_s = 5;         ///< seconds between two squeue calls
};

/// The job script (the array range and throttle of the first submission in its #SBATCH
/// lines). task_dir holds <i>.args for each task i.
std::string job_script(const std::string& sweep_name,
                       const SweepDir& dir,
                       size_t tasks,
                       const SlurmOptions& options,
                       const std::string& working_dir);

/// The per-task files the job script reads: the point key, then one argument a line.
std::string task_file(const Task& task);

/// Submits the tasks and waits until every one has ended; writes a status file for tasks that
/// never ran their point. Throws ConfigError when sbatch or squeue keep failing.
void run_slurm(const std::vector<Task>& tasks,
               const std::string& sweep_name,
               const SlurmOptions& options,
               const SweepDir& dir,
               bool progress);

}  // namespace sim::sweep
