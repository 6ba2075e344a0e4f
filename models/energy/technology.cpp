// SPDX-License-Identifier: MIT
#include "models/energy/technology.h"

#include <filesystem>

#include "sim/config/config_node.h"
#include "sim/config/loader.h"
#include "sim/config/presets.h"

namespace sim::energy {

namespace {

constexpr int kMaxDerivation = 8;

Calibration read_calibration(const ConfigNode& c) {
    Calibration cal;
    c.require("hardware", cal.hardware);
    const ConfigNode gemm = c.child("gemm");
    gemm.require("m", cal.m);
    gemm.require("n", cal.n);
    gemm.require("k", cal.k);
    std::string dtype;
    gemm.require("dtype", dtype);
    const auto parsed = parse_dtype(dtype);
    if (!parsed) gemm.fail("dtype", "'" + dtype + "' is not a dtype");
    cal.dtype = *parsed;
    gemm.reject_unknown_keys();
    if (cal.m == 0 || cal.n == 0 || cal.k == 0) gemm.fail("m", "m, n and k must be at least 1");
    c.require("unthrottled_tflops", cal.unthrottled_tflops);
    c.require("throttled_tflops", cal.throttled_tflops);
    if (!(cal.unthrottled_tflops > 0)) c.fail("unthrottled_tflops", "must be greater than 0");
    if (!(cal.throttled_tflops > 0 && cal.throttled_tflops <= cal.unthrottled_tflops))
        c.fail("throttled_tflops", "must be greater than 0 and at most unthrottled_tflops");
    c.require("source", cal.source);
    c.reject_unknown_keys();
    return cal;
}

}  // namespace

TechnologyParams TechnologyParams::load(const std::string& name_or_path,
                                        const std::string& base_dir,
                                        const SourceLocation& at,
                                        const std::string& key,
                                        int depth) {
    if (depth > kMaxDerivation)
        throw ConfigError(at, key, "derived_from chain is too long (a cycle?)");
    TechnologyParams t;
    t.file = resolve_preset("technology", name_or_path, base_dir, at, key);
    const ConfigNode root = ConfigNode::root_of(load_config(t.file, {}, "technology"));
    root.require("name", t.name);
    root.require("nominal_volts", t.nominal_volts);
    if (!(t.nominal_volts > 0)) root.fail("nominal_volts", "must be greater than 0");
    const bool fitted = root.has("scale");
    const bool derived = root.has("derived_from");
    if (fitted == derived)
        root.fail("scale", "give exactly one of scale (with calibration) and derived_from");
    if (fitted) {
        root.require("scale", t.scale);
        if (!(t.scale > 0)) root.fail("scale", "must be greater than 0");
        // A fitted number names the data it was fitted to.
        t.calibration = read_calibration(root.child("calibration"));
    } else {
        root.require("derived_from", t.derived_from);
        const ConfigNode ratio = root.child("power_ratio");
        ratio.require("value", t.power_ratio);
        if (!(t.power_ratio > 0)) ratio.fail("value", "must be greater than 0");
        ratio.require("source", t.ratio_source);
        ratio.reject_unknown_keys();
        const TechnologyParams parent =
            load(t.derived_from, std::filesystem::path(t.file).parent_path().string(),
                 root.location_of("derived_from"), root.child_path("derived_from"), depth + 1);
        if (parent.nominal_volts != t.nominal_volts)
            root.fail("nominal_volts", "must equal derived_from's (" +
                                           std::to_string(parent.nominal_volts) +
                                           " V): the ratio compares energies at one voltage");
        t.scale = parent.scale * t.power_ratio;
    }
    root.reject_unknown_keys_recursive();
    return t;
}

}  // namespace sim::energy
