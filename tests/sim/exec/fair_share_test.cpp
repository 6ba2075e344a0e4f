// SPDX-License-Identifier: MIT
#include "sim/exec/core/fair_share.h"

#include <gtest/gtest.h>

namespace sim::exec {
namespace {

TEST(FairShare, DemandsThatFitAreMetInFull) {
    const auto s = fair_shares({0.25, 0.5});
    EXPECT_DOUBLE_EQ(s[0], 0.25);
    EXPECT_DOUBLE_EQ(s[1], 0.5);
}

TEST(FairShare, TwoFullDemandsSplitEvenly) {
    const auto s = fair_shares({1.0, 1.0});
    EXPECT_DOUBLE_EQ(s[0], 0.5);
    EXPECT_DOUBLE_EQ(s[1], 0.5);
}

TEST(FairShare, WhatTheModestLeaveGoesToTheRest) {
    // A collective's 16 of 132 SMs beside a GEMM that wants them all: the collective gets its
    // 16, the GEMM the remaining 116.
    const double small = 16.0 / 132;
    const auto s = fair_shares({1.0, small});
    EXPECT_DOUBLE_EQ(s[1], small);
    EXPECT_NEAR(s[0], 1 - small, 1e-12);
}

TEST(FairShare, NeverMoreThanCapacityNorDemand) {
    const std::vector<double> d{0.1, 0.9, 0.7, 0.0, 0.3};
    const auto s = fair_shares(d, 1.0);
    double total = 0;
    for (size_t i = 0; i < d.size(); ++i) {
        EXPECT_LE(s[i], d[i] + 1e-12);
        total += s[i];
    }
    EXPECT_LE(total, 1.0 + 1e-12);
    EXPECT_NEAR(total, 1.0, 1e-12);  // demands exceed capacity: all of it is handed out
    EXPECT_DOUBLE_EQ(s[3], 0.0);
}

}  // namespace
}  // namespace sim::exec
