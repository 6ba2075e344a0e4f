// SPDX-License-Identifier: MIT
// One finished `wallsim run` read back from its output folder: stats.json (the stats tree and
// its meta block) and ops.csv (one row per operator). Anything missing or malformed is a
// ConfigError naming the file and what was expected.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace sim::diff {

/// One row of ops.csv, as far as a comparison needs it.
struct OpRow {
    std::string name;                ///< unique within a trace
    std::string kind;                ///< operator kind (gemm, elementwise, ...)
    double time_s = 0;               ///< the operator's duration, s
    std::optional<double> energy_j;  ///< its energy, J; empty when the run has none
};

struct RunOutput {
    std::string dir;         ///< the folder as the user named it
    nlohmann::json stats;    ///< stats.json, meta block included
    std::vector<OpRow> ops;  ///< in ops.csv order

    /// meta.<key> as text, or "" when absent.
    std::string meta(const std::string& key) const;
    /// The number at a dotted stats path (a stat's "value" is stepped into), or empty.
    std::optional<double> stat(const std::string& dotted_path) const;
};

/// Reads dir/stats.json and dir/ops.csv. Throws ConfigError when dir is not the output folder
/// of `wallsim run` or a file in it is malformed.
RunOutput load_run_output(const std::string& dir);

}  // namespace sim::diff
