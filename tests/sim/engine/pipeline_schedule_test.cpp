// SPDX-License-Identifier: MIT
// The 1F1B schedule against the analysis of Narayanan et al. 2021 (§2.2.1): with p uniform
// stages and m micro-batches the pipeline takes (m + p - 1)·(t_f + t_b), so each stage idles
// (p - 1)·(t_f + t_b), a share (p - 1)/(m + p - 1) of the step. The schedule is computed from
// dependencies, not from that formula, so these are checks of the mechanism.
#include "sim/engine/pipeline_schedule.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace sim {
namespace {

StageTimes uniform(size_t m, uint64_t forward_ps, uint64_t backward_ps) {
    StageTimes s;
    s.forward.assign(m, TimePs{forward_ps});
    s.backward.assign(m, TimePs{backward_ps});
    return s;
}

TEST(OneFOneB, UniformStagesIdleAsTheAnalysisSays) {
    for (size_t p : {1u, 2u, 4u, 8u}) {
        for (size_t m : {1u, 2u, 4u, 8u, 32u}) {
            const uint64_t f = 1000, b = 2000;
            const PipelineSchedule s = one_f_one_b(std::vector<StageTimes>(p, uniform(m, f, b)));
            EXPECT_EQ(s.makespan.value(), (m + p - 1) * (f + b)) << "p " << p << " m " << m;
            for (size_t stage = 0; stage < p; ++stage)
                EXPECT_EQ(s.idle(stage).value(), (p - 1) * (f + b));
            const double share =
                static_cast<double>(s.idle(0).value()) / static_cast<double>(s.makespan.value());
            EXPECT_DOUBLE_EQ(share, double(p - 1) / double(m + p - 1));
        }
    }
}

TEST(OneFOneB, StageZeroFinishesLast) {
    const PipelineSchedule s = one_f_one_b(std::vector<StageTimes>(4, uniform(8, 10, 20)));
    EXPECT_EQ(s.stage_finish.front(), s.makespan);
    for (size_t i = 1; i < 4; ++i)
        EXPECT_LT(s.stage_finish[i], s.stage_finish[i - 1]);
}

TEST(OneFOneB, TwoStagesOneMicrobatchRunInSeries) {
    // F on stage 0, F on stage 1, B on stage 1, B on stage 0: nothing overlaps.
    StageTimes a = uniform(1, 3, 5), b = uniform(1, 7, 11);
    const PipelineSchedule s = one_f_one_b({a, b});
    EXPECT_EQ(s.makespan.value(), 3u + 7u + 11u + 5u);
}

TEST(OneFOneB, ASlowStageSetsThePace) {
    // Stage 1 of 3 is twice as slow: in the steady state every stage waits for it, so the step
    // takes at least its m passes, plus stage 0's first forward before them and last backward
    // after them.
    const size_t m = 16;
    std::vector<StageTimes> stages(3, uniform(m, 100, 200));
    stages[1] = uniform(m, 200, 400);
    const PipelineSchedule s = one_f_one_b(stages);
    EXPECT_GE(s.makespan.value(), m * 600 + 100 + 200);
    EXPECT_LT(s.makespan.value(), m * 600 + 4 * 600);
    EXPECT_LT(s.idle(1), s.idle(0));
}

TEST(OneFOneB, MalformedInputsAreRejected) {
    EXPECT_THROW(one_f_one_b({}), std::invalid_argument);
    EXPECT_THROW(one_f_one_b({uniform(0, 1, 1)}), std::invalid_argument);
    EXPECT_THROW(one_f_one_b({uniform(2, 1, 1), uniform(3, 1, 1)}), std::invalid_argument);
}

}  // namespace
}  // namespace sim
