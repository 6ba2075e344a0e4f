// SPDX-License-Identifier: MIT
// The cycle-level GPU as an operator model: an operator the kernel library can lower
// (element-wise, d2d memcpy, reduction, softmax, layernorm, embedding) runs as a kernel on
// GpuCore, from a cold L2 and an idle memory system; the op takes the simulated kernel time plus
// the launch overhead, on the device's kernel engine. Two registrations share it: `gpu.sm`
// (sampled: steady CTA waves, then extrapolated) and `gpu.sm_cycle` (every CTA).
#pragma once

#include "models/energy/energy_params.h"
#include "models/gpu/gpu_params.h"
#include "sim/core/timeline.h"
#include "sim/registry/op_model.h"
#include "sim/stats/group.h"

namespace sim::gpu {

class GpuOpModel final : public OpModel {
  public:
    GpuOpModel(const GpuParams& params,
               const energy::EnergyParams& energy,
               double peak_fp32_flops,
               uint64_t launch_overhead_ps,
               bool sampled,
               StatGroup& stats,
               EngineSet& engines);

    bool supports(const Op& op) const override { return why_unsupported(op).empty(); }
    /// Throws ConfigError (the op's trace line) when the op's kernel hints cannot run here.
    std::string why_unsupported(const Op& op) const override;
    OpResult execute(const Op& op) override;

  private:
    KernelMetrics metrics_of(const KernelLaunch& k,
                             const KernelResult& r,
                             const GpuCore& core) const;
    EnergyBreakdown energy_of(const KernelResult& r, const GpuCore& core) const;

    GpuParams params_;
    energy::EnergyParams energy_;
    double peak_fp32_flops_;
    uint64_t launch_overhead_ps_;
    bool sampled_;
    Timeline& engine_;
    struct Stats {
        explicit Stats(StatGroup& g);
        Counter& kernels;
        Counter& extrapolated;
        Scalar& warp_instructions;
        Scalar& simulated_cycles;
        Distribution& dram_utilisation;
        Distribution& achieved_occupancy;
    } stats_;
};

}  // namespace sim::gpu
