// SPDX-License-Identifier: MIT
// Compares two runs: run totals (simulated time, energy, MFU, achieved FLOP/s and bandwidth)
// and each operator's time and energy, matched by name (names are unique within a trace).
// An operator present in one run only counts as zero in the other.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/diff/run_output.h"

namespace sim::diff {

/// A figure in run A and in run B; either may be absent.
struct Pair {
    std::optional<double> a;
    std::optional<double> b;

    /// b - a, an absent side counting as zero; empty when both are absent.
    std::optional<double> delta() const;
    /// b / a; empty when either is absent or a is zero.
    std::optional<double> ratio() const;
};

/// One total of the run, read from stats.json.
struct TotalDelta {
    std::string label;      ///< "simulated time"
    std::string stat_path;  ///< "run.sim_time"
    std::string unit;       ///< "s", "J", "FLOP/s", "B/s", "ratio", "count"
    Pair value;
};

enum class Presence { Both, OnlyA, OnlyB };

/// "both", "only_a", "only_b".
const char* to_string(Presence p);

/// One operator of either run.
struct OpDelta {
    std::string name;
    std::string kind;  ///< from run A, or run B when A lacks the operator
    Presence presence = Presence::Both;
    Pair time_s;    ///< s
    Pair energy_j;  ///< J
};

/// Which change orders the operators, largest absolute change first.
enum class SortKey { Time, Energy };

struct RunDiff {
    std::vector<TotalDelta> totals;  ///< those present in at least one run, in a fixed order
    std::vector<OpDelta> ops;        ///< every operator of either run, sorted
    size_t only_a = 0;               ///< operators of run A that run B lacks
    size_t only_b = 0;               ///< and the other way round
};

RunDiff diff_runs(const RunOutput& a, const RunOutput& b, SortKey key);

}  // namespace sim::diff
