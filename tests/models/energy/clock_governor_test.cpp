// SPDX-License-Identifier: MIT
#include "models/energy/core/clock_governor.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

namespace sim::energy {
namespace {

GovernorParams params(double limit_w) {
    GovernorParams p;
    p.power_limit_w = limit_w;
    p.curve = VoltageCurve({{500e6, 0.7}, {1000e6, 0.7}, {2000e6, 1.0}});
    p.nominal_volts = 1.0;
    p.clock_step_hz = 15e6;
    return p;
}

// A compute-heavy load: 1 ms at 2 GHz, 0.9 J on chip, 10 mJ of HBM, 50 W static.
ClockedLoad busy_load() {
    ClockedLoad l;
    l.max_clock_hz = 2000e6;
    l.seconds = 1e-3;
    l.floor_seconds = 0.1e-3;
    l.on_chip_joules = 0.9;
    l.fixed_joules = 0.01;
    l.static_w = 50;
    return l;
}

TEST(VoltageCurve, InterpolatesAndClamps) {
    const VoltageCurve c({{500e6, 0.7}, {1000e6, 0.7}, {2000e6, 1.0}});
    EXPECT_DOUBLE_EQ(c.volts_at(100e6), 0.7);
    EXPECT_DOUBLE_EQ(c.volts_at(750e6), 0.7);
    EXPECT_DOUBLE_EQ(c.volts_at(1500e6), 0.85);
    EXPECT_DOUBLE_EQ(c.volts_at(3000e6), 1.0);
    EXPECT_THROW(VoltageCurve({{1e9, 0.9}, {0.5e9, 1.0}}), std::invalid_argument);
    EXPECT_THROW(VoltageCurve({{1e9, 0.9}, {2e9, 0.8}}), std::invalid_argument);
    EXPECT_THROW(VoltageCurve({{1e9, 0}}), std::invalid_argument);
}

TEST(ClockGovernor, BelowTheLimitTheOpKeepsTheMaximumClock) {
    const GovernedLoad g = govern(params(1000), busy_load());
    EXPECT_FALSE(g.limited);
    EXPECT_DOUBLE_EQ(g.clock_hz, 2000e6);
    EXPECT_DOUBLE_EQ(g.seconds, 1e-3);
    EXPECT_DOUBLE_EQ(g.power_w, 50 + 0.91 / 1e-3);
}

TEST(ClockGovernor, AboveTheLimitTheClockStepsDownUntilThePowerFits) {
    const GovernorParams p = params(700);
    const ClockedLoad load = busy_load();
    const GovernedLoad g = govern(p, load);
    ASSERT_TRUE(g.limited);
    EXPECT_FALSE(g.above_limit);
    EXPECT_LT(g.clock_hz, load.max_clock_hz);
    EXPECT_LE(g.power_w, 700);
    // The highest clock that fits: one step faster does not.
    EXPECT_GT(at_clock(p, load, g.clock_hz + p.clock_step_hz).power_w, 700);
    // On the step grid below the maximum.
    const double steps = (load.max_clock_hz - g.clock_hz) / p.clock_step_hz;
    EXPECT_DOUBLE_EQ(steps, std::round(steps));
    // Time stretches as 1/f; on-chip energy falls with V^2.
    EXPECT_DOUBLE_EQ(g.seconds, load.seconds * load.max_clock_hz / g.clock_hz);
    const double v = p.curve.volts_at(g.clock_hz);
    EXPECT_DOUBLE_EQ(g.on_chip_joules, load.on_chip_joules * v * v);
    EXPECT_LT(g.on_chip_joules, load.on_chip_joules);
}

TEST(ClockGovernor, AMemoryBoundOpNeedsNoLowerClock) {
    // The same energy over a long HBM-bound time draws little power.
    ClockedLoad load = busy_load();
    load.seconds = load.floor_seconds = 10e-3;
    const GovernedLoad g = govern(params(700), load);
    EXPECT_FALSE(g.limited);
    EXPECT_DOUBLE_EQ(g.clock_hz, load.max_clock_hz);
}

TEST(ClockGovernor, TheFloorDoesNotStretch) {
    ClockedLoad load = busy_load();
    load.floor_seconds = 1.5e-3;
    EXPECT_DOUBLE_EQ(seconds_at(load, 0.8), 1.5e-3);  // 1.25 ms < floor
    EXPECT_DOUBLE_EQ(seconds_at(load, 0.5), 2e-3);    // 2 ms > floor
}

TEST(ClockGovernor, ALimitBelowEvenTheLowestClockIsReported) {
    const GovernedLoad g = govern(params(60), busy_load());
    EXPECT_TRUE(g.limited);
    EXPECT_TRUE(g.above_limit);
    EXPECT_DOUBLE_EQ(g.clock_hz, 500e6);
    EXPECT_GT(g.power_w, 60);
}

TEST(ClockGovernor, NoLimitMeansNoGovernor) {
    const GovernedLoad g = govern(params(0), busy_load());
    EXPECT_FALSE(g.limited);
    EXPECT_DOUBLE_EQ(g.clock_hz, 2000e6);
}

TEST(ClockGovernor, PowerRisesWithTheClock) {
    const GovernorParams p = params(700);
    double last = 0;
    for (double hz = 500e6; hz <= 2000e6; hz += 100e6) {
        const double w = at_clock(p, busy_load(), hz).power_w;
        EXPECT_GT(w, last) << hz;
        last = w;
    }
}

}  // namespace
}  // namespace sim::energy
