// SPDX-License-Identifier: MIT
#include "models/cim/mlp_file.h"

#include <nlohmann/json.hpp>

#include <cmath>

#include "sim/config/loader.h"
#include "sim/core/error.h"

namespace sim::cim {

namespace {

using nlohmann::json;

constexpr size_t kMostValues = size_t{1} << 26;  // far beyond a "small" MLP

[[noreturn]] void fail(const std::string& path, const std::string& key, const std::string& m) {
    throw ConfigError({path, 0, 0}, key, m);
}

// A rows x columns matrix of finite numbers, row-major.
std::vector<double> read_matrix(const std::string& path,
                                const json& j,
                                const std::string& key,
                                uint32_t& rows,
                                uint32_t& columns) {
    if (!j.is_array() || j.empty()) fail(path, key, "expected a non-empty list of rows");
    rows = static_cast<uint32_t>(j.size());
    columns = 0;
    std::vector<double> out;
    for (size_t r = 0; r < j.size(); ++r) {
        const std::string at = key + "[" + std::to_string(r) + "]";
        const json& row = j[r];
        if (!row.is_array() || row.empty()) fail(path, at, "expected a non-empty list of numbers");
        if (r == 0) columns = static_cast<uint32_t>(row.size());
        if (row.size() != columns) {
            fail(path, at,
                 "has " + std::to_string(row.size()) + " values; expected " +
                     std::to_string(columns) + " like the first row");
        }
        for (size_t c = 0; c < row.size(); ++c) {
            if (!row[c].is_number() || !std::isfinite(row[c].get<double>()))
                fail(path, at + "[" + std::to_string(c) + "]", "expected a finite number");
            out.push_back(row[c].get<double>());
        }
        if (out.size() > kMostValues) fail(path, key, "too many values for a small MLP");
    }
    return out;
}

}  // namespace

MlpFile read_mlp_file(const std::string& path) {
    const std::string text = read_text_file(path);
    json doc;
    try {
        doc = json::parse(text);
    } catch (const json::parse_error& e) {
        fail(path, "", std::string("malformed JSON: ") + e.what());
    }
    if (!doc.is_object()) fail(path, "", "expected a JSON object with layers and input");
    for (const auto& [key, value] : doc.items()) {
        if (key != "name" && key != "layers" && key != "input")
            fail(path, key, "unknown key; expected one of: input, layers, name");
    }
    MlpFile m;
    if (doc.contains("name")) {
        if (!doc["name"].is_string()) fail(path, "name", "expected a string");
        m.name = doc["name"].get<std::string>();
    }
    if (!doc.contains("layers") || !doc["layers"].is_array() || doc["layers"].empty())
        fail(path, "layers", "expected a non-empty list of layers");
    if (!doc.contains("input")) fail(path, "input", "required key is missing");
    m.input.values = read_matrix(path, doc["input"], "input", m.input.rows, m.input.columns);
    uint32_t width = m.input.columns;
    const json& layers = doc["layers"];
    for (size_t l = 0; l < layers.size(); ++l) {
        const std::string at = "layers[" + std::to_string(l) + "]";
        const json& lj = layers[l];
        if (!lj.is_object()) fail(path, at, "expected an object");
        for (const auto& [key, value] : lj.items()) {
            if (key != "weights" && key != "bias" && key != "activation")
                fail(path, at + "." + key,
                     "unknown key; expected one of: activation, bias, weights");
        }
        DenseLayer d;
        if (!lj.contains("weights")) fail(path, at + ".weights", "required key is missing");
        d.weights = read_matrix(path, lj["weights"], at + ".weights", d.inputs, d.outputs);
        if (d.inputs != width) {
            fail(path, at + ".weights",
                 "has " + std::to_string(d.inputs) + " rows; expected " + std::to_string(width) +
                     " (the width of the previous layer or the input)");
        }
        if (lj.contains("bias")) {
            const json& b = lj["bias"];
            if (!b.is_array() || b.size() != d.outputs)
                fail(path, at + ".bias", "expected " + std::to_string(d.outputs) + " numbers");
            for (const json& v : b) {
                if (!v.is_number() || !std::isfinite(v.get<double>()))
                    fail(path, at + ".bias", "expected finite numbers");
                d.bias.push_back(v.get<double>());
            }
        }
        if (lj.contains("activation")) {
            const json& a = lj["activation"];
            if (!a.is_string() || (a != "relu" && a != "none"))
                fail(path, at + ".activation", "expected relu or none");
            d.relu = a == "relu";
        }
        width = d.outputs;
        m.layers.push_back(std::move(d));
    }
    return m;
}

}  // namespace sim::cim
