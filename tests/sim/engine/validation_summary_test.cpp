// SPDX-License-Identifier: MIT
// The per-component summary of `wallsim validate`: counts, median and worst error of the
// validations, known gaps and failed runs apart, consistency checks counted on their own.
// Constructed outcomes.
#include "sim/engine/validation_summary.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace sim {
namespace {

using ::testing::HasSubstr;

CaseOutcome outcome(const std::string& id,
                    const std::string& component,
                    std::optional<double> error,
                    bool known_gap = false,
                    CheckKind check = CheckKind::Validation) {
    return {id, component, check, error, 0.1, known_gap};
}

TEST(ValidationSummary, CountsEachComponentAndAllOfThem) {
    const std::vector<CaseOutcome> cases = {
        outcome("gemm_a", "gpu", 0.02),
        outcome("net_a", "network", -0.05),
        outcome("gemm_b", "gpu", -0.30, true),
        outcome("gemm_c", "gpu", 0.08),
        outcome("peak", "gpu", 0.0, false, CheckKind::Consistency),
        outcome("fit", "network", 0.2, false, CheckKind::Consistency),
        outcome("broken", "network", std::nullopt),
    };
    const auto rows = summarize_by_component(cases);
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[0].component, "gpu") << "in the order the components first appear";
    EXPECT_EQ(rows[0].validations, 3u);
    EXPECT_EQ(rows[0].within, 2u);
    EXPECT_EQ(rows[0].known_gaps, 1u);
    EXPECT_DOUBLE_EQ(rows[0].median_abs_error, 0.08);
    EXPECT_EQ(rows[0].worst_id, "gemm_b");
    EXPECT_DOUBLE_EQ(rows[0].worst_error, -0.30) << "the worst error keeps its sign";
    EXPECT_EQ(rows[0].consistency, 1u);
    EXPECT_EQ(rows[0].consistency_held, 1u);

    EXPECT_EQ(rows[1].component, "network");
    EXPECT_EQ(rows[1].validations, 2u) << "a failed run still counts as a validation";
    EXPECT_EQ(rows[1].within, 1u);
    EXPECT_EQ(rows[1].failed_runs, 1u);
    EXPECT_DOUBLE_EQ(rows[1].median_abs_error, 0.05) << "over the runs that gave a figure";
    EXPECT_EQ(rows[1].consistency_held, 0u) << "a fitted point off by 20% does not hold";

    const ComponentSummary& all = rows[2];
    EXPECT_EQ(all.component, "all");
    EXPECT_EQ(all.validations, 5u);
    EXPECT_EQ(all.within, 3u);
    EXPECT_EQ(all.known_gaps, 1u);
    EXPECT_DOUBLE_EQ(all.median_abs_error, (0.05 + 0.08) / 2) << "even count: the middle two";
    EXPECT_EQ(all.worst_id, "gemm_b");
    EXPECT_EQ(all.consistency, 2u);
    EXPECT_EQ(all.consistency_held, 1u);
}

TEST(ValidationSummary, AComponentWithOnlyConsistencyChecksHasNoErrorFigures) {
    const auto rows =
        summarize_by_component({outcome("peak", "datasheet", 0.01, false, CheckKind::Consistency)});
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].validations, 0u);
    EXPECT_TRUE(rows[0].worst_id.empty());
    const std::string md = summary_markdown(rows);
    EXPECT_THAT(md, HasSubstr("| datasheet | 0 of 0 | - | - | 0 | 1 of 1 |"));
}

TEST(ValidationSummary, TheTablesNameTheWorstCase) {
    const auto rows = summarize_by_component(
        {outcome("gemm_a", "gpu", 0.02), outcome("gemm_b", "gpu", -0.30, true)});
    const std::string md = summary_markdown(rows);
    EXPECT_THAT(md, HasSubstr("### Per component"));
    EXPECT_THAT(md, HasSubstr("| gpu | 1 of 2 | 16.0% | -30.0% (`gemm_b`) | 1 | - |"));
    EXPECT_THAT(md, HasSubstr("| **all** | 1 of 2 |"));
    const std::string text = summary_text(rows);
    EXPECT_THAT(text, HasSubstr("gemm_b"));
    EXPECT_THAT(text, HasSubstr("-30.0%"));
}

TEST(ValidationSummary, EfficiencyCurvesAreComparedInPointsOfTheirPeak) {
    // 60% of the peak measured, 66% simulated: 10% relative, 6 points.
    const EfficiencyOutcome near{"gemm_near", 1000, 600, 660, "TFLOP/s"};
    EXPECT_DOUBLE_EQ(near.points(), 6.0);
    // 50% measured, 62% simulated: 24% relative, 12 points.
    const EfficiencyOutcome far{"gemm_far", 1000, 500, 620, "TFLOP/s"};
    const std::string md = efficiency_markdown({near, far});
    EXPECT_THAT(md, HasSubstr("### Efficiency (points of the datasheet peak)"));
    EXPECT_THAT(md, HasSubstr("1 of 2 validations with a datasheet peak lie within 10 points"));
    EXPECT_THAT(md, HasSubstr("| `gemm_near` | 1000 TFLOP/s | 60.0% | 66.0% | +6.0 |"));
    EXPECT_THAT(md, HasSubstr("| `gemm_far` | 1000 TFLOP/s | 50.0% | 62.0% | +12.0 |"));
    EXPECT_THAT(efficiency_text({near, far}), HasSubstr("1 of 2 within 10 points"));
    EXPECT_THAT(efficiency_text({near, far}), HasSubstr("worst +12.0, gemm_far"));
    EXPECT_EQ(efficiency_markdown({}), "") << "no section without cases that have a peak";
    EXPECT_EQ(efficiency_text({}), "");
}

}  // namespace
}  // namespace sim
