// SPDX-License-Identifier: MIT
#pragma once

namespace sim {
class Registry;
}

namespace sim::energy {

/// Registers the `energy` component of GPU-like hardware files (the tables, under hw.energy).
void register_energy(Registry& r);

}  // namespace sim::energy
