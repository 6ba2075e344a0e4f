// SPDX-License-Identifier: MIT
#include "sim/engine/fallbacks.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "sim/stats/group.h"

namespace sim {

namespace {
std::string leaf_name(std::string s) {
    std::replace(s.begin(), s.end(), '.', '_');
    return s.empty() ? "none" : s;
}
}  // namespace

std::string Fallback::describe() const {
    if (empty()) return {};
    return "no " + wanted + " model: " + (declined.empty() ? "none registered" : declined) +
           (reason.empty() ? "" : " declined: " + reason) + "; ran on " + used;
}

void FallbackLog::add(const Op& op, const Fallback& f) {
    if (f.empty()) return;
    if (count_ == 0) {
        first_at_ = op.where;
        first_ = "'" + op.name + "' (" + to_string(op.kind) + "): " + f.describe();
    }
    ++count_;
    ++by_reason_[{to_string(op.kind), f.wanted, f.declined, f.used, f.reason}];
}

void FallbackLog::warn(spdlog::logger& log) const {
    for (const auto& [key, ops] : by_reason_) {
        const auto& [kind, wanted, declined, used, reason] = key;
        log.warn(
            "{} '{}' op{} ran on {} instead of a {} model{}{} (ops.csv: fallback; --strict "
            "makes this an error)",
            ops, kind, ops == 1 ? "" : "s", used, wanted,
            declined.empty() ? ": none is registered for them" : ": " + declined + " declined",
            reason.empty() ? "" : " (" + reason + ")");
    }
}

ConfigError FallbackLog::strict_error() const {
    return ConfigError(
        first_at_, "",
        "--strict: " + std::to_string(count_) +
            " operator(s) would run below the fidelity asked for; the first: " + first_);
}

void FallbackLog::publish(StatGroup& fidelity) const {
    StatGroup& g = fidelity.add_group("fallbacks");
    g.add_counter("total", "count", "operators run below the fidelity asked for") += count_;
    std::map<std::string, std::pair<uint64_t, std::string>> by_kind_model;
    for (const auto& [key, ops] : by_reason_) {
        const auto& [kind, wanted, declined, used, reason] = key;
        auto& entry = by_kind_model[kind + "." + leaf_name(declined)];
        if (entry.first == 0) entry.second = reason.empty() ? "no " + wanted + " model" : reason;
        entry.first += ops;
    }
    for (const auto& [path, entry] : by_kind_model) {
        const size_t dot = path.find('.');
        StatGroup* kg = g.find_group(path.substr(0, dot));
        if (!kg) kg = &g.add_group(path.substr(0, dot));
        kg->add_counter(path.substr(dot + 1), "count",
                        "operators of this kind this model declined: " + entry.second) +=
            entry.first;
    }
}

}  // namespace sim
