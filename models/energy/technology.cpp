// SPDX-License-Identifier: MIT
#include "models/energy/technology.h"

#include <filesystem>

#include "models/energy/energy_params.h"
#include "sim/config/config_node.h"
#include "sim/config/loader.h"
#include "sim/config/presets.h"

namespace sim::energy {

namespace {

constexpr int kMaxDerivation = 8;

Calibration read_calibration(const ConfigNode& c) {
    Calibration cal;
    calibration_param_table().read(c, cal);
    const ConfigNode gemm = c.child("gemm");
    calibration_gemm_param_table().read(gemm, cal);
    gemm.reject_unknown_keys();
    if (cal.throttled_tflops > cal.unthrottled_tflops)
        c.fail("throttled_tflops", "must be at most unthrottled_tflops");
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
    technology_param_table().read(root, t);
    const bool fitted = root.has("scale");
    const bool derived = root.has("derived_from");
    if (fitted == derived)
        root.fail("scale", "give exactly one of scale (with calibration) and derived_from");
    if (fitted) {
        // A fitted number names the data it was fitted to.
        t.calibration = read_calibration(root.child("calibration"));
    } else {
        const ConfigNode ratio = root.child("power_ratio");
        power_ratio_param_table().read(ratio, t);
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
