// SPDX-License-Identifier: MIT
#include "sim/sweep/experiment.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>

#include "sim/config/config_node.h"
#include "sim/config/loader.h"

namespace sim::sweep {

namespace fs = std::filesystem;

namespace {

// Options the sweep sets itself, or that would make points share or escape their output.
const std::set<std::string> kReservedOptions = {"out", "set", "help", "h"};

std::string format_number(double v) {
    // Twelve significant digits hide the rounding of from + i * step (0.1 * 3).
    return fmt::format("{:.12g}", v);
}

// A relative value that names something next to the experiment file is taken from there,
// like `extends:` in a hardware file; anything else (a word, an absolute path) stays.
std::string resolve_path(const fs::path& base_dir, const std::string& value) {
    if (value.empty() || fs::path(value).is_absolute()) return value;
    const fs::path candidate = (base_dir / value).lexically_normal();
    std::error_code ec;
    return fs::exists(candidate, ec) ? candidate.string() : value;
}

std::string scalar_of(const ConfigNode& parent, const std::string& key, const YAML::Node& v) {
    if (!v.IsScalar()) parent.fail(key, "expected a single value (number, word or path)");
    return v.Scalar();
}

std::vector<std::string> range_values(const ConfigNode& axis) {
    const ConfigNode r = axis.child("range");
    double from = 0, to = 0;
    r.require("from", from);
    r.require("to", to);
    if (!std::isfinite(from) || !std::isfinite(to)) r.fail("from", "must be a finite number");
    if (to < from) r.fail("to", fmt::format("must be >= from ({})", format_number(from)));
    std::string unit;
    r.get("unit", unit);
    double step = 0;
    uint64_t count = 0;
    const bool has_step = r.get("step", step);
    const bool has_count = r.get("count", count);
    std::string scale = "linear";
    r.get_choice("scale", scale, {"linear", "log"});
    r.reject_unknown_keys();
    if (has_step && has_count) r.fail("count", "give either step or count, not both");
    if (!has_step && !has_count) {
        // An integer range without a step counts in ones, like Python's range(from, to + 1).
        if (from != std::floor(from) || to != std::floor(to))
            r.fail("step", "required key is missing (a range of non-integers needs a step)");
        step = 1;
    }
    std::vector<double> numbers;
    if (has_count) {
        if (count == 0 || count > kMaxPoints)
            r.fail("count", fmt::format("must be between 1 and {}", kMaxPoints));
        if (scale == "log" && from <= 0) r.fail("from", "must be > 0 on a log scale");
        for (uint64_t i = 0; i < count; ++i) {
            const double t = count == 1 ? 0.0 : double(i) / double(count - 1);
            numbers.push_back(scale == "log" ? from * std::pow(to / from, t)
                                             : from + t * (to - from));
        }
    } else {
        if (!(step > 0)) r.fail("step", "must be > 0");
        if (scale == "log") r.fail("scale", "a log scale needs count, not step");
        const double n = std::floor((to - from) / step * (1 + 1e-12)) + 1;
        if (n > double(kMaxPoints))
            r.fail("step", fmt::format("gives more than {} values", kMaxPoints));
        for (uint64_t i = 0; i < uint64_t(n); ++i)
            numbers.push_back(from + double(i) * step);
    }
    std::vector<std::string> out;
    for (double v : numbers)
        out.push_back(format_number(v) + unit);
    return out;
}

Axis read_axis(const ConfigNode& a, const fs::path& base_dir) {
    Axis axis;
    // A misspelt key is the likeliest mistake; report it before what it leaves missing.
    for (const char* key : {"set", "option", "name", "values", "range"})
        a.accept(key);
    a.reject_unknown_keys();
    const bool is_set = a.get("set", axis.key);
    std::string option;
    const bool is_option = a.get("option", option);
    if (is_set == is_option) a.fail("", "an axis names exactly one of set: KEY or option: NAME");
    if (is_option) {
        axis.kind = Axis::Kind::Option;
        axis.key = option;
        if (option.empty() || option[0] == '-') a.fail("option", "give the name without dashes");
        if (kReservedOptions.count(option) != 0)
            a.fail("option", "'" + option + "' is set by the sweep itself; vary set: KEY instead");
    } else if (axis.key.empty() || axis.key.find('=') != std::string::npos) {
        a.fail("set", "expected a config key such as hbm.pin_rate");
    }
    axis.column = axis.key;
    a.get("name", axis.column);
    const bool has_values = a.has("values");
    const bool has_range = a.has("range");
    if (has_values == has_range) a.fail("", "an axis has exactly one of values: [...] or range:");
    if (has_values) {
        a.accept("values");
        const YAML::Node v = a.yaml()["values"];
        if (!v.IsSequence() || v.size() == 0)
            a.fail("values", "expected a non-empty list of values");
        for (size_t i = 0; i < v.size(); ++i)
            axis.values.push_back(scalar_of(a, fmt::format("values[{}]", i), v[i]));
    } else {
        axis.values = range_values(a);
    }
    a.reject_unknown_keys();
    for (const std::string& v : axis.values)
        axis.args.push_back(axis.kind == Axis::Kind::Option ? resolve_path(base_dir, v) : v);
    return axis;
}

Metric read_metric(const ConfigNode& metrics, const std::string& name) {
    Metric m;
    m.name = name;
    const YAML::Node v = metrics.yaml()[name];
    metrics.accept(name);
    if (v.IsScalar()) {  // name: run.sim_time
        m.path = v.Scalar();
        return m;
    }
    const ConfigNode n = metrics.child(name);
    const bool from_stats = n.get("stats", m.path);
    std::string column;
    const bool from_ops = n.get("ops", column);
    if (from_stats == from_ops)
        n.fail("", "a metric names exactly one of stats: PATH or ops: COLUMN");
    if (from_ops) {
        m.source = Metric::Source::Ops;
        m.path = column;
        n.get("file", m.file);
        if (m.file.empty() || m.file.find('/') != std::string::npos)
            n.fail("file", "expected the name of a CSV file in the point's output directory");
        n.get_choice("aggregate", m.aggregate, {"sum", "mean", "min", "max", "count"});
        if (const auto where = n.optional_child("where")) {
            for (const std::string& key : where->keys()) {
                std::string value;
                where->require(key, value);
                m.where.emplace_back(key, value);
            }
        }
    }
    n.reject_unknown_keys();
    if (m.path.empty()) n.fail(from_ops ? "ops" : "stats", "must not be empty");
    return m;
}

}  // namespace

Experiment load_experiment(const std::string& path, const std::vector<std::string>& commands) {
    const auto doc = load_config(path);
    const ConfigNode root = ConfigNode::root_of(doc);
    const fs::path base_dir = fs::path(path).parent_path();
    Experiment e;
    e.file = path;
    e.name = fs::path(path).stem().string();
    root.get("name", e.name);
    if (e.name.empty() || e.name.find('/') != std::string::npos)
        root.fail("name", "must be a non-empty name without '/'");
    root.get("command", e.command);
    if (std::find(commands.begin(), commands.end(), e.command) == commands.end()) {
        std::string known;
        for (const auto& c : commands)
            known += (known.empty() ? "" : ", ") + c;
        root.fail("command",
                  "'" + e.command + "' is not a wallsim command; expected one of " + known);
    }
    if (const auto base = root.optional_child("base")) {
        for (const std::string& key : base->keys()) {
            base->accept(key);
            if (kReservedOptions.count(key) != 0) {
                base->fail(key, key == "set" ? "put overrides under the top-level set: map"
                                             : "is set by the sweep itself");
            }
            const YAML::Node v = base->yaml()[key];
            Option o{key, "", v.IsNull()};
            if (!o.flag) o.value = resolve_path(base_dir, scalar_of(*base, key, v));
            e.options.push_back(o);
        }
    }
    if (const auto sets = root.optional_child("set")) {
        for (const std::string& key : sets->keys()) {
            sets->accept(key);
            e.sets.push_back(key + "=" + scalar_of(*sets, key, sets->yaml()[key]));
        }
    }
    for (const ConfigNode& a : root.sequence("axes"))
        e.axes.push_back(read_axis(a, base_dir));
    std::string combine = "product";
    root.get_choice("combine", combine, {"product", "zip"});
    e.zip = combine == "zip";
    if (const auto metrics = root.optional_child("metrics")) {
        for (const std::string& name : metrics->keys())
            e.metrics.push_back(read_metric(*metrics, name));
    }
    root.reject_unknown_keys();

    std::set<std::string> columns;
    for (size_t i = 0; i < e.axes.size(); ++i) {
        if (!columns.insert(e.axes[i].column).second) {
            root.fail(fmt::format("axes[{}]", i),
                      "two axes have the column '" + e.axes[i].column + "'; give one a name:");
        }
    }
    for (const Metric& m : e.metrics) {
        if (!columns.insert(m.name).second)
            root.fail("metrics", "'" + m.name + "' is already an axis column");
    }
    if (e.zip) {
        for (size_t i = 1; i < e.axes.size(); ++i) {
            if (e.axes[i].values.size() != e.axes[0].values.size()) {
                root.fail(fmt::format("axes[{}]", i),
                          fmt::format("combine: zip needs axes of one length; this one has {} "
                                      "values, axes[0] has {}",
                                      e.axes[i].values.size(), e.axes[0].values.size()));
            }
        }
    } else {
        double total = 1;
        for (const Axis& a : e.axes)
            total *= double(a.values.size());
        if (total > double(kMaxPoints))
            root.fail("axes",
                      fmt::format("the product has {:.0f} points; at most {}", total, kMaxPoints));
    }
    return e;
}

std::vector<Point> expand(const Experiment& e) {
    size_t n = e.axes.empty() ? 1 : e.zip ? e.axes[0].values.size() : 1;
    if (!e.zip) {
        for (const Axis& a : e.axes)
            n *= a.values.size();
    }
    std::vector<Point> points(n);
    for (size_t p = 0; p < n; ++p) {
        Point& point = points[p];
        point.index = p;
        point.options = e.options;
        point.sets = e.sets;
        // Mixed-radix digits of p, the last axis the fastest (nested loops in file order).
        std::vector<size_t> pick(e.axes.size(), p);
        if (!e.zip) {
            size_t rest = p;
            for (size_t i = e.axes.size(); i-- > 0;) {
                pick[i] = rest % e.axes[i].values.size();
                rest /= e.axes[i].values.size();
            }
        }
        for (size_t i = 0; i < e.axes.size(); ++i) {
            const Axis& a = e.axes[i];
            point.axis_values.push_back(a.values[pick[i]]);
            if (a.kind == Axis::Kind::Set) {
                point.sets.push_back(a.key + "=" + a.args[pick[i]]);
                continue;
            }
            auto it = std::find_if(point.options.begin(), point.options.end(),
                                   [&](const Option& o) { return o.name == a.key; });
            if (it == point.options.end())
                point.options.push_back({a.key, a.args[pick[i]], false});
            else
                *it = {a.key, a.args[pick[i]], false};
        }
    }
    return points;
}

std::vector<std::string> point_arguments(const Experiment& e,
                                         const Point& point,
                                         const std::string& out_dir) {
    std::vector<std::string> args{e.command};
    for (const Option& o : point.options) {
        args.push_back("--" + o.name);
        if (!o.flag) args.push_back(o.value);
    }
    for (const std::string& s : point.sets) {
        args.push_back("--set");
        args.push_back(s);
    }
    args.push_back("--out");
    args.push_back(out_dir);
    return args;
}

}  // namespace sim::sweep
