// SPDX-License-Identifier: MIT
#include "models/cim/register.h"

#include "models/cim/cim_op_model.h"
#include "models/cim/cim_params.h"
#include "models/cim/cim_stats.h"
#include "sim/config/resolved.h"
#include "sim/registry/registry.h"

namespace sim::cim {

void register_cim(Registry& r) {
    r.add_device({"cim",
                  "ReRAM compute-in-memory chip: crossbars, DACs, column ADCs, tiles "
                  "(configs/cim/README.md)",
                  [](const ConfigNode& hw, StatGroup& stats) {
                      publish_peak(stats, resolved<CimConfig>(hw, cim_config_from));
                  }});
    r.add_model({"cim.crossbar",
                 "gemm and conv2d on weight-stationary crossbars: read cycles and ADC "
                 "conversions counted per layer, energy per component",
                 "cim",
                 Fidelity::Cycle,
                 {OpKind::Gemm, OpKind::Conv2d},
                 [](const ModelContext& ctx) -> std::unique_ptr<OpModel> {
                     return std::make_unique<CimOpModel>(
                         resolved<CimConfig>(ctx.hw, cim_config_from), ctx.stats, ctx.executor);
                 }});
    r.add_command({"cim",
                   "ReRAM compute-in-memory: map a GEMM, conv or MLP onto crossbars; timing, "
                   "energy, area and accuracy vs float (--help)",
                   run_cim_command});
    r.add_params({"crossbar",
                  "One crossbar and its periphery (models/cim/core/cim_config.h, "
                  "CrossbarConfig). columns_per_adc must divide columns, and one weight "
                  "(data.weight_bits in cell_bits slices, two columns each when differential) "
                  "must fit the columns.",
                  [] { return crossbar_param_table().describe(); }, "cim"});
    r.add_params({"nonideality",
                  "Device non-idealities (models/cim/core/cim_config.h, NonidealityConfig); "
                  "optional, and all 0 is an ideal device.",
                  [] { return nonideality_param_table().describe(); }, "cim"});
    r.add_params({"data", "Operand precision (models/cim/core/cim_config.h, DataConfig).",
                  [] { return data_param_table().describe(); }, "cim"});
    r.add_params({"organisation",
                  "Crossbars in IMAs in tiles (models/cim/core/cim_config.h, "
                  "OrganisationConfig).",
                  [] { return organisation_param_table().describe(); }, "cim"});
    r.add_params({"programming",
                  "Weight programming by write-verify, and endurance (models/cim/core/"
                  "cim_config.h, ProgrammingConfig); optional.",
                  [] { return programming_param_table().describe(); }, "cim"});
    r.add_params({"energy",
                  "Energy per event and power of always-on blocks (models/cim/core/cim_config.h, "
                  "EnergyConfig); optional.",
                  [] { return energy_param_table().describe(); }, "cim"});
    r.add_params({"area", "Area per instance (models/cim/core/cim_config.h, AreaConfig); optional.",
                  [] { return area_param_table().describe(); }, "cim"});
}

}  // namespace sim::cim
