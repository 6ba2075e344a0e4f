// SPDX-License-Identifier: MIT
// The step time of a pipeline-parallel trace (its header's pipeline: map). The trace is one
// stage running its passes back to back, as a device with nothing to wait for would; the other
// stages are taken to be like it (uniform stages: in a transformer every stage has the same
// layers). Each pass's duration is measured from the simulation (the union of its operators'
// intervals); the 1F1B schedule of p such stages (pipeline_schedule.h) then says how long the
// stage waits for its neighbours: the pipeline bubble, added to the simulated time.
#pragma once

#include <optional>
#include <vector>

#include "sim/core/types.h"
#include "sim/registry/op_model.h"
#include "sim/trace/op.h"

namespace sim {

class StatGroup;

struct PipelineStep {
    TimePs busy{0};      ///< the stage's passes added up (what it simulated)
    TimePs makespan{0};  ///< the 1F1B schedule of p stages like it
    TimePs bubble{0};    ///< the stage's idle time within the makespan
    TimePs step{0};      ///< simulated time + bubble
    double bubble_share() const {
        return makespan.value()
                   ? static_cast<double>(bubble.value()) / static_cast<double>(makespan.value())
                   : 0.0;
    }
};

/// Nothing for a trace without pipeline: header. sim_end: when the simulated stage finished.
std::optional<PipelineStep> pipeline_step(const Trace& trace,
                                          const std::vector<OpResult>& results,
                                          TimePs sim_end);

/// run.pipeline.*: the layout, the stage's pass times, the bubble and the step time.
void publish_pipeline_step(StatGroup& run, const PipelineLayout& layout, const PipelineStep& s);

}  // namespace sim
