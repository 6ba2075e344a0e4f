// SPDX-License-Identifier: MIT
// Shipped presets by name: `--hw h100`, `extends: h100`, `--topology dgx_h100`,
// `technology: tsmc_4n` name files under the configs folder wallsim was built with
// (configs/<folder>/<name>.yaml), whatever the working directory. Anything that looks like a
// path (it has a '/' or ends in .yaml/.yml) is a file, read as given.
#pragma once

#include <string>
#include <vector>

#include "sim/core/error.h"

namespace sim {

/// The configs folder of the source tree wallsim was built from (WALLSIM_CONFIGS_DIR).
std::string configs_dir();

/// Whether text names a file rather than a preset: it has a '/' or ends in .yaml or .yml.
bool looks_like_path(const std::string& text);

/// The preset names of configs/<folder> (file stems of its *.yaml), sorted.
std::vector<std::string> preset_names(const std::string& folder);

/// The file that name_or_path stands for. A path is returned as given, or joined to base_dir
/// when it is relative and base_dir is not empty. A name becomes
/// configs_dir()/<folder>/<name>.yaml. Throws ConfigError at `at` (naming key) when a name is
/// not a preset, listing the presets of the folder.
std::string resolve_preset(const std::string& folder,
                           const std::string& name_or_path,
                           const std::string& base_dir,
                           const SourceLocation& at,
                           const std::string& key);

}  // namespace sim
