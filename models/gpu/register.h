// SPDX-License-Identifier: MIT
#pragma once

namespace sim {
class Registry;
}

namespace sim::gpu {

/// The cycle-level GPU: models gpu.sm (sampled) and gpu.sm_cycle.
void register_gpu(Registry& r);

}  // namespace sim::gpu
