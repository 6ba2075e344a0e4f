// SPDX-License-Identifier: MIT
// Reads a CIM accelerator description (configs/cim/*.yaml; schema in configs/cim/README.md)
// into a validated CimConfig. Unknown keys, wrong types and impossible values throw
// ConfigError at the offending key's file:line:col.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "models/cim/core/cim_config.h"
#include "sim/config/config_node.h"

namespace sim::cim {

/// Reads every section of root, validates, and rejects keys nothing read.
CimConfig cim_config_from(const ConfigNode& root);

/// Loads a CIM file with --set overrides. The document is returned through doc (for
/// resolved_config.yaml).
CimConfig load_cim_config(const std::string& path,
                          const std::vector<std::string>& overrides,
                          std::shared_ptr<ConfigDocument>* doc = nullptr);

}  // namespace sim::cim
