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
}

}  // namespace sim::cim
