// SPDX-License-Identifier: MIT
#include "models/analytic/analytic_model.h"
#include "sim/config/resolved.h"
#include "sim/log/log.h"
#include "sim/registry/registry.h"

namespace sim::analytic {

void register_analytic(Registry& r) {
    r.add_device({"gpu",
                  "GPU-like accelerator: SMs with vector and tensor units, HBM, NVLink, PCIe "
                  "(configs/hw/README.md)",
                  [](const ConfigNode& hw, StatGroup& stats) {
                      resolved<hw::HardwareParams>(hw).publish(stats);
                  }});
    r.add_model({"gpu.analytic",
                 "Roofline: max(FLOPs / peak(unit, dtype), bytes / bandwidth) + launch gap; "
                 "kernels, collectives and host copies as jobs sharing the device's SMs, links, "
                 "copy engines and memory",
                 "gpu", Fidelity::Analytic, all_op_kinds(),
                 [](const ModelContext& ctx) -> std::unique_ptr<OpModel> {
                     return std::make_unique<AnalyticModel>(resolved<hw::HardwareParams>(ctx.hw),
                                                            resolved<energy::EnergyParams>(ctx.hw),
                                                            ctx.stats, ctx.logging.get("analytic"),
                                                            ctx.executor);
                 }});
}

}  // namespace sim::analytic
