// SPDX-License-Identifier: MIT
#include "sim/sweep/metrics.h"

#include <fmt/format.h>
#include <boost/tokenizer.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "sim/config/config_node.h"

namespace sim::sweep {

namespace fs = std::filesystem;
using Json = nlohmann::json;

namespace {

std::vector<std::string> split_path(const std::string& path) {
    std::vector<std::string> parts;
    std::stringstream ss(path);
    std::string part;
    while (std::getline(ss, part, '.'))
        parts.push_back(part);
    return parts;
}

std::string closest_key(const Json& object, const std::string& key) {
    std::string best;
    size_t best_distance = std::numeric_limits<size_t>::max();
    for (const auto& [k, v] : object.items()) {
        const size_t d = edit_distance(key, k);
        if (d < best_distance) {
            best_distance = d;
            best = k;
        }
    }
    return best_distance <= std::max<size_t>(2, key.size() / 3) ? best : "";
}

MetricValue stats_metric(const Json& stats, const std::string& path) {
    const Json* at = &stats;
    std::string walked;
    for (const std::string& part : split_path(path)) {
        // A stat is {"value": ..., "unit": ..., "description": ...}: its fields are reached
        // through its value (run.op_time.p99 is run.op_time.value.p99).
        if (at->is_object() && !at->contains(part) && at->contains("value")) at = &(*at)["value"];
        if (!at->is_object() || !at->contains(part)) {
            std::string why = fmt::format("stats.json has no '{}'", path);
            if (at->is_object()) {
                const std::string near = closest_key(*at, part);
                why += walked.empty()
                           ? ""
                           : fmt::format(" (nothing named '{}' under '{}')", part, walked);
                if (!near.empty()) why += fmt::format("; did you mean '{}'?", near);
            }
            return {std::nullopt, why};
        }
        at = &(*at)[part];
        walked += (walked.empty() ? "" : ".") + part;
    }
    if (at->is_object() && at->contains("value")) at = &(*at)["value"];
    if (at->is_number()) return {at->get<double>(), ""};
    if (at->is_object()) {
        std::string fields;
        for (const auto& [k, v] : at->items())
            fields += (fields.empty() ? "" : ", ") + k;
        return {std::nullopt,
                fmt::format("stats.json '{}' is not a number; name one of its fields: {}", path,
                            fields)};
    }
    return {std::nullopt, fmt::format("stats.json '{}' is not a number", path)};
}

using Table = std::vector<std::vector<std::string>>;  // header first

Table read_csv(const fs::path& file) {
    Table rows;
    std::ifstream in(file);
    std::string line;
    using Tokenizer = boost::tokenizer<boost::escaped_list_separator<char>>;
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        Tokenizer tok(line, boost::escaped_list_separator<char>('\\', ',', '"'));
        rows.emplace_back(tok.begin(), tok.end());
    }
    return rows;
}

MetricValue ops_metric(const Table& table, const Metric& m) {
    if (table.empty()) return {std::nullopt, m.file + " is missing or empty"};
    const std::vector<std::string>& header = table[0];
    const auto column = [&](const std::string& name) -> std::optional<size_t> {
        const auto it = std::find(header.begin(), header.end(), name);
        if (it == header.end()) return std::nullopt;
        return size_t(it - header.begin());
    };
    const auto unknown = [&](const std::string& name) {
        std::string all;
        for (const auto& h : header)
            all += (all.empty() ? "" : ", ") + h;
        return MetricValue{
            std::nullopt, fmt::format("{} has no column '{}'; its columns: {}", m.file, name, all)};
    };
    const auto value_column = column(m.path);
    if (!value_column) return unknown(m.path);
    std::vector<std::pair<size_t, std::string>> filters;
    for (const auto& [name, value] : m.where) {
        const auto c = column(name);
        if (!c) return unknown(name);
        filters.emplace_back(*c, value);
    }
    double sum = 0, lo = std::numeric_limits<double>::infinity(), hi = -lo;
    uint64_t rows = 0, numbers = 0;
    for (size_t r = 1; r < table.size(); ++r) {
        const auto& row = table[r];
        const bool match = std::all_of(filters.begin(), filters.end(), [&](const auto& f) {
            return f.first < row.size() && row[f.first] == f.second;
        });
        if (!match) continue;
        ++rows;
        if (*value_column >= row.size() || row[*value_column].empty()) continue;
        const std::string& cell = row[*value_column];
        char* end = nullptr;
        const double v = std::strtod(cell.c_str(), &end);
        if (end != cell.c_str() + cell.size()) {
            if (m.aggregate == "count") continue;
            return {std::nullopt,
                    fmt::format("{} column '{}' holds '{}', not a number", m.file, m.path, cell)};
        }
        ++numbers;
        sum += v;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    if (m.aggregate == "count") return {double(rows), ""};
    if (m.aggregate == "sum") return {sum, ""};
    if (numbers == 0) return {std::nullopt, ""};
    if (m.aggregate == "mean") return {sum / double(numbers), ""};
    return {m.aggregate == "min" ? lo : hi, ""};
}

}  // namespace

std::vector<MetricValue> read_metrics(const std::vector<Metric>& metrics,
                                      const std::string& out_dir) {
    std::vector<MetricValue> out;
    std::optional<Json> stats;
    std::map<std::string, Table> tables;
    for (const Metric& m : metrics) {
        if (m.source == Metric::Source::Stats) {
            if (!stats) {
                std::ifstream in(fs::path(out_dir) / "stats.json");
                stats = in ? Json::parse(in, nullptr, false) : Json();
            }
            if (stats->is_discarded() || stats->is_null()) {
                out.push_back({std::nullopt, "the point wrote no readable stats.json"});
                continue;
            }
            out.push_back(stats_metric(*stats, m.path));
        } else {
            auto it = tables.find(m.file);
            if (it == tables.end())
                it = tables.emplace(m.file, read_csv(fs::path(out_dir) / m.file)).first;
            out.push_back(ops_metric(it->second, m));
        }
    }
    return out;
}

}  // namespace sim::sweep
