// SPDX-License-Identifier: MIT
// The 1F1B pipeline schedule (Narayanan et al. 2021, "Efficient Large-Scale Language Model
// Training on GPU Clusters Using Megatron-LM", §2.2.1; PipeDream-Flush): p stages, m
// micro-batches. Stage s runs p - s - 1 forward passes to fill the pipeline, then alternates one
// forward and one backward pass, then drains the remaining backward passes. A forward pass waits
// for the same micro-batch's forward on the stage before; a backward pass for its backward on
// the stage after (the last stage: for its own forward). The step ends when every stage has
// finished (stage 0 drains last). Computed as a dependency-driven list schedule over the given
// pass durations, not from a closed formula: with uniform stages it gives the idle time
// (p - 1)·(t_f + t_b), a share (p - 1)/(m + p - 1) of the step (Narayanan §2.2.1), and with
// uneven stages whatever their dependencies give.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/core/types.h"

namespace sim {

/// The durations of one stage's passes, per micro-batch (both vectors of length m).
struct StageTimes {
    std::vector<TimePs> forward;
    std::vector<TimePs> backward;
    TimePs busy() const;  ///< the sum of all its passes
};

struct PipelineSchedule {
    TimePs makespan{0};                ///< first forward starts → last backward ends
    std::vector<TimePs> stage_finish;  ///< when each stage's last pass ends
    std::vector<TimePs> stage_busy;    ///< each stage's passes added up
    /// Time stage s spends waiting within the makespan.
    TimePs idle(size_t stage) const { return makespan - stage_busy.at(stage); }
};

/// The 1F1B schedule of stages.size() stages. Throws std::invalid_argument when stages is
/// empty or their micro-batch counts differ or are zero.
PipelineSchedule one_f_one_b(const std::vector<StageTimes>& stages);

}  // namespace sim
