// SPDX-License-Identifier: MIT
#include "models/energy/core/clock_governor.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace sim::energy {

VoltageCurve::VoltageCurve(std::vector<std::pair<double, double>> points)
    : points_(std::move(points)) {
    for (size_t i = 0; i < points_.size(); ++i) {
        const auto& [hz, volts] = points_[i];
        const std::string at = "point " + std::to_string(i + 1);
        if (!(hz > 0)) throw std::invalid_argument(at + ": the clock must be greater than 0");
        if (!(volts > 0)) throw std::invalid_argument(at + ": volts must be greater than 0");
        if (i > 0 && !(hz > points_[i - 1].first))
            throw std::invalid_argument(at + ": clocks must rise from point to point");
        if (i > 0 && volts < points_[i - 1].second)
            throw std::invalid_argument(at + ": volts must not fall as the clock rises");
    }
}

double VoltageCurve::volts_at(double clock_hz) const {
    if (points_.empty()) return 1.0;
    if (clock_hz <= points_.front().first) return points_.front().second;
    if (clock_hz >= points_.back().first) return points_.back().second;
    const auto hi = std::upper_bound(
        points_.begin(), points_.end(), clock_hz,
        [](double hz, const std::pair<double, double>& p) { return hz < p.first; });
    const auto lo = hi - 1;
    const double t = (clock_hz - lo->first) / (hi->first - lo->first);
    return lo->second + t * (hi->second - lo->second);
}

double seconds_at(const ClockedLoad& load, double ratio) {
    return std::max(load.seconds / ratio, load.floor_seconds);
}

GovernedLoad at_clock(const GovernorParams& p, const ClockedLoad& load, double clock_hz) {
    GovernedLoad g;
    g.clock_hz = clock_hz;
    const double ratio = load.max_clock_hz > 0 ? clock_hz / load.max_clock_hz : 1.0;
    g.seconds = seconds_at(load, ratio);
    const double v = p.curve.empty() ? p.nominal_volts : p.curve.volts_at(clock_hz);
    g.voltage_factor = (v / p.nominal_volts) * (v / p.nominal_volts);
    g.on_chip_joules = load.on_chip_joules * g.voltage_factor;
    g.power_w =
        load.static_w + (g.seconds > 0 ? (g.on_chip_joules + load.fixed_joules) / g.seconds : 0.0);
    return g;
}

GovernedLoad govern(const GovernorParams& p, const ClockedLoad& load) {
    const double max_hz = load.max_clock_hz;
    GovernedLoad best = at_clock(p, load, max_hz);
    if (!(p.power_limit_w > 0) || best.power_w <= p.power_limit_w || !(load.seconds > 0))
        return best;
    // The lowest clock the chip may run at: the curve's first point, else a tenth of max.
    const double lowest =
        std::min(max_hz, p.curve.empty() ? max_hz / 10 : p.curve.lowest_clock_hz());
    const auto fits = [&](double hz) { return at_clock(p, load, hz).power_w <= p.power_limit_w; };
    double chosen = lowest;
    if (!fits(lowest)) {
        GovernedLoad g = at_clock(p, load, lowest);
        g.limited = true;
        g.above_limit = true;
        return g;
    }
    if (p.clock_step_hz > 0) {
        // Clocks max - k step for k in [0, steps]; the smallest k that fits (k = 0 does not).
        const auto steps = static_cast<int64_t>(std::floor((max_hz - lowest) / p.clock_step_hz));
        int64_t too_fast = 0, fast_enough = steps;
        if (!fits(max_hz - double(steps) * p.clock_step_hz)) {
            chosen = lowest;  // between the last step and the floor: the floor
        } else {
            while (fast_enough - too_fast > 1) {
                const int64_t mid = too_fast + (fast_enough - too_fast) / 2;
                if (fits(max_hz - double(mid) * p.clock_step_hz))
                    fast_enough = mid;
                else
                    too_fast = mid;
            }
            chosen = max_hz - double(fast_enough) * p.clock_step_hz;
        }
    } else {
        double hi = max_hz, lo = lowest;  // hi does not fit, lo does
        for (int i = 0; i < 60; ++i) {
            const double mid = 0.5 * (lo + hi);
            (fits(mid) ? lo : hi) = mid;
        }
        chosen = lo;
    }
    GovernedLoad g = at_clock(p, load, chosen);
    g.limited = true;
    return g;
}

}  // namespace sim::energy
