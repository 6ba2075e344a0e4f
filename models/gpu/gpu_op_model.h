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

#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <optional>
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
    /// An operator's kernels simulated ahead of the run (precompute), on another thread: its
    /// outcome, or what its simulation threw.
    struct Ahead {
        std::optional<Outcome> outcome;
        std::exception_ptr error;
    };
    struct Tables {
        Outcomes outcomes;  ///< operators whose outcome execute() has used
        /// Simulations planned ahead, by op_key; an entry is written by its task alone, and
        /// read only after every task has finished.
        std::map<std::string, std::shared_ptr<Ahead>> ahead;
    };

    /// tables: the simulated operators, shared by the models of identical devices
    /// (sim/registry/shared_results.h); null: tables of its own.
    GpuOpModel(const GpuParams& params,
               const energy::EnergyParams& energy,
               const hw::HardwareParams& hw,
               bool sampled,
               StatGroup& stats,
               exec::DeviceExecutor& executor,
               Tables* tables = nullptr);

    bool supports(const Op& op) const override { return why_unsupported(op).empty(); }
    /// Throws ConfigError (the op's trace line) when the op's kernel hints cannot run here.
    std::string why_unsupported(const Op& op) const override;
    /// The simulation of op's kernels (or, for a decode step's kernel between two context
    /// lengths, of the two lengths around it), unless planned already: what outcome_of will
    /// need, as far as the trace order tells.
    std::vector<std::function<void()>> precompute(const Op& op) override;
    OpResult execute(const Op& op) override;
    HostLaunch host_launch(const Op& op) const override {
        return hw::host_launch_of(hw_.launch, op.launch);
    }

  private:
    Outcome run_kernels(const Op& op, const std::vector<KernelLaunch>& kernels) const;
    /// op's outcome, simulated or (a decode step's context-length kernels) interpolated.
    Outcome outcome_of(const Op& op);
    /// op's outcome from the table, simulating it the first time (or taking the simulation
    /// precompute ran).
    Outcome simulate(const Op& op);
    /// A task simulating op ahead, unless its key is planned already.
    void plan(const Op& op, std::vector<std::function<void()>>& tasks);
    GpuTarget target() const { return {params_.core, params_.tensor}; }
    KernelMetrics metrics_of(const KernelLaunch& k,
                             const KernelResult& r,
                             const GpuCore& core) const;

    GpuParams params_;
    energy::EnergyParams energy_;
    hw::HardwareParams hw_;
    Tables own_tables_;
    Outcomes& outcomes_;
    std::map<std::string, std::shared_ptr<Ahead>>& ahead_;
    /// first_length_ as precompute predicts it, from the trace order.
    std::map<std::string, uint64_t> planned_first_length_;
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
