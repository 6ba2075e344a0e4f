// SPDX-License-Identifier: MIT
#include "sim/time/clock_domain.h"

#include <gtest/gtest.h>

namespace sim {
namespace {

TEST(ClockDomain, WholePicosecondPeriod) {
    const ClockDomain clk("mem", 1'000'000'000);  // 1 GHz = 1000 ps
    EXPECT_EQ(clk.to_ps(Cycle{3}), TimePs{3000});
    EXPECT_EQ(clk.cycle_at(TimePs{2999}), Cycle{2});
    EXPECT_EQ(clk.next_edge(TimePs{2001}), TimePs{3000});
    EXPECT_EQ(clk.next_edge(TimePs{3000}), TimePs{3000});
    EXPECT_EQ(clk.cycles_for(TimePs{2001}), Cycle{3});
}

TEST(ClockDomain, NoDriftWithoutAWholePicosecondPeriod) {
    // 1830 MHz has a period of 546.448... ps; summing a rounded 546 ps would lose 0.08%.
    const ClockDomain clk("tensor", 1'830'000'000);
    const Cycle billion{1'830'000'000};
    EXPECT_EQ(clk.to_ps(billion), TimePs{1'000'000'000'000ULL});  // exactly one second
    for (uint64_t c : {0ULL, 1ULL, 7ULL, 12345ULL, 987654321ULL}) {
        EXPECT_EQ(clk.cycle_at(clk.to_ps(Cycle{c})), Cycle{c}) << c;
    }
}

TEST(ClockDomain, RejectsZeroFrequency) {
    EXPECT_THROW(ClockDomain("bad", 0), std::invalid_argument);
}

}  // namespace
}  // namespace sim
