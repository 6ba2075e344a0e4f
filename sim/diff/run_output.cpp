// SPDX-License-Identifier: MIT
#include "sim/diff/run_output.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/core/error.h"
#include "sim/diff/csv_table.h"

namespace sim::diff {

namespace fs = std::filesystem;
using Json = nlohmann::json;

namespace {

constexpr const char* kExpected = "expected the output folder of 'wallsim run'";

std::string read_file(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw ConfigError({file.string(), 0, 0}, "", "cannot be read");
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

Json read_stats(const fs::path& file) {
    const std::string text = read_file(file);
    Json stats;
    try {
        stats = Json::parse(text);
    } catch (const Json::parse_error& e) {
        // nlohmann's message names the byte; the line is what a user can find.
        const size_t at = std::min<size_t>(e.byte, text.size());
        const int line = 1 + int(std::count(text.begin(), text.begin() + long(at), '\n'));
        throw ConfigError({file.string(), line, 0}, "",
                          "not valid JSON (expected the stats.json of 'wallsim run')");
    }
    if (!stats.is_object()) {
        throw ConfigError({file.string(), 0, 0}, "",
                          "top level is not a JSON object (expected the stats.json of "
                          "'wallsim run')");
    }
    // Only `wallsim run` writes the run group; hbm, net and other commands write their own.
    const Json* sim_time = nullptr;
    if (stats.contains("run") && stats["run"].is_object() && stats["run"].contains("sim_time"))
        sim_time = &stats["run"]["sim_time"];
    if (sim_time == nullptr) {
        throw ConfigError({file.string(), 0, 0}, "run.sim_time",
                          std::string("missing (") + kExpected + ")");
    }
    return stats;
}

double cell_number(const std::string& cell, const std::string& where, const std::string& column) {
    double v = 0;
    const char* end = cell.data() + cell.size();
    const auto [ptr, ec] = std::from_chars(cell.data(), end, v);
    if (cell.empty() || ec != std::errc() || ptr != end || !std::isfinite(v)) {
        throw ConfigError({where, 0, 0}, column, "'" + cell + "' is not a number");
    }
    return v;
}

std::vector<OpRow> read_ops(const fs::path& file) {
    const CsvTable table = parse_csv(read_file(file), file.string());
    if (table.empty()) {
        throw ConfigError({file.string(), 0, 0}, "",
                          "empty (expected the ops.csv of 'wallsim run', a header first)");
    }
    const std::vector<std::string>& header = table[0];
    const auto column = [&](const std::string& name) -> std::optional<size_t> {
        const auto it = std::find(header.begin(), header.end(), name);
        if (it == header.end()) return std::nullopt;
        return size_t(it - header.begin());
    };
    const auto name = column("name");
    const auto time = column("time_us");
    const auto kind = column("kind");
    const auto energy = column("energy_j");
    if (!name || !time) {
        throw ConfigError({file.string(), 1, 0}, "",
                          "the header lacks 'name' or 'time_us' (expected the ops.csv of "
                          "'wallsim run')");
    }
    std::vector<OpRow> ops;
    ops.reserve(table.size() - 1);
    for (size_t r = 1; r < table.size(); ++r) {
        const std::vector<std::string>& row = table[r];
        // Rows are counted, not lines: a quoted name may span lines, which ops.csv never does.
        const std::string where = file.string() + ":" + std::to_string(r + 1);
        if (row.size() != header.size()) {
            throw ConfigError({where, 0, 0}, "",
                              std::to_string(row.size()) + " fields where the header has " +
                                  std::to_string(header.size()));
        }
        OpRow op;
        op.name = row[*name];
        op.kind = kind ? row[*kind] : "";
        op.time_s = cell_number(row[*time], where, "time_us") * 1e-6;
        if (energy && !row[*energy].empty())
            op.energy_j = cell_number(row[*energy], where, "energy_j");
        ops.push_back(std::move(op));
    }
    return ops;
}

}  // namespace

std::string RunOutput::meta(const std::string& key) const {
    if (!stats.contains("meta") || !stats["meta"].is_object()) return "";
    const Json& m = stats["meta"];
    if (!m.contains(key)) return "";
    return m[key].is_string() ? m[key].get<std::string>() : m[key].dump();
}

std::optional<double> RunOutput::stat(const std::string& dotted_path) const {
    const Json* at = &stats;
    std::stringstream ss(dotted_path);
    std::string part;
    while (std::getline(ss, part, '.')) {
        if (!at->is_object() || !at->contains(part)) return std::nullopt;
        at = &(*at)[part];
    }
    if (at->is_object() && at->contains("value")) at = &(*at)["value"];
    if (!at->is_number()) return std::nullopt;
    return at->get<double>();
}

RunOutput load_run_output(const std::string& dir) {
    const fs::path root(dir);
    std::error_code ec;
    if (!fs::is_directory(root, ec)) {
        throw ConfigError({dir, 0, 0}, "", std::string("no such folder (") + kExpected + ")");
    }
    for (const char* name : {"stats.json", "ops.csv"}) {
        if (!fs::is_regular_file(root / name, ec)) {
            throw ConfigError({(root / name).string(), 0, 0}, "",
                              std::string("missing (") + kExpected + ")");
        }
    }
    RunOutput run;
    run.dir = dir;
    run.stats = read_stats(root / "stats.json");
    run.ops = read_ops(root / "ops.csv");
    return run;
}

}  // namespace sim::diff
