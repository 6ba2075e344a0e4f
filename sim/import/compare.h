// SPDX-License-Identifier: MIT
// Measured against simulated: a run of an imported trace has, in ops.csv, each operator's
// simulated time_us beside the measured_us it was imported with. The comparison sums both per
// operator class and in total and reports the error of the sums and the mean absolute
// percentage error (MAPE) of the operators. Custom operators replaying their measured time
// (bound "measured") are listed apart and left out of the total: their agreement is by
// construction, not a prediction.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace sim::import {

struct CompareRow {
    std::string op_class;  ///< an op kind, "custom (replayed)" or "total"
    uint64_t ops = 0;
    double measured_us = 0;   ///< sum of measured times
    double simulated_us = 0;  ///< sum of simulated times
    double mape = 0;          ///< mean of |simulated - measured| / measured over the ops
    /// (simulated - measured) / measured of the sums.
    double error() const {
        return measured_us > 0 ? (simulated_us - measured_us) / measured_us : 0;
    }
};

struct Comparison {
    std::vector<CompareRow> classes;  ///< by class name; the replayed custom ops last
    CompareRow total;                 ///< every class but the replayed custom ops
    uint64_t unmeasured = 0;          ///< ops without measured_us
};

/// Compares the ops.csv text of a run (label names it in errors). Throws ConfigError when a
/// column is missing, a number malformed, or no operator has a measured time.
Comparison compare_ops_csv(const std::string& csv, const std::string& label);

/// compare.csv: class, ops, measured_us, simulated_us, error, mape; the total last.
std::string format_compare_csv(const Comparison& c);

/// The table `wallsim compare` prints.
std::string format_compare_table(const Comparison& c);

}  // namespace sim::import
