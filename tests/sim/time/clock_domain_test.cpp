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

// Short times take 64-bit arithmetic, long ones 128-bit: the results meet without a seam.
TEST(ClockDomain, ExactAcrossThe64BitShortcut) {
    const ClockDomain clk("sm", 1'755'000'000);
    __extension__ typedef unsigned __int128 u128;
    const uint64_t f = clk.frequency_hz();
    const uint64_t cycle_edge = (UINT64_MAX - (f - 1)) / kPsPerSecond;  // last 64-bit cycle
    for (uint64_t c = cycle_edge - 3; c <= cycle_edge + 3; ++c) {
        const u128 ps = (u128(c) * kPsPerSecond + f - 1) / f;
        EXPECT_EQ(clk.to_ps(Cycle{c}).value(), static_cast<uint64_t>(ps)) << c;
        EXPECT_EQ(clk.cycle_at(clk.to_ps(Cycle{c})), Cycle{c}) << c;
    }
    const uint64_t ps_edge = UINT64_MAX / f;  // last 64-bit time
    for (uint64_t t = ps_edge - 3; t <= ps_edge + 3; ++t) {
        EXPECT_EQ(clk.cycle_at(TimePs{t}).value(),
                  static_cast<uint64_t>(u128(t) * f / kPsPerSecond))
            << t;
    }
}

TEST(ClockDomain, RejectsZeroFrequency) {
    EXPECT_THROW(ClockDomain("bad", 0), std::invalid_argument);
}

}  // namespace
}  // namespace sim
