// SPDX-License-Identifier: MIT
// What launching an operator costs the host under a device's launch figures: the answer every
// model that launches kernels gives OpModel::host_launch.
#pragma once

#include "models/hw/hw_params.h"
#include "sim/registry/op_model.h"

namespace sim::hw {

inline HostLaunch host_launch_of(const LaunchParams& launch, LaunchMode mode) {
    return {TimePs{launch.host_per_op_ps(mode)}, TimePs{launch.host_once_ps(mode)}};
}

}  // namespace sim::hw
