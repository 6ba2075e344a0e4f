// SPDX-License-Identifier: MIT
#include "models/gpu/register.h"

#include "models/energy/energy_params.h"
#include "models/gpu/gpu_op_model.h"
#include "models/gpu/gpu_params.h"
#include "models/hw/hw_params.h"
#include "sim/config/resolved.h"
#include "sim/registry/registry.h"

namespace sim::gpu {

namespace {

ModelFactory factory(bool sampled) {
    return [sampled](const ModelContext& ctx) -> std::unique_ptr<OpModel> {
        const auto& hw = resolved<hw::HardwareParams>(ctx.hw);
        // Devices with the same configuration simulate each operator once between them.
        GpuOpModel::Tables* shared = ctx.shared
                                         ? &ctx.shared->table<GpuOpModel::Tables>(
                                               std::string(sampled ? "gpu.sm" : "gpu.sm_cycle") +
                                               "\n" + ctx.config_fingerprint)
                                         : nullptr;
        return std::make_unique<GpuOpModel>(resolved<GpuParams>(ctx.hw),
                                            resolved<energy::EnergyParams>(ctx.hw), hw, sampled,
                                            ctx.stats, ctx.executor, shared);
    };
}

const std::vector<OpKind> kKernelKinds{OpKind::Elementwise,  OpKind::Memcpy,    OpKind::Reduction,
                                       OpKind::Softmax,      OpKind::Layernorm, OpKind::Embedding,
                                       OpKind::Gemm,         OpKind::Conv2d,    OpKind::Attention,
                                       OpKind::PointerChase, OpKind::BulkCopy,  OpKind::CacheRead};

}  // namespace

void register_gpu(Registry& r) {
    r.add_model({"gpu.sm",
                 "cycle-level SMs (warp schedulers, scoreboard, SIMT), L1, L2 slices and HBM "
                 "running the kernel library; CTA waves until steady, then extrapolated",
                 "gpu", Fidelity::Sampled, kKernelKinds, factory(true)});
    r.add_model({"gpu.sm_cycle", "the same cycle-level GPU simulating every CTA of every kernel",
                 "gpu", Fidelity::Cycle, kKernelKinds, factory(false)});
    r.add_params({"sm",
                  "The SMs: their count, which every model reads (models/hw/hw_params.h), and "
                  "the cycle-level SM (models/gpu/core/gpu_config.h), whose clock and FP32 lanes "
                  "come from clocks: and compute.vector.",
                  [] { return joined_docs(hw::sm_count_param_table(), sm_param_table()); }});
    for (const auto& [key, which] : kPipelines) {
        r.add_params({std::string("sm.pipelines.") + key,
                      std::string("The ") + key +
                          " pipeline of each sub-partition (models/gpu/core/gpu_config.h).",
                      [which = which] { return pipeline_param_table(which).describe(); }});
    }
    r.add_params({"sm.tensor_core",
                  "The Tensor Cores' instruction and operand path (models/tensor_core/"
                  "tensor_core.h); their rates per precision are the datasheet's "
                  "compute.tensor keys (configs/hw/README.md).",
                  [] { return tensor_core_param_table().describe(); }});
    r.add_params({"sm.l1", "The L1 data cache of each SM (models/gpu/core/gpu_config.h).",
                  [] { return l1_param_table().describe(); }});
    r.add_params({"l2",
                  "The L2 cache: its size, which every model reads (models/hw/hw_params.h), and "
                  "the cycle-level slices and latencies (models/gpu/core/gpu_config.h).",
                  [] { return joined_docs(hw::l2_size_param_table(), l2_param_table()); }});
}

}  // namespace sim::gpu
