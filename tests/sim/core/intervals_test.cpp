// SPDX-License-Identifier: MIT
#include "sim/core/intervals.h"

#include <gtest/gtest.h>

namespace sim {
namespace {

TEST(Intervals, MergeTotalAndOverlap) {
    const auto a = merge_intervals({{5, 7}, {0, 2}, {1, 3}, {3, 4}, {6, 6}});
    ASSERT_EQ(a.size(), 2u);  // [0,4) [5,7); the empty one is dropped
    EXPECT_EQ(a[0], Interval(0, 4));
    EXPECT_EQ(a[1], Interval(5, 7));
    EXPECT_DOUBLE_EQ(total_length(a), 6);
    const auto b = merge_intervals({{3, 6}, {10, 11}});
    EXPECT_DOUBLE_EQ(overlap_length(a, b), 1 + 1);  // [3,4) and [5,6)
    EXPECT_DOUBLE_EQ(overlap_length(a, {}), 0);
    EXPECT_DOUBLE_EQ(overlap_length(b, a), overlap_length(a, b));
}

}  // namespace
}  // namespace sim
