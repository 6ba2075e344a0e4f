// SPDX-License-Identifier: MIT
// Helpers of the sweep system tests: a small experiment (analytic runs of a transformer layer
// on an H100, so each point takes a fraction of a second) and results.csv reading.
#pragma once

#include <boost/tokenizer.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/testing/temp_dir.h"

namespace sim::testing {

/// An experiment over sm.count (the first sm_counts of 66, 132) x hbm.pin_rate (rates), with
/// metrics time_s, bandwidth and gemm_us. It runs a copy of the transformer-layer trace that
/// sits next to it (trace.yaml), written there if absent, so a test can edit it.
inline std::string sweep_experiment(int sm_counts, const std::vector<std::string>& rates) {
    std::string counts = sm_counts == 1 ? "[66]" : "[66, 132]";
    std::string list;
    for (const auto& r : rates)
        list += (list.empty() ? "" : ", ") + r;
    return "name: test\n"
           "base:\n"
           "  hw: " +
           source_path("configs/hw/h100.yaml") +
           "\n"
           "  trace: trace.yaml\n"
           "  fidelity: analytic\n"
           "metrics:\n"
           "  time_s: run.sim_time\n"
           "  bandwidth: {stats: run.achieved_bandwidth}\n"
           "  gemm_us: {ops: time_us, aggregate: sum, where: {kind: gemm}}\n"
           "axes:\n"
           "  - {set: sm.count, values: " +
           counts +
           "}\n"
           "  - {set: hbm.pin_rate, values: [" +
           list + "]}\n";
}

/// Writes text as dir/exp.yaml, and the trace it runs as dir/trace.yaml unless it is there;
/// returns the experiment's path.
inline std::string write_experiment(const TempDir& dir, const std::string& text) {
    if (!std::filesystem::exists(dir.path() / "trace.yaml")) {
        std::ifstream in(source_path("traces/examples/transformer_layer.yaml"));
        std::ostringstream ss;
        ss << in.rdbuf();
        dir.write("trace.yaml", ss.str());
    }
    return dir.write("exp.yaml", text);
}

/// The cells of a CSV text, row by row (RFC 4180 quoting, as Boost's tokenizer reads it).
inline std::vector<std::vector<std::string>> csv_rows(const std::string& text) {
    std::vector<std::vector<std::string>> rows;
    std::istringstream in(text);
    std::string line;
    using Tokenizer = boost::tokenizer<boost::escaped_list_separator<char>>;
    while (std::getline(in, line)) {
        Tokenizer tok(line, boost::escaped_list_separator<char>('\\', ',', '"'));
        rows.emplace_back(tok.begin(), tok.end());
    }
    return rows;
}

/// results.csv with its wall_s column blanked: what must not differ between two sweeps.
inline std::string without_wall_time(const std::string& text) {
    const auto rows = csv_rows(text);
    size_t wall = 0;
    while (wall < rows[0].size() && rows[0][wall] != "wall_s")
        ++wall;
    std::string out;
    for (const auto& row : rows) {
        for (size_t i = 0; i < row.size(); ++i)
            out += (i ? "," : "") + (i == wall && &row != &rows[0] ? std::string() : row[i]);
        out += "\n";
    }
    return out;
}

}  // namespace sim::testing
