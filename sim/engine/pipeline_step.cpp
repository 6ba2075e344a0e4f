// SPDX-License-Identifier: MIT
#include "sim/engine/pipeline_step.h"

#include <algorithm>
#include <utility>

#include "sim/engine/pipeline_schedule.h"
#include "sim/stats/group.h"

namespace sim {

namespace {

// Total length of the union of [start, end) intervals.
TimePs union_length(std::vector<std::pair<uint64_t, uint64_t>> spans) {
    std::sort(spans.begin(), spans.end());
    uint64_t total = 0, covered_to = 0;
    for (const auto& [start, end] : spans) {
        const uint64_t from = std::max(start, covered_to);
        if (end > from) total += end - from;
        covered_to = std::max(covered_to, end);
    }
    return TimePs{total};
}

}  // namespace

std::optional<PipelineStep> pipeline_step(const Trace& trace,
                                          const std::vector<OpResult>& results,
                                          TimePs sim_end) {
    if (!trace.pipeline) return std::nullopt;
    const PipelineLayout& layout = *trace.pipeline;
    const size_t m = layout.microbatches;
    std::vector<std::vector<std::pair<uint64_t, uint64_t>>> forward(m), backward(m);
    for (size_t i = 0; i < results.size() && i < trace.ops.size(); ++i) {
        const Op& op = trace.ops[i];
        if (op.phase == PipelinePhase::None) continue;
        auto& spans = (op.phase == PipelinePhase::Forward ? forward : backward)[op.microbatch];
        spans.emplace_back(results[i].start.value(), results[i].end.value());
    }
    StageTimes stage;
    for (size_t i = 0; i < m; ++i) {
        stage.forward.push_back(union_length(forward[i]));
        stage.backward.push_back(union_length(backward[i]));
    }
    const PipelineSchedule schedule = one_f_one_b(std::vector<StageTimes>(layout.stages, stage));
    PipelineStep step;
    step.busy = stage.busy();
    step.makespan = schedule.makespan;
    step.bubble = schedule.idle(layout.stage);
    step.step = sim_end + step.bubble;
    return step;
}

void publish_pipeline_step(StatGroup& run, const PipelineLayout& layout, const PipelineStep& s) {
    StatGroup& g = run.add_group("pipeline");
    g.add_counter("stages", "count", "pipeline stages p (uniform: each like this one)") +=
        layout.stages;
    g.add_counter("microbatches", "count", "micro-batches m per step") += layout.microbatches;
    g.add_counter("stage", "index", "the stage this trace simulated") += layout.stage;
    g.add_scalar("busy", "s", "the stage's forward and backward passes, added up")
        .set(to_seconds(s.busy));
    g.add_scalar("makespan", "s", "the 1F1B schedule of p such stages, first pass to last")
        .set(to_seconds(s.makespan));
    g.add_scalar("bubble", "s", "the stage's idle time in the schedule, waiting for neighbours")
        .set(to_seconds(s.bubble));
    g.add_scalar("bubble_share", "ratio",
                 "bubble / makespan: (p - 1)/(m + p - 1) for uniform stages")
        .set(s.bubble_share());
    g.add_scalar("step_time", "s", "simulated time + bubble: one training step")
        .set(to_seconds(s.step));
}

}  // namespace sim
