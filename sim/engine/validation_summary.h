// SPDX-License-Identifier: MIT
// The validation suite at a glance: per component, how many independent validations land within
// their tolerance, their median and worst error, the known gaps, and whether the consistency
// checks (datasheet peaks, fitted points) hold. `wallsim validate` prints it after its table and
// writes it at the head of validation.md. Pure C++.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/engine/validation_cases.h"

namespace sim {

/// One case's outcome, as the summary needs it.
struct CaseOutcome {
    std::string id;
    std::string component;
    CheckKind check = CheckKind::Validation;
    std::optional<double> error;  ///< (simulated - measured) / measured; nullopt: the run failed
    double tolerance = 0.1;
    bool known_gap = false;
};

struct ComponentSummary {
    std::string component;  ///< "all" for the row over every component
    size_t validations = 0;
    size_t within = 0;       ///< validations within their tolerance
    size_t known_gaps = 0;   ///< validations outside it with a recorded known gap
    size_t failed_runs = 0;  ///< cases of either kind whose run gave no figure
    /// Median and worst |error| of the validations that ran; 0 and "" when none did.
    double median_abs_error = 0;
    std::string worst_id;
    double worst_error = 0;  ///< signed
    size_t consistency = 0;
    size_t consistency_held = 0;
};

/// A validation with a datasheet peak (ValidationCase::peak), compared as an efficiency curve.
struct EfficiencyOutcome {
    std::string id;
    double peak = 0;       ///< the datasheet peak, in the case's unit
    double measured = 0;   ///< in the case's unit
    double simulated = 0;  ///< in the case's unit
    std::string unit;

    /// The simulated minus the measured share of the peak, in points (percent of the peak).
    double points() const { return 100 * (simulated - measured) / peak; }
};

/// Efficiency curves are compared in points of the peak: a GEMM measured at 60% of its peak
/// and simulated at 66% is 6 points off (10% relative). The suite's target for them.
constexpr double kEfficiencyPointsTarget = 10;

/// "### Efficiency (points of the datasheet peak)": each case's measured and simulated share of
/// its peak and the difference in points, with how many lie within kEfficiencyPointsTarget.
/// Empty when there are none.
std::string efficiency_markdown(const std::vector<EfficiencyOutcome>& rows);

/// One line for the terminal: how many lie within kEfficiencyPointsTarget, and the worst.
/// Empty when there are none.
std::string efficiency_text(const std::vector<EfficiencyOutcome>& rows);

/// One row per component, in the order the components first appear, then an "all" row.
std::vector<ComponentSummary> summarize_by_component(const std::vector<CaseOutcome>& cases);

/// The summary as a Markdown table, headed "### Per component".
std::string summary_markdown(const std::vector<ComponentSummary>& rows);

/// The summary as fixed-width text for the terminal.
std::string summary_text(const std::vector<ComponentSummary>& rows);

}  // namespace sim
