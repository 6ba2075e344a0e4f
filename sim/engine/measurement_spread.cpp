// SPDX-License-Identifier: MIT
#include "sim/engine/measurement_spread.h"

#include <algorithm>
#include <cmath>

#include "sim/engine/figure_text.h"

namespace sim {

namespace {

std::string outside_text(const std::optional<double>& outside) {
    if (!outside) return "error";
    if (*outside == 0) return "inside";
    return formatted("%+.1f%%", 100 * *outside);
}

// The simulated figures of a group: one value, or a range when its cases ran different
// commands (other hardware presets) and gave different figures.
std::string simulated_text(const SpreadGroup& g) {
    double lo = INFINITY, hi = -INFINITY;
    for (const SpreadMember& m : g.members) {
        if (!m.simulated) continue;
        lo = std::min(lo, *m.simulated);
        hi = std::max(hi, *m.simulated);
    }
    if (lo > hi) return "error";
    if (hi <= lo * (1 + 1e-4)) return figure_text(lo) + " " + g.unit;
    return figure_text(lo) + " – " + figure_text(hi) + " " + g.unit;
}

size_t inside_count(const std::vector<SpreadGroup>& groups) {
    return static_cast<size_t>(std::count_if(groups.begin(), groups.end(), [](const auto& g) {
        const auto o = g.outside();
        return o && *o == 0;
    }));
}

}  // namespace

double SpreadGroup::lowest_measured() const {
    double lo = INFINITY;
    for (const SpreadMember& m : members)
        lo = std::min(lo, m.measured);
    return lo;
}

double SpreadGroup::highest_measured() const {
    double hi = 0;
    for (const SpreadMember& m : members)
        hi = std::max(hi, m.measured);
    return hi;
}

double SpreadGroup::spread() const {
    return highest_measured() / lowest_measured() - 1;
}

std::optional<double> SpreadGroup::outside() const {
    const double lo = lowest_measured(), hi = highest_measured();
    std::optional<double> furthest;
    for (const SpreadMember& m : members) {
        if (!m.simulated) continue;
        const double s = *m.simulated;
        const double off = s > hi ? s / hi - 1 : s < lo ? s / lo - 1 : 0;
        if (!furthest || std::fabs(off) > std::fabs(*furthest)) furthest = off;
    }
    return furthest;
}

std::vector<SpreadGroup> spread_groups(const std::vector<GroupedMember>& members) {
    std::vector<SpreadGroup> groups;
    for (const GroupedMember& m : members) {
        if (m.group.empty()) continue;
        auto it = std::find_if(groups.begin(), groups.end(),
                               [&](const SpreadGroup& g) { return g.name == m.group; });
        if (it == groups.end()) {
            groups.push_back({m.group, m.unit, {}});
            it = groups.end() - 1;
        }
        it->members.push_back(m.member);
    }
    groups.erase(std::remove_if(groups.begin(), groups.end(),
                                [](const SpreadGroup& g) { return g.members.size() < 2; }),
                 groups.end());
    return groups;
}

std::string spread_markdown(const std::vector<SpreadGroup>& groups) {
    if (groups.empty()) return "";
    std::string md =
        "### Measurement spread (one workload measured on several systems)\n\n" +
        std::to_string(inside_count(groups)) + " of " + std::to_string(groups.size()) +
        " workloads measured on more than one system simulate inside the range their "
        "measurements span. A simulated figure outside it is given as its distance from the "
        "nearer end of the range.\n\n"
        "| workload (group) | cases | measured | spread | simulated | outside the range by |\n"
        "|---|---|---|---|---|---|\n";
    for (const SpreadGroup& g : groups) {
        md += "| `" + g.name + "` | " + std::to_string(g.members.size()) + " | " +
              figure_text(g.lowest_measured()) + " – " + figure_text(g.highest_measured()) + " " +
              g.unit + " | " + formatted("%.1f%%", 100 * g.spread()) + " | " + simulated_text(g) +
              " | " + outside_text(g.outside()) + " |\n";
    }
    return md;
}

std::string spread_text(const std::vector<SpreadGroup>& groups) {
    if (groups.empty()) return "";
    const SpreadGroup* furthest = nullptr;
    double furthest_off = 0;
    for (const SpreadGroup& g : groups) {
        const auto o = g.outside();
        if (o && std::fabs(*o) > std::fabs(furthest_off)) {
            furthest = &g;
            furthest_off = *o;
        }
    }
    std::string text = "spread: " + std::to_string(inside_count(groups)) + " of " +
                       std::to_string(groups.size()) +
                       " workloads measured on several systems simulate inside their measured "
                       "range";
    if (furthest) text += " (furthest " + outside_text(furthest_off) + ", " + furthest->name + ")";
    return text + "\n";
}

}  // namespace sim
