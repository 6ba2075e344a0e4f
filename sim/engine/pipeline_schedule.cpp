// SPDX-License-Identifier: MIT
#include "sim/engine/pipeline_schedule.h"

#include <algorithm>
#include <stdexcept>

#include "sim/core/error.h"

namespace sim {

namespace {

struct Pass {
    bool forward = true;
    size_t microbatch = 0;
};

// The order in which stage s of p runs its passes of m micro-batches.
std::vector<Pass> stage_order(size_t s, size_t p, size_t m) {
    const size_t warmup = std::min(p - s - 1, m);
    std::vector<Pass> order;
    order.reserve(2 * m);
    for (size_t i = 0; i < warmup; ++i)
        order.push_back({true, i});
    for (size_t i = warmup; i < m; ++i) {
        order.push_back({true, i});
        order.push_back({false, i - warmup});
    }
    for (size_t i = m - warmup; i < m; ++i)
        order.push_back({false, i});
    return order;
}

}  // namespace

TimePs StageTimes::busy() const {
    TimePs sum{0};
    for (TimePs t : forward)
        sum += t;
    for (TimePs t : backward)
        sum += t;
    return sum;
}

PipelineSchedule one_f_one_b(const std::vector<StageTimes>& stages) {
    if (stages.empty()) throw std::invalid_argument("a pipeline needs at least one stage");
    const size_t p = stages.size();
    const size_t m = stages.front().forward.size();
    if (m == 0) throw std::invalid_argument("a pipeline needs at least one micro-batch");
    for (const StageTimes& s : stages) {
        if (s.forward.size() != m || s.backward.size() != m)
            throw std::invalid_argument(
                "every stage needs a forward and a backward time per "
                "micro-batch");
    }
    // finish[s][i]: when stage s finished micro-batch i's forward (fwd) or backward (bwd);
    // unset until scheduled. Each stage runs its passes in its fixed order, each pass as soon
    // as the stage is free and the pass it depends on has finished; sweeping the stages until
    // none can advance schedules every pass, because 1F1B's dependencies are acyclic.
    constexpr uint64_t kUnset = UINT64_MAX;
    std::vector<std::vector<uint64_t>> fwd(p, std::vector<uint64_t>(m, kUnset));
    std::vector<std::vector<uint64_t>> bwd(p, std::vector<uint64_t>(m, kUnset));
    std::vector<std::vector<Pass>> order(p);
    for (size_t s = 0; s < p; ++s)
        order[s] = stage_order(s, p, m);
    std::vector<size_t> next(p, 0);
    std::vector<uint64_t> free_at(p, 0);
    size_t scheduled = 0;
    for (bool progress = true; progress;) {
        progress = false;
        for (size_t s = 0; s < p; ++s) {
            while (next[s] < order[s].size()) {
                const Pass pass = order[s][next[s]];
                const size_t i = pass.microbatch;
                uint64_t ready = 0;
                if (pass.forward) {
                    ready = s == 0 ? 0 : fwd[s - 1][i];
                } else {
                    ready = s + 1 == p ? fwd[s][i] : bwd[s + 1][i];
                }
                if (ready == kUnset) break;
                const uint64_t start = std::max(ready, free_at[s]);
                const TimePs length = pass.forward ? stages[s].forward[i] : stages[s].backward[i];
                free_at[s] = start + length.value();
                (pass.forward ? fwd : bwd)[s][i] = free_at[s];
                ++next[s];
                ++scheduled;
                progress = true;
            }
        }
    }
    SIM_ASSERT(scheduled == 2 * p * m, "the 1F1B schedule left passes unscheduled");
    PipelineSchedule result;
    for (size_t s = 0; s < p; ++s) {
        result.stage_finish.emplace_back(free_at[s]);
        result.stage_busy.push_back(stages[s].busy());
        result.makespan = std::max(result.makespan, TimePs{free_at[s]});
    }
    return result;
}

}  // namespace sim
