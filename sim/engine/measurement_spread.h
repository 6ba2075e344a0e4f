// SPDX-License-Identifier: MIT
// One workload measured on several systems: the published figures spread, and a simulated
// figure is judged against that spread as well as against each figure alone. `wallsim
// validate` gathers the cases that share a `group:` (configs/validation/README.md) and reports,
// per group, the measured range and how far outside it the simulated figures lie. Pure C++.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace sim {

/// One case of a group: its published figure and what the model gave (nullopt: the run failed).
struct SpreadMember {
    std::string id;
    double measured = 0;
    std::optional<double> simulated;
};

/// The cases that measured one workload on comparable systems, in one unit.
struct SpreadGroup {
    std::string name;
    std::string unit;
    std::vector<SpreadMember> members;

    double lowest_measured() const;
    double highest_measured() const;
    /// How far the measurements spread: highest / lowest - 1.
    double spread() const;
    /// The simulated figure furthest outside the measured range, as a fraction of the bound it
    /// passes (+0.18: 18% above the highest measurement; -0.05: 5% below the lowest); 0 when
    /// every simulated figure lies inside; nullopt when no member was simulated.
    std::optional<double> outside() const;
};

/// A case's outcome with its group (empty: none) and unit.
struct GroupedMember {
    std::string group;
    std::string unit;
    SpreadMember member;
};

/// Gathers the members by group, in the order the groups first appear; members without a group
/// are left out, and so are groups with fewer than two members (a filtered run).
std::vector<SpreadGroup> spread_groups(const std::vector<GroupedMember>& members);

/// "### Measurement spread": per group, the measured range, its spread and where the simulated
/// figures lie. Empty when there are no groups.
std::string spread_markdown(const std::vector<SpreadGroup>& groups);

/// One line for the terminal: how many groups simulate inside their measured range, and the
/// furthest outside. Empty when there are no groups.
std::string spread_text(const std::vector<SpreadGroup>& groups);

}  // namespace sim
