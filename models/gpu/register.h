// SPDX-License-Identifier: MIT
#pragma once

namespace sim {
class Registry;
}

namespace sim::gpu {

/// The cycle-level GPU: models gpu.sm (sampled) and gpu.sm_cycle.
void register_gpu(Registry& r);

}  // namespace sim::gpu

namespace sim::system {
class KindRegistry;
}
namespace sim::gpu {
/// The `gpu` module kind (models/gpu/module_kinds.cpp).
void register_gpu_kinds(system::KindRegistry& kinds);
}  // namespace sim::gpu
