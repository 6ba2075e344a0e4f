// SPDX-License-Identifier: MIT
// What the Slurm client commands say about a job array, parsed (plain functions, unit-tested):
// the state of each array task from `sacct -n -P -X -o JobID,State` or, on clusters without
// accounting, from `scontrol -o show job`; and which end states are the node's fault, so that
// the task deserves one more try [slurm].
#pragma once

#include <cstddef>
#include <map>
#include <string>

namespace sim::sweep {

/// Array task id -> Slurm job state ("COMPLETED", "NODE_FAIL", ...) for the array job_id.
/// Lines of other jobs and job steps are ignored.
std::map<size_t, std::string> parse_sacct_states(const std::string& text,
                                                 const std::string& job_id);
std::map<size_t, std::string> parse_scontrol_states(const std::string& text,
                                                    const std::string& job_id);

/// Array task ids still queued or running in `squeue -h -r -o %i|%T` output, and how many of
/// those are running.
struct QueueCounts {
    size_t queued = 0;
    size_t running = 0;
};
QueueCounts parse_squeue(const std::string& text);

/// True for the end states that say the node, not the point, failed: NODE_FAIL, BOOT_FAIL,
/// PREEMPTED, REQUEUED, and an unknown state (the task left no trace).
bool node_reason(const std::string& state);

/// MaxArraySize from `scontrol show config` (1001 when absent, Slurm's default).
size_t parse_max_array_size(const std::string& text);

}  // namespace sim::sweep
