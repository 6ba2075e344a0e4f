// SPDX-License-Identifier: MIT
#include "sim/engine/validation_cases.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "sim/config/loader.h"

namespace sim {

namespace {

constexpr const char* kNameCharacters = "abcdefghijklmnopqrstuvwxyz0123456789_";

bool valid_name(const std::string& s) {
    return !s.empty() && s.find_first_not_of(kNameCharacters) == std::string::npos;
}

ValidationCase read_case(const ConfigNode& n, const std::string& file) {
    ValidationCase c;
    c.file = file;
    n.require("id", c.id);
    if (!valid_name(c.id))
        n.fail("id", "'" + c.id + "': expected lower-case letters, digits and _");
    n.require("component", c.component);
    std::string check = "validation";
    n.get_choice("check", check, {"validation", "consistency"});
    c.check = check == "validation" ? CheckKind::Validation : CheckKind::Consistency;
    n.require("hardware", c.hardware);
    n.require("workload", c.workload);
    n.require("command", c.command);
    if (c.command.empty()) n.fail("command", "expected the wallsim arguments, e.g. [net, ...]");
    if (std::find(c.command.begin(), c.command.end(), "{out}") == c.command.end())
        n.fail("command", "must write its results to {out} (e.g. --out, \"{out}\")");
    const ConfigNode m = n.child("metric");
    m.require("file", c.metric_file);
    const bool json = c.metric_file.size() > 5 &&
                      c.metric_file.compare(c.metric_file.size() - 5, 5, ".json") == 0;
    const bool csv =
        c.metric_file.size() > 4 && c.metric_file.compare(c.metric_file.size() - 4, 4, ".csv") == 0;
    if (json)
        m.require("path", c.metric_path);
    else if (csv) {
        m.require("column", c.metric_column);
        m.get("row", c.metric_row);
    } else
        m.fail("file", "'" + c.metric_file + "': expected a .json or .csv file the command writes");
    if (m.get("scale", c.scale) && !(c.scale > 0)) m.fail("scale", "must be > 0");
    if (m.get("divide", c.divide) && !(c.divide > 0))
        m.fail("divide", "must be > 0 (simulated = divide / value x scale)");
    m.reject_unknown_keys();
    n.require("measured", c.measured);
    if (!(c.measured > 0)) n.fail("measured", "must be > 0 (the published figure)");
    n.require("unit", c.unit);
    n.require("source", c.source);
    if (c.source.find('[') == std::string::npos)
        n.fail("source", "must cite docs/references.md by key, e.g. [nccl-tests]");
    n.require("tolerance", c.tolerance);
    if (!(c.tolerance > 0 && c.tolerance <= 1))
        n.fail("tolerance", "must be a relative tolerance in (0, 1], e.g. 0.1");
    if (n.get("peak", c.peak) && !(c.peak >= c.measured))
        n.fail("peak",
               "must be at least the measured figure (the datasheet peak, in " + c.unit + ")");
    if (n.get("group", c.group)) {
        if (!valid_name(c.group))
            n.fail("group", "'" + c.group + "': expected lower-case letters, digits and _");
        c.group_at = n.location_of("group");
    }
    n.get("known_gap", c.known_gap);
    n.get("slow", c.slow);
    n.reject_unknown_keys();
    return c;
}

// A group gathers at least two validations of one workload, in one unit.
void check_groups(const std::vector<ValidationCase>& cases) {
    std::map<std::string, std::vector<const ValidationCase*>> groups;
    for (const ValidationCase& c : cases) {
        if (!c.group.empty()) groups[c.group].push_back(&c);
    }
    for (const auto& [group, members] : groups) {
        const ValidationCase& first = *members.front();
        if (members.size() < 2)
            throw ConfigError(first.group_at, "group",
                              "'" + group + "' has only " + first.id +
                                  "; a group names a workload measured by two cases or more");
        for (const ValidationCase* c : members) {
            if (c->check != CheckKind::Validation)
                throw ConfigError(c->group_at, "group",
                                  "'" + group +
                                      "': only validations (independent measurements) are "
                                      "grouped, and " +
                                      c->id + " is a consistency check");
            if (c->unit != first.unit)
                throw ConfigError(c->group_at, "group",
                                  "'" + group + "': " + c->id + " is in " + c->unit + " and " +
                                      first.id + " in " + first.unit +
                                      "; a group's cases share a unit");
        }
    }
}

}  // namespace

std::string to_string(CheckKind k) {
    return k == CheckKind::Validation ? "validation" : "consistency";
}

std::vector<ValidationCase> load_validation_cases(const std::string& dir) {
    namespace fs = std::filesystem;
    if (!fs::is_directory(dir))
        throw ConfigError(SourceLocation{dir, 0, 0}, "--cases",
                          "'" + dir + "' is not a directory of validation cases (*.yaml)");
    std::vector<std::string> files;
    for (const auto& e : fs::directory_iterator(dir)) {
        if (e.is_regular_file() && e.path().extension() == ".yaml")
            files.push_back(e.path().string());
    }
    std::sort(files.begin(), files.end());
    std::vector<ValidationCase> cases;
    std::set<std::string> ids;
    for (const std::string& file : files) {
        const auto doc = load_config(file);
        const ConfigNode root = ConfigNode::root_of(doc);
        for (const ConfigNode& n : root.sequence("cases")) {
            ValidationCase c = read_case(n, file);
            if (!ids.insert(c.id).second)
                n.fail("id", "'" + c.id + "' is used by another case; ids must be unique");
            cases.push_back(std::move(c));
        }
        root.reject_unknown_keys();
    }
    if (cases.empty())
        throw ConfigError(SourceLocation{dir, 0, 0}, "--cases",
                          "no validation cases in '" + dir + "' (expected *.yaml with cases:)");
    check_groups(cases);
    return cases;
}

}  // namespace sim
