// SPDX-License-Identifier: MIT
#include "sim/config/device_identity.h"

namespace sim {

ParamTable<DeviceIdentity> device_identity_param_table() {
    using P = DeviceIdentity;
    ParamTable<P> t;
    t.text("device", &P::device,
           "the device kind the file describes: gpu, systolic or cim (wallsim list); a CIM "
           "file may leave it out");
    t.text("name", &P::name, "free text naming the device in reports, e.g. NVIDIA H100 SXM5");
    return t;
}

DeviceIdentity DeviceIdentity::from_config(const ConfigNode& root) {
    DeviceIdentity id;
    device_identity_param_table().read(root, id);
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
