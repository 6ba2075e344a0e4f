// SPDX-License-Identifier: MIT
#include "models/energy/register.h"

#include "models/energy/energy_params.h"
#include "sim/config/resolved.h"
#include "sim/registry/registry.h"

namespace sim::energy {

void register_energy(Registry& r) {
    r.add_component({"energy",
                     "per-event energy tables: FMA by unit and dtype, register/SRAM/L2 bytes, "
                     "HBM events and bits, link bits, static power (the technology's tables); the "
                     "power limit and its clock governor",
                     "gpu", [](const ConfigNode& hw, StatGroup& stats) {
                         resolved<EnergyParams>(hw).publish(stats,
                                                            resolved<hw::HardwareParams>(hw));
                     }});
}

}  // namespace sim::energy
