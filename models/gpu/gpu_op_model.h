// SPDX-License-Identifier: MIT
// The cycle-level GPU as an operator model: an operator the kernel library can lower
// (element-wise, d2d memcpy, reduction, softmax, layernorm, embedding, GEMM, conv2d,
// attention) runs as a kernel on
// GpuCore, from a cold L2 and an idle memory system; the op takes the simulated kernel time plus
// the device-side gap of its launch (stream or graph node), as a job on the device (sim/exec): it
// fills the share of the SMs its CTAs occupy and moves its DRAM bytes through the device's memory
// port. Two registrations share it: `gpu.sm` (sampled: steady CTA waves, then extrapolated) and
// `gpu.sm_cycle` (every CTA).
#pragma once

#include <map>
#include <string>
#include "models/energy/energy_params.h"

#include "models/gpu/gpu_params.h"
#include "models/gpu/kernels/kernels.h"
#include "models/hw/host_launch.h"
#include "models/hw/hw_params.h"
#include "sim/core/timeline.h"
#include "sim/registry/op_model.h"
#include "sim/stats/group.h"

namespace sim::gpu {

class GpuOpModel final : public OpModel {
  public:
    /// What running an operator's kernels gave; identical operators give identical results
    /// (each kernel starts from a cold L2), so they are simulated once and then reused.
    struct Outcome {
        TimePs kernel_time;
        KernelMetrics metrics;
        EnergyBreakdown energy;
        bool extrapolated = false;
        double warp_instructions_simulated = 0, cycles_simulated = 0;
        double clock_hz = 0;      ///< busy-time-weighted SM clock the kernels ran at
        double max_clock_hz = 0;  ///< the same without the power limit
        bool power_limited = false;
    };
    using Outcomes = std::map<std::string, Outcome>;  ///< by operator (op_key)

    /// outcomes: the table of simulated operators, shared by the models of identical devices
    /// (sim/registry/shared_results.h); null: a table of its own.
    GpuOpModel(const GpuParams& params,
               const energy::EnergyParams& energy,
               const hw::HardwareParams& hw,
               bool sampled,
               StatGroup& stats,
               exec::DeviceExecutor& executor,
               Outcomes* outcomes = nullptr);

    bool supports(const Op& op) const override { return why_unsupported(op).empty(); }
    /// Throws ConfigError (the op's trace line) when the op's kernel hints cannot run here.
    std::string why_unsupported(const Op& op) const override;
    OpResult execute(const Op& op) override;
    HostLaunch host_launch(const Op& op) const override {
        return hw::host_launch_of(hw_.launch, op.launch);
    }

  private:
    Outcome run_kernels(const Op& op, const std::vector<KernelLaunch>& kernels) const;
    /// op's outcome, simulated or (a decode step's context-length kernels) interpolated.
    Outcome outcome_of(const Op& op);
    /// op's outcome from the table, simulating it the first time.
    Outcome simulate(const Op& op);
    GpuTarget target() const { return {params_.core, params_.tensor}; }
    KernelMetrics metrics_of(const KernelLaunch& k,
                             const KernelResult& r,
                             const GpuCore& core) const;
    EnergyBreakdown energy_of(const KernelResult& r, const GpuCore& core, DType dtype) const;

    GpuParams params_;
    energy::EnergyParams energy_;
    hw::HardwareParams hw_;
    Outcomes own_outcomes_;
    Outcomes& outcomes_;
    /// The first context length seen of each family of decode-step kernels (context_axis.h):
    /// a family is interpolated once a step brings a second length.
    std::map<std::string, uint64_t> first_length_;
    bool sampled_;
    exec::DeviceExecutor& executor_;
    struct Stats {
        explicit Stats(StatGroup& g);
        Counter& kernels;
        Counter& extrapolated;
        Counter& reused;
        Counter& interpolated;
        Counter& power_limited;
        Scalar& warp_instructions;
        Scalar& simulated_cycles;
        Distribution& dram_utilisation;
        Distribution& achieved_occupancy;
    } stats_;
};

}  // namespace sim::gpu
