// SPDX-License-Identifier: MIT
// Writes a RunDiff for people (aligned text tables) and for tools (CSV, every figure in SI
// base units at full precision).
#pragma once

#include <cstddef>
#include <string>

#include "sim/diff/run_diff.h"

namespace sim::diff {

/// "1.23 ms", "4.5 TFLOP/s", "40.1 %": value in its unit with an SI prefix (units "ratio" and
/// "count" are written as a percentage and a whole number).
std::string human(double value, const std::string& unit);

/// The header naming both runs, the totals table and the top operators (all when top is 0).
std::string format_text(
    const RunOutput& a, const RunOutput& b, const RunDiff& d, SortKey key, size_t top);

/// One row per figure: section (total or op), name, kind, status (both, only_a, only_b),
/// metric, unit, a, b, delta (b - a), ratio (b / a). Totals first, then every operator in the
/// diff's order, its time row before its energy row.
std::string format_csv(const RunDiff& d);

}  // namespace sim::diff
