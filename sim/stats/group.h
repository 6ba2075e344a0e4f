// SPDX-License-Identifier: MIT
// A node of the statistics hierarchy. A module's stats group names itself and hangs under its
// parent's group, so paths come from the hierarchy (run.ops.flops), never from stat names.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sim/stats/stat.h"

namespace sim {

class StatGroup {
  public:
    /// A root group (parent == nullptr) or a group registered under parent (not owned by it).
    StatGroup(StatGroup* parent, std::string name);
    virtual ~StatGroup();
    StatGroup(const StatGroup&) = delete;
    StatGroup& operator=(const StatGroup&) = delete;

    const std::string& name() const { return name_; }
    /// Dotted path from the root (the root's own name is not part of it).
    std::string path() const;

    Counter& add_counter(const std::string& name, const std::string& unit, const std::string& desc);
    Scalar& add_scalar(const std::string& name, const std::string& unit, const std::string& desc);
    Distribution& add_distribution(const std::string& name,
                                   const std::string& unit,
                                   const std::string& desc);
    Formula& add_formula(const std::string& name,
                         const std::string& unit,
                         const std::string& desc,
                         std::function<double()> f);
    /// A child group owned by this group.
    StatGroup& add_group(const std::string& name);

    /// Finds a direct child group by name, or nullptr.
    StatGroup* find_group(const std::string& name) const;
    /// Finds a stat by dotted path relative to this group, or nullptr.
    const Stat* find(const std::string& dotted_path) const;

    /// {"stat": {...}, "subgroup": {...}} in registration order.
    Json to_json() const;
    /// gem5-style "path value # description (unit)" lines.
    void to_text(std::string& out) const;
    /// Resets every stat below this group.
    void reset();

  private:
    void check_unique(const std::string& name) const;
    template <typename T, typename... Args>
    T& add_stat(Args&&... args);

    StatGroup* parent_;
    std::string name_;
    std::vector<std::unique_ptr<Stat>> stats_;
    std::vector<StatGroup*> children_;  // registration order, owned or not
    std::vector<std::unique_ptr<StatGroup>> owned_;
};

}  // namespace sim
