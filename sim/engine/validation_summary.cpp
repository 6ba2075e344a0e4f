// SPDX-License-Identifier: MIT
#include "sim/engine/validation_summary.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "sim/engine/figure_text.h"

namespace sim {

namespace {

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const size_t mid = v.size() / 2;
    return v.size() % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

// Adds one case to a row; `abs_errors` collects the row's validation errors for the median.
void add(ComponentSummary& row, std::vector<double>& abs_errors, const CaseOutcome& c) {
    if (!c.error) ++row.failed_runs;
    if (c.check == CheckKind::Consistency) {
        ++row.consistency;
        if (c.error && std::fabs(*c.error) <= c.tolerance) ++row.consistency_held;
        return;
    }
    ++row.validations;
    if (!c.error) return;
    const double e = std::fabs(*c.error);
    abs_errors.push_back(e);
    if (e <= c.tolerance)
        ++row.within;
    else if (c.known_gap)
        ++row.known_gaps;
    if (row.worst_id.empty() || e > std::fabs(row.worst_error)) {
        row.worst_id = c.id;
        row.worst_error = *c.error;
    }
}

std::string percent(double fraction, const char* fmt) {
    return formatted(fmt, 100 * fraction);
}

std::string within_text(const ComponentSummary& r) {
    return std::to_string(r.within) + " of " + std::to_string(r.validations);
}

std::string median_text(const ComponentSummary& r) {
    return r.worst_id.empty() ? "-" : percent(r.median_abs_error, "%.1f%%");
}

std::string worst_text(const ComponentSummary& r) {
    return r.worst_id.empty() ? "-" : percent(r.worst_error, "%+.1f%%");
}

std::string consistency_text(const ComponentSummary& r) {
    return r.consistency == 0
               ? "-"
               : std::to_string(r.consistency_held) + " of " + std::to_string(r.consistency);
}

size_t within_points_target(const std::vector<EfficiencyOutcome>& rows) {
    return static_cast<size_t>(std::count_if(rows.begin(), rows.end(), [](const auto& r) {
        return std::fabs(r.points()) <= kEfficiencyPointsTarget;
    }));
}

const EfficiencyOutcome& worst_in_points(const std::vector<EfficiencyOutcome>& rows) {
    return *std::max_element(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
        return std::fabs(a.points()) < std::fabs(b.points());
    });
}

std::string points_text(double points) {
    return formatted("%+.1f", points);
}

}  // namespace

std::string efficiency_markdown(const std::vector<EfficiencyOutcome>& rows) {
    if (rows.empty()) return "";
    const std::string target = std::to_string(static_cast<int>(kEfficiencyPointsTarget));
    std::string md = "### Efficiency (points of the datasheet peak)\n\n" +
                     std::to_string(within_points_target(rows)) + " of " +
                     std::to_string(rows.size()) +
                     " validations with a datasheet peak lie within " + target +
                     " points of it (simulated share of the peak minus the measured share).\n\n"
                     "| case | peak | measured | simulated | points |\n|---|---|---|---|---|\n";
    for (const EfficiencyOutcome& r : rows) {
        md += "| `" + r.id + "` | " + formatted("%g", r.peak) + " " + r.unit + " | " +
              percent(r.measured / r.peak, "%.1f%%") + " | " +
              percent(r.simulated / r.peak, "%.1f%%") + " | " + points_text(r.points()) + " |\n";
    }
    return md;
}

std::string efficiency_text(const std::vector<EfficiencyOutcome>& rows) {
    if (rows.empty()) return "";
    const EfficiencyOutcome& worst = worst_in_points(rows);
    return "efficiency: " + std::to_string(within_points_target(rows)) + " of " +
           std::to_string(rows.size()) + " within " +
           std::to_string(static_cast<int>(kEfficiencyPointsTarget)) +
           " points of their datasheet peak (worst " + points_text(worst.points()) + ", " +
           worst.id + ")\n";
}

std::vector<ComponentSummary> summarize_by_component(const std::vector<CaseOutcome>& cases) {
    std::vector<ComponentSummary> rows;
    std::vector<std::vector<double>> errors;
    ComponentSummary all;
    all.component = "all";
    std::vector<double> all_errors;
    for (const CaseOutcome& c : cases) {
        auto it = std::find_if(rows.begin(), rows.end(), [&](const ComponentSummary& r) {
            return r.component == c.component;
        });
        if (it == rows.end()) {
            rows.push_back({});
            rows.back().component = c.component;
            errors.emplace_back();
            it = rows.end() - 1;
        }
        const auto i = static_cast<size_t>(it - rows.begin());
        add(rows[i], errors[i], c);
        add(all, all_errors, c);
    }
    for (size_t i = 0; i < rows.size(); ++i)
        rows[i].median_abs_error = median(errors[i]);
    all.median_abs_error = median(all_errors);
    rows.push_back(all);
    return rows;
}

std::string summary_markdown(const std::vector<ComponentSummary>& rows) {
    std::string md =
        "### Per component\n\n"
        "| component | validations within tolerance | median \\|error\\| | worst | known gaps | "
        "consistency checks held |\n|---|---|---|---|---|---|\n";
    for (const ComponentSummary& r : rows) {
        const std::string name = &r == &rows.back() ? "**all**" : r.component;
        const std::string worst =
            r.worst_id.empty() ? "-" : worst_text(r) + " (`" + r.worst_id + "`)";
        md += "| " + name + " | " + within_text(r) + " | " + median_text(r) + " | " + worst +
              " | " + std::to_string(r.known_gaps) + " | " + consistency_text(r) + " |\n";
    }
    return md;
}

std::string summary_text(const std::vector<ComponentSummary>& rows) {
    char line[256];
    std::snprintf(line, sizeof line, "%-13s %12s %9s %8s  %-40s %5s %12s\n", "component",
                  "within tol.", "median", "worst", "(case)", "gaps", "consistency");
    std::string text = line;
    for (const ComponentSummary& r : rows) {
        std::snprintf(line, sizeof line, "%-13s %12s %9s %8s  %-40s %5zu %12s\n",
                      r.component.c_str(), within_text(r).c_str(), median_text(r).c_str(),
                      worst_text(r).c_str(), r.worst_id.c_str(), r.known_gaps,
                      consistency_text(r).c_str());
        text += line;
    }
    return text;
}

}  // namespace sim
