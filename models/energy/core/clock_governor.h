// SPDX-License-Identifier: MIT
// The power limit of a GPU and the clock governor that enforces it, as NVIDIA's boost
// controller does: when an operator would draw more than the limit at the maximum clock, the
// SM (and Tensor Core) clock steps down until its average power fits. Dynamic energy of the
// clocked logic scales with V^2 and V rises with f along the chip's voltage-frequency curve
// (dynamic power = C V^2 f per cycle); HBM, link and static power do not follow the SM clock.
// What is abstracted away: temperature, leakage's dependence on V, the governor's time
// constant (each operator is governed on its own average power, as if it ran long enough),
// and per-domain clocks (SMs, L2 and Tensor Cores move together). Pure C++.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace sim::energy {

/// Supply voltage against clock: points (clock Hz, volts), strictly rising in clock, volts
/// non-decreasing. Linear between points, clamped outside them.
class VoltageCurve {
  public:
    VoltageCurve() = default;
    /// Throws std::invalid_argument naming the first bad point.
    explicit VoltageCurve(std::vector<std::pair<double, double>> points);

    double volts_at(double clock_hz) const;
    bool empty() const { return points_.empty(); }
    double lowest_clock_hz() const { return points_.empty() ? 0.0 : points_.front().first; }
    const std::vector<std::pair<double, double>>& points() const { return points_; }

  private:
    std::vector<std::pair<double, double>> points_;
};

struct GovernorParams {
    double power_limit_w = 0;  ///< board power limit (TDP), W; 0: no limit
    VoltageCurve curve;        ///< V-f curve of the SM clock domain
    double nominal_volts = 1;  ///< the voltage the on-chip energies are quoted at, V
    double clock_step_hz = 0;  ///< governed clocks are max - k x step; 0: continuous
};

/// What an operator costs at the maximum clock, split by how each part follows the clock.
struct ClockedLoad {
    double max_clock_hz = 0;    ///< the clock the operator runs at when not limited
    double seconds = 0;         ///< busy time at max_clock_hz
    double floor_seconds = 0;   ///< time that does not shrink with the clock (HBM, links)
    double on_chip_joules = 0;  ///< dynamic energy of clocked logic at nominal_volts
    double fixed_joules = 0;    ///< dynamic energy that does not follow the SM voltage (HBM)
    double static_w = 0;        ///< power drawn whatever the clock, W
};

struct GovernedLoad {
    double clock_hz = 0;        ///< the clock the operator ran at
    double seconds = 0;         ///< busy time at that clock
    double on_chip_joules = 0;  ///< at that clock's voltage
    double voltage_factor = 1;  ///< (V(clock) / nominal_volts)^2 applied to on-chip energy
    double power_w = 0;         ///< average power over the busy time, static included
    bool limited = false;       ///< the clock was lowered to fit the limit
    bool above_limit = false;   ///< even the lowest clock of the curve draws more
};

/// Busy time at clock ratio r = f / max: the SM side shrinks as 1/r, the floor does not.
double seconds_at(const ClockedLoad& load, double ratio);

/// The operator at clock f (no limit applied).
GovernedLoad at_clock(const GovernorParams& p, const ClockedLoad& load, double clock_hz);

/// The highest clock (in steps of clock_step_hz below max_clock_hz, down to the curve's lowest
/// point) at which the load's average power fits power_limit_w. Power rises monotonically
/// with the clock, so this is a bisection; deterministic for the same inputs.
GovernedLoad govern(const GovernorParams& p, const ClockedLoad& load);

}  // namespace sim::energy
