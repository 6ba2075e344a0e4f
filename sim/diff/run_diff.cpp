// SPDX-License-Identifier: MIT
#include "sim/diff/run_diff.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace sim::diff {

namespace {

struct TotalSpec {
    const char* label;
    const char* path;
    const char* unit;
};

// run.mfu is written only by runs that know the device's peak for their operators.
constexpr TotalSpec kTotals[] = {
    {"simulated time", "run.sim_time", "s"},
    {"energy", "run.energy.total", "J"},
    {"MFU", "run.mfu", "ratio"},
    {"achieved FLOP/s", "run.achieved_flops", "FLOP/s"},
    {"achieved bandwidth", "run.achieved_bandwidth", "B/s"},
    {"operators", "run.ops", "count"},
};

double magnitude(const Pair& p) {
    const std::optional<double> d = p.delta();
    return d ? std::fabs(*d) : -1.0;  // no figure sorts below a zero change
}

}  // namespace

std::optional<double> Pair::delta() const {
    if (!a && !b) return std::nullopt;
    return b.value_or(0.0) - a.value_or(0.0);
}

std::optional<double> Pair::ratio() const {
    if (!a || !b || *a == 0.0) return std::nullopt;
    return *b / *a;
}

const char* to_string(Presence p) {
    switch (p) {
        case Presence::Both: return "both";
        case Presence::OnlyA: return "only_a";
        case Presence::OnlyB: return "only_b";
    }
    return "both";
}

RunDiff diff_runs(const RunOutput& a, const RunOutput& b, SortKey key) {
    RunDiff d;
    for (const TotalSpec& t : kTotals) {
        TotalDelta total{t.label, t.path, t.unit, {a.stat(t.path), b.stat(t.path)}};
        if (total.value.a || total.value.b) d.totals.push_back(std::move(total));
    }

    std::unordered_map<std::string, size_t> in_b;
    for (size_t i = 0; i < b.ops.size(); ++i)
        in_b.emplace(b.ops[i].name, i);
    std::vector<bool> matched(b.ops.size(), false);
    for (const OpRow& op : a.ops) {
        OpDelta row{
            op.name, op.kind, Presence::OnlyA, {op.time_s, std::nullopt}, {op.energy_j, {}}};
        if (const auto it = in_b.find(op.name); it != in_b.end()) {
            const OpRow& other = b.ops[it->second];
            matched[it->second] = true;
            row.presence = Presence::Both;
            row.time_s.b = other.time_s;
            row.energy_j.b = other.energy_j;
        } else {
            ++d.only_a;
        }
        d.ops.push_back(std::move(row));
    }
    for (size_t i = 0; i < b.ops.size(); ++i) {
        if (matched[i]) continue;
        const OpRow& op = b.ops[i];
        d.ops.push_back({op.name,
                         op.kind,
                         Presence::OnlyB,
                         {std::nullopt, op.time_s},
                         {std::nullopt, op.energy_j}});
        ++d.only_b;
    }

    const auto first = [key](const OpDelta& o) {
        return magnitude(key == SortKey::Time ? o.time_s : o.energy_j);
    };
    const auto second = [key](const OpDelta& o) {
        return magnitude(key == SortKey::Time ? o.energy_j : o.time_s);
    };
    // Names break ties so the order never depends on the hash map.
    std::sort(d.ops.begin(), d.ops.end(), [&](const OpDelta& x, const OpDelta& y) {
        if (first(x) != first(y)) return first(x) > first(y);
        if (second(x) != second(y)) return second(x) > second(y);
        return x.name < y.name;
    });
    return d;
}

}  // namespace sim::diff
