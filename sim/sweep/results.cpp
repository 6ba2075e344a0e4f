// SPDX-License-Identifier: MIT
#include "sim/sweep/results.h"

#include <nlohmann/json.hpp>

#include "sim/engine/csv_row.h"
#include "sim/sweep/metrics.h"
#include "sim/sweep/process.h"

namespace sim::sweep {

namespace {

PointResult outcome(const SweepDir& dir, const std::string& key) {
    const auto status = read_status(dir.status_file(key));
    if (dir.finished(key) && (!status || status->exit_code == 0)) return {true, ""};
    if (!status) return {false, "did not run"};
    if (!status->error.empty()) return {false, status->error};
    std::string why = error_line(dir.log_file(key));
    const std::string sig = signal_text(status->exit_code);
    if (!sig.empty()) why = "killed by " + sig + (why.empty() ? "" : ": " + why);
    if (why.empty()) why = "exit code " + std::to_string(status->exit_code);
    return {false, why};
}

}  // namespace

std::vector<PointResult> write_results(const Experiment& e,
                                       const std::vector<Point>& points,
                                       const std::vector<std::string>& keys,
                                       const SweepDir& dir) {
    std::string csv;
    RowWriter row(csv);
    row.text("point");
    for (const Axis& a : e.axes)
        row.text(a.column);
    for (const Metric& m : e.metrics)
        row.text(m.name);
    row.text("status").text("error").text("wall_s").text("dir");
    row.end();
    std::vector<PointResult> results;
    for (size_t i = 0; i < points.size(); ++i) {
        const std::string& key = keys[i];
        PointResult r = outcome(dir, key);
        std::vector<MetricValue> values(e.metrics.size());
        if (r.ok) {
            values = read_metrics(e.metrics, dir.point_dir(key).string());
            for (size_t m = 0; m < values.size() && r.ok; ++m) {
                if (!values[m].error.empty()) {
                    r = {false, "metric " + e.metrics[m].name + ": " + values[m].error};
                }
            }
        }
        row.num(uint64_t{points[i].index});
        for (const std::string& v : points[i].axis_values)
            row.text(v);
        for (const MetricValue& v : values)
            row.maybe(v.value);
        row.text(r.ok ? "ok" : "failed").text(r.error);
        const auto status = read_status(dir.status_file(key));
        row.maybe(status && status->exit_code >= 0 ? std::optional<double>(status->wall_s)
                                                   : std::nullopt);
        row.text("points/" + key);
        row.end();
        results.push_back(r);
    }
    // Which columns are axes and which are metrics, for tools/plot_sweep.py.
    nlohmann::json about = {{"experiment", e.name}, {"command", e.command},
                            {"combine", e.zip ? "zip" : "product"}, {"points", points.size()}};
    about["axes"] = nlohmann::json::array();
    for (const Axis& a : e.axes)
        about["axes"].push_back(a.column);
    about["metrics"] = nlohmann::json::array();
    for (const Metric& m : e.metrics)
        about["metrics"].push_back(m.name);
    dir.write_atomically("sweep.json", about.dump(2) + "\n");
    dir.write_atomically("results.csv", csv);
    return results;
}

}  // namespace sim::sweep
