// SPDX-License-Identifier: MIT
#include "models/systolic/register.h"

#include "models/systolic/systolic_op_model.h"
#include "models/systolic/systolic_params.h"
#include "sim/config/resolved.h"
#include "sim/registry/registry.h"

namespace sim::systolic {

void register_systolic(Registry& r) {
    r.add_device({"systolic",
                  "systolic-array accelerator (TPU-like): R x C MAC array, ws/os/is dataflow, "
                  "SRAM buffers, DRAM bandwidth (configs/hw/README.md)",
                  [](const ConfigNode& hw, StatGroup& stats) {
                      resolved<SystolicParams>(hw).publish(stats);
                  }});
    r.add_model(
        {"systolic.array",
         "R x C systolic array: per-fold fill/stream/drain timing in closed form, "
         "folding, SRAM double buffers, DRAM stalls, energy per MAC/SRAM/DRAM byte",
         "systolic",
         Fidelity::Cycle,
         {OpKind::Gemm, OpKind::Conv2d, OpKind::Elementwise, OpKind::Reduction, OpKind::Memcpy},
         [](const ModelContext& ctx) -> std::unique_ptr<OpModel> {
             const SystolicParams& p = resolved<SystolicParams>(ctx.hw);
             return std::make_unique<SystolicOpModel>(p.array, p.tpu, p.dram_bandwidth, ctx.stats,
                                                      ctx.executor);
         }});
    r.add_command({"systolic", "run a SCALE-Sim topology or a GEMM on a systolic array (--help)",
                   run_systolic_command});
    r.add_params({"systolic",
                  "A systolic-array device (models/systolic/core/array_params.h): the MAC "
                  "array.",
                  [] { return array_param_table().describe(); }, "systolic"});
    r.add_params({"systolic.sram", "The array's SRAM buffers.",
                  [] { return sram_param_table().describe(); }, "systolic"});
    r.add_params({"systolic.dram",
                  "The DRAM behind the buffers (models/systolic/systolic_params.h).",
                  [] { return dram_param_table().describe(); }, "systolic"});
    r.add_params({"systolic.energy", "The array's energy per event and static power.",
                  [] { return energy_param_table().describe(); }, "systolic"});
    r.add_params({"systolic.tpu",
                  "TPU v1's pipeline around the matrix unit (models/systolic/core/"
                  "tpu_pipeline.h): present, it runs matrix operators.",
                  [] { return tpu_param_table().describe(); }, "systolic"});
}

}  // namespace sim::systolic
