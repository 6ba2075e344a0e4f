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
    r.add_params({"energy",
                  "A GPU's energy figures beside its technology's (models/energy/"
                  "energy_params.h); without the section, Horowitz's 45 nm table at 0.9 V.",
                  [] { return energy_param_table().describe(); }});
    r.add_params({"energy.static_power",
                  "Static power per block, when energy.static_power is a map: each rate times "
                  "the device's count of that block.",
                  [] { return static_power_param_table().describe(); }});
    r.add_params({"hbm.energy",
                  "HBM energy per event (models/energy/core/energy_table.h), for the analytic "
                  "tables and the cycle-level HBM model alike. The cycle-level model requires "
                  "the section; without it the analytic tables charge 20 pJ per bit read or "
                  "written (Horowitz) and no ACT or REF energy.",
                  [] { return hbm_energy_param_table().describe(); }});
    r.add_params({"(top level)",
                  "The top level of a technology file (configs/technology/; models/energy/"
                  "technology.h): give scale with calibration:, or derived_from with "
                  "power_ratio:.",
                  [] { return technology_param_table().describe(); }, "technology"});
    r.add_params({"power_ratio", "How a derived technology's scale follows from derived_from's.",
                  [] { return power_ratio_param_table().describe(); }, "technology"});
    r.add_params({"calibration",
                  "The published measurement a fitted scale was fitted to "
                  "(tests/validation/technology_test.cpp re-derives the scale from it).",
                  [] { return calibration_param_table().describe(); }, "technology"});
    r.add_params({"calibration.gemm", "The calibration's GEMM.",
                  [] { return calibration_gemm_param_table().describe(); }, "technology"});
}

}  // namespace sim::energy
