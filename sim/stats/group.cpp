// SPDX-License-Identifier: MIT
#include "sim/stats/group.h"

#include <algorithm>

#include "sim/core/error.h"

namespace sim {

StatGroup::StatGroup(StatGroup* parent, std::string name)
    : parent_(parent), name_(std::move(name)) {
    if (parent_) {
        parent_->check_unique(name_);
        parent_->children_.push_back(this);
    }
}

StatGroup::~StatGroup() {
    if (parent_) {
        auto& siblings = parent_->children_;
        siblings.erase(std::remove(siblings.begin(), siblings.end(), this), siblings.end());
    }
}

std::string StatGroup::path() const {
    if (!parent_) return "";
    const std::string p = parent_->path();
    return p.empty() ? name_ : p + "." + name_;
}

void StatGroup::check_unique(const std::string& name) const {
    SIM_ASSERT(!name.empty(), "empty stat or group name under '" << path() << "'");
    for (const auto& s : stats_) {
        SIM_ASSERT(s->name() != name, "duplicate stat '" << name << "' under '" << path() << "'");
    }
    for (const StatGroup* g : children_) {
        SIM_ASSERT(g->name() != name, "duplicate group '" << name << "' under '" << path() << "'");
    }
}

template <typename T, typename... Args>
T& StatGroup::add_stat(Args&&... args) {
    auto stat = std::make_unique<T>(std::forward<Args>(args)...);
    check_unique(stat->name());
    T& ref = *stat;
    stats_.push_back(std::move(stat));
    return ref;
}

Counter& StatGroup::add_counter(const std::string& name,
                                const std::string& unit,
                                const std::string& desc) {
    return add_stat<Counter>(name, unit, desc);
}

Scalar& StatGroup::add_scalar(const std::string& name,
                              const std::string& unit,
                              const std::string& desc) {
    return add_stat<Scalar>(name, unit, desc);
}

Distribution& StatGroup::add_distribution(const std::string& name,
                                          const std::string& unit,
                                          const std::string& desc) {
    return add_stat<Distribution>(name, unit, desc);
}

Formula& StatGroup::add_formula(const std::string& name,
                                const std::string& unit,
                                const std::string& desc,
                                std::function<double()> f) {
    return add_stat<Formula>(name, unit, desc, std::move(f));
}

StatGroup& StatGroup::add_group(const std::string& name) {
    owned_.push_back(std::make_unique<StatGroup>(this, name));
    return *owned_.back();
}

StatGroup* StatGroup::find_group(const std::string& name) const {
    for (StatGroup* g : children_) {
        if (g->name() == name) return g;
    }
    return nullptr;
}

const Stat* StatGroup::find(const std::string& dotted_path) const {
    const size_t dot = dotted_path.find('.');
    if (dot == std::string::npos) {
        for (const auto& s : stats_) {
            if (s->name() == dotted_path) return s.get();
        }
        return nullptr;
    }
    const StatGroup* g = find_group(dotted_path.substr(0, dot));
    return g ? g->find(dotted_path.substr(dot + 1)) : nullptr;
}

Json StatGroup::to_json() const {
    Json j = Json::object();
    for (const auto& s : stats_)
        j[s->name()] = s->to_json();
    for (const StatGroup* g : children_)
        j[g->name()] = g->to_json();
    return j;
}

void StatGroup::to_text(std::string& out) const {
    const std::string base = path();
    for (const auto& s : stats_) {
        out += (base.empty() ? s->name() : base + "." + s->name()) + " " + s->to_text() + " # " +
               s->description() + " (" + s->unit() + ")\n";
    }
    for (const StatGroup* g : children_)
        g->to_text(out);
}

void StatGroup::reset() {
    for (auto& s : stats_)
        s->reset();
    for (StatGroup* g : children_)
        g->reset();
}

}  // namespace sim
