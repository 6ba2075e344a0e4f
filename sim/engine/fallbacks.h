// SPDX-License-Identifier: MIT
// Operators that ran at a lower fidelity than asked for, made loud: one warning line per
// reason with the count of ops, run.fidelity.* in stats.json, the ops.csv `fallback` column,
// and `wallsim run --strict` turning any of them into an error (exit 2) before anything runs.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "sim/core/error.h"
#include "sim/trace/op.h"

namespace spdlog {
class logger;
}

namespace sim {

class StatGroup;

/// Why one operator did not run at the fidelity asked for.
struct Fallback {
    std::string wanted;    ///< the fidelity asked for, or that of the model that declined
    std::string declined;  ///< the model that declined it ("" when none is registered)
    std::string used;      ///< the model that ran it instead
    std::string reason;    ///< the declining model's own words

    bool empty() const { return used.empty(); }
    /// One line for the ops.csv column: "<wanted>: <declined> declined: <reason>".
    std::string describe() const;
};

class FallbackLog {
  public:
    /// Records that op fell back; empty fallbacks are ignored.
    void add(const Op& op, const Fallback& f);
    uint64_t count() const { return count_; }
    /// One warning per distinct (kind, wanted, declined, used, reason) with its op count.
    void warn(spdlog::logger& log) const;
    /// The error of --strict: how many ops would fall back, and the first one's reason.
    ConfigError strict_error() const;
    /// run.fidelity.fallbacks.total and .<kind>.<declined model> (count, reason in the
    /// description).
    void publish(StatGroup& fidelity) const;

  private:
    using Key = std::tuple<std::string, std::string, std::string, std::string, std::string>;
    std::map<Key, uint64_t> by_reason_;
    uint64_t count_ = 0;
    SourceLocation first_at_;
    std::string first_;
};

}  // namespace sim
