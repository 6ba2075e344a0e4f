// SPDX-License-Identifier: MIT
// A configuration's identity: `device:` (the registered device kind it describes) and `name:`
// (free text). Read once (sim/config/resolved.h) for everything that needs them: the system
// builder choosing a module kind, the run naming its device, each device's params struct.
#pragma once

#include <string>

#include "sim/config/config_node.h"
#include "sim/config/param_table.h"

namespace sim {

struct DeviceIdentity {
    std::string device;  ///< `device:`; empty when the file has none
    std::string name;    ///< `name:`; empty when the file has none

    static DeviceIdentity from_config(const ConfigNode& root);

    /// The device kind; throws ConfigError at root when the file names none.
    const std::string& required_device(const ConfigNode& root) const;
    /// The name; throws ConfigError at root when the file has none.
    const std::string& required_name(const ConfigNode& root) const;
};

/// The described keys `device:` and `name:` at the top of a device file.
ParamTable<DeviceIdentity> device_identity_param_table();

}  // namespace sim
