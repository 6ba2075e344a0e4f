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
    r.add_params({"hbm",
                  "A GPU's memory as every model sees it (models/hw/hw_params.h); hbm.row_bytes "
                  "sits in hbm.organisation, and the cycle-level model's organisation and "
                  "timing are described in configs/hw/README.md.",
                  [] { return hw::hbm_param_table().describe(); }});
    r.add_params({"nvlink", "A GPU's NVLink ports (models/hw/hw_params.h).",
                  [] { return hw::nvlink_param_table().describe(); }});
    r.add_params({"pcie", "A GPU's host link (models/hw/hw_params.h).",
                  [] { return hw::pcie_param_table().describe(); }});
    r.add_params(
        {"power",
         "A GPU's power limit (models/hw/hw_params.h) and the clock governor that "
         "enforces it (models/energy/core/clock_governor.h).",
         [] { return joined_docs(hw::power_param_table(), energy::governor_param_table()); }});
    r.add_params({"clocks", "A GPU's clock domains (models/hw/hw_params.h), by name.",
                  [] { return hw::clocks_param_table().describe(); }});
    r.add_params({"compute.vector",
                  "The CUDA cores' dense rates per SM and precision (models/hw/hw_params.h).",
                  [] { return hw::compute_param_table(ComputeUnit::Vector).describe(); }});
    r.add_params({"compute.tensor",
                  "The Tensor Cores' dense rates per SM and precision (models/hw/hw_params.h); "
                  "without the section, the GPU has none.",
                  [] { return hw::compute_param_table(ComputeUnit::Tensor).describe(); }});

    r.add_params({"runtime",
                  "What launching an operator costs, on a stream or in a CUDA graph "
                  "(models/hw/host_launch.h; the trace header's launch: picks one).",
                  [] { return hw::runtime_param_table().describe(); }});
}

}  // namespace sim::analytic
