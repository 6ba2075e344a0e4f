// SPDX-License-Identifier: MIT
// One workload measured on several systems (`group:` of a validation case): the measured
// range, its spread, and how far outside it the simulated figures lie. Constructed outcomes;
// every expected figure is worked by hand from them.
#include "sim/engine/measurement_spread.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace sim {
namespace {

using ::testing::HasSubstr;

GroupedMember member(const std::string& group,
                     const std::string& id,
                     double measured,
                     std::optional<double> simulated) {
    return {group, "GB/s", {id, measured, simulated}};
}

TEST(MeasurementSpread, TheRangeAndTheDistanceOfTheSimulatedFigureFromIt) {
    const auto groups = spread_groups({member("g", "a", 80, 110), member("g", "b", 100, 110)});
    ASSERT_EQ(groups.size(), 1u);
    const SpreadGroup& g = groups[0];
    EXPECT_DOUBLE_EQ(g.lowest_measured(), 80);
    EXPECT_DOUBLE_EQ(g.highest_measured(), 100);
    EXPECT_DOUBLE_EQ(g.spread(), 0.25);
    ASSERT_TRUE(g.outside());
    EXPECT_NEAR(*g.outside(), 0.10, 1e-12) << "110 lies 10% above the highest, 100";
}

TEST(MeasurementSpread, BelowTheLowestIsNegativeAndInsideIsZero) {
    const auto below = spread_groups({member("g", "a", 80, 60), member("g", "b", 100, 60)});
    EXPECT_NEAR(*below.at(0).outside(), -0.25, 1e-12) << "60 lies 25% below the lowest, 80";
    const auto inside = spread_groups({member("g", "a", 80, 90), member("g", "b", 100, 90)});
    EXPECT_EQ(*inside.at(0).outside(), 0);
}

TEST(MeasurementSpread, TheFurthestOfSeveralSimulatedFiguresCounts) {
    // Cases of one group may run different presets: 95 is inside, 130 is 30% above 100.
    const auto groups = spread_groups({member("g", "a", 80, 95), member("g", "b", 100, 130)});
    EXPECT_NEAR(*groups.at(0).outside(), 0.30, 1e-12);
}

TEST(MeasurementSpread, UngroupedCasesAndLoneMembersAreLeftOut) {
    // A filtered run may keep one case of a group: g here; h keeps two, its second after it.
    const auto groups = spread_groups({member("", "a", 80, 90), member("h", "c", 1, 1),
                                       member("g", "b", 100, 90), member("h", "d", 2, 1)});
    ASSERT_EQ(groups.size(), 1u);
    EXPECT_EQ(groups[0].name, "h");
    EXPECT_EQ(groups[0].members.size(), 2u);
}

TEST(MeasurementSpread, AGroupWhoseRunsFailedHasNoDistance) {
    const auto groups =
        spread_groups({member("g", "a", 80, std::nullopt), member("g", "b", 100, std::nullopt)});
    EXPECT_FALSE(groups.at(0).outside());
    EXPECT_THAT(spread_markdown(groups), HasSubstr("| error | error |"));
}

TEST(MeasurementSpread, TheTableAndTheLineSayHowManyLieInside) {
    const auto groups = spread_groups({member("near", "a", 80, 90), member("near", "b", 100, 90),
                                       member("far", "c", 80, 120), member("far", "d", 100, 120)});
    const std::string md = spread_markdown(groups);
    EXPECT_THAT(md, HasSubstr("### Measurement spread"));
    EXPECT_THAT(md, HasSubstr("1 of 2 workloads"));
    EXPECT_THAT(md, HasSubstr("| `near` | 2 | 80.00 – 100.0 GB/s | 25.0% | 90.00 GB/s | inside |"));
    EXPECT_THAT(md, HasSubstr("| `far` | 2 | 80.00 – 100.0 GB/s | 25.0% | 120.0 GB/s | +20.0% |"));
    EXPECT_EQ(spread_text(groups),
              "spread: 1 of 2 workloads measured on several systems simulate inside their "
              "measured range (furthest +20.0%, far)\n");
    EXPECT_EQ(spread_markdown({}), "");
    EXPECT_EQ(spread_text({}), "");
}

}  // namespace
}  // namespace sim
