// SPDX-License-Identifier: MIT
#include "sim/import/compare.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "sim/core/error.h"

namespace sim::import {
namespace {

const char* const kHeader = "index,name,kind,time_us,bound,measured_us,error\n";

TEST(Compare, SumsPerClassAndLeavesReplayedOpsOutOfTheTotal) {
    const std::string csv = std::string(kHeader) +
                            "0,a,gemm,12,compute,10,0.2\n"
                            "1,\"b,x\",gemm,27,compute,30,-0.1\n"
                            "2,c,elementwise,5,memory,4,0.25\n"
                            "3,d,custom,9,measured,7,0.28\n"
                            "4,e,gemm,3,compute,,\n";
    const Comparison c = compare_ops_csv(csv, "ops.csv");
    ASSERT_EQ(c.classes.size(), 3u);
    EXPECT_EQ(c.classes[1].op_class, "gemm");
    EXPECT_EQ(c.classes[1].ops, 2u);
    EXPECT_DOUBLE_EQ(c.classes[1].measured_us, 40);
    EXPECT_DOUBLE_EQ(c.classes[1].simulated_us, 39);
    EXPECT_DOUBLE_EQ(c.classes[1].mape, (0.2 + 0.1) / 2);
    EXPECT_EQ(c.classes[2].op_class, "custom (replayed)");
    EXPECT_EQ(c.total.ops, 3u);
    EXPECT_DOUBLE_EQ(c.total.measured_us, 44);
    EXPECT_DOUBLE_EQ(c.total.simulated_us, 44);
    EXPECT_DOUBLE_EQ(c.total.error(), 0);
    EXPECT_EQ(c.unmeasured, 1u);
    const std::string out = format_compare_csv(c);
    EXPECT_THAT(out, ::testing::StartsWith("class,ops,measured_us,simulated_us,error,mape\n"));
    EXPECT_THAT(out, ::testing::HasSubstr("\ntotal,3,44,44,0,"));
}

// A profiler times a kernel alone; ops.csv's time_us includes the device side of its launch,
// which the comparison takes off again.
TEST(Compare, TakesTheLaunchGapOffTheSimulatedTime) {
    const Comparison c = compare_ops_csv(
        "index,name,kind,time_us,bound,measured_us,error,launch_gap_us\n"
        "0,a,gemm,12,compute,10,0.2,2\n"
        "1,b,gemm,7.5,compute,5,0.1,2\n",
        "ops.csv");
    ASSERT_EQ(c.classes.size(), 1u);
    EXPECT_DOUBLE_EQ(c.classes[0].simulated_us, 15.5);
    EXPECT_DOUBLE_EQ(c.classes[0].mape, (0.0 + 0.1) / 2);
    EXPECT_THAT(
        [] {
            compare_ops_csv(
                "index,kind,time_us,bound,measured_us,launch_gap_us\n"
                "0,gemm,3,compute,1,soon\n",
                "o.csv");
        },
        ::testing::ThrowsMessage<ConfigError>(
            ::testing::HasSubstr("o.csv:2: launch_gap_us: expected a number, got 'soon'")));
}

TEST(Compare, RunsWithoutMeasurementsAreErrors) {
    EXPECT_THAT([] { compare_ops_csv(std::string(kHeader) + "0,a,gemm,1,compute,,\n", "o.csv"); },
                ::testing::ThrowsMessage<ConfigError>(::testing::HasSubstr("no operator has")));
    EXPECT_THAT([] { compare_ops_csv("index,name,kind\n", "o.csv"); },
                ::testing::ThrowsMessage<ConfigError>(::testing::HasSubstr("time_us")));
    EXPECT_THAT([] { compare_ops_csv(std::string(kHeader) + "0,a,gemm,x,compute,1,\n", "o.csv"); },
                ::testing::ThrowsMessage<ConfigError>(::testing::HasSubstr("o.csv:2: time_us")));
}

}  // namespace
}  // namespace sim::import
