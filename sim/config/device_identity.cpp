// SPDX-License-Identifier: MIT
#include "sim/config/device_identity.h"

namespace sim {

DeviceIdentity DeviceIdentity::from_config(const ConfigNode& root) {
    DeviceIdentity id;
    root.get("device", id.device);
    root.get("name", id.name);
    return id;
}

const std::string& DeviceIdentity::required_device(const ConfigNode& root) const {
    if (device.empty()) root.fail("device", "required key is missing");
    return device;
}

const std::string& DeviceIdentity::required_name(const ConfigNode& root) const {
    if (name.empty()) root.fail("name", "required key is missing");
    return name;
}

}  // namespace sim
