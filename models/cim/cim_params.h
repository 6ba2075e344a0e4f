// SPDX-License-Identifier: MIT
// Reads a CIM accelerator description (configs/cim/*.yaml; schema in configs/cim/README.md)
// into a validated CimConfig. Unknown keys, wrong types and impossible values throw
// ConfigError at the offending key's file:line:col. Each section's keys, with their ranges and
// defaults, are a ParamTable below (`wallsim list --params cim` prints them); the checks
// between keys are CimConfig::validate()'s.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "models/cim/core/cim_config.h"
#include "sim/config/config_node.h"
#include "sim/config/param_table.h"

namespace sim::cim {

/// The keys of each section of a CIM file.
ParamTable<CrossbarConfig> crossbar_param_table();
ParamTable<NonidealityConfig> nonideality_param_table();
ParamTable<DataConfig> data_param_table();
ParamTable<OrganisationConfig> organisation_param_table();
ParamTable<ProgrammingConfig> programming_param_table();
ParamTable<EnergyConfig> energy_param_table();
ParamTable<AreaConfig> area_param_table();

/// Reads every section of root, validates, and rejects keys nothing read.
CimConfig cim_config_from(const ConfigNode& root);

/// Loads a CIM file with --set overrides. The document is returned through doc (for
/// resolved_config.yaml).
CimConfig load_cim_config(const std::string& path,
                          const std::vector<std::string>& overrides,
                          std::shared_ptr<ConfigDocument>* doc = nullptr);

}  // namespace sim::cim
