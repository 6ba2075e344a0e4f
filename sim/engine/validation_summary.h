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

/// One row per component, in the order the components first appear, then an "all" row.
std::vector<ComponentSummary> summarize_by_component(const std::vector<CaseOutcome>& cases);

/// The summary as a Markdown table, headed "### Per component".
std::string summary_markdown(const std::vector<ComponentSummary>& rows);

/// The summary as fixed-width text for the terminal.
std::string summary_text(const std::vector<ComponentSummary>& rows);

}  // namespace sim
