// SPDX-License-Identifier: MIT
// The analytic fidelity of a GPU-like device: each operator is a job of its Roofline time on
// the device (sim/exec): kernels fill the SMs, collectives the links, host copies the copy
// engines; operators on different streams run at once and share what they both use.
#pragma once

#include <spdlog/spdlog.h>

#include <memory>

#include "models/analytic/core/roofline.h"
#include "models/energy/energy_params.h"
#include "models/hw/host_launch.h"
#include "models/hw/hw_params.h"
#include "sim/core/timeline.h"
#include "sim/registry/op_model.h"
#include "sim/stats/group.h"

namespace sim {
class Registry;
}

namespace sim::analytic {

class AnalyticModel final : public OpModel {
  public:
    AnalyticModel(const hw::HardwareParams& hw,
                  const energy::EnergyParams& energy,
                  StatGroup& stats,
                  std::shared_ptr<spdlog::logger> log,
                  exec::DeviceExecutor& executor);

    bool supports(const Op& op) const override;
    std::string why_unsupported(const Op& op) const override;
    OpResult execute(const Op& op) override;
    HostLaunch host_launch(const Op& op) const override {
        return hw::host_launch_of(hw_.launch, op.launch);
    }

  private:
    const hw::HardwareParams hw_;
    const energy::EnergyParams energy_;
    std::shared_ptr<spdlog::logger> log_;
    RooflineCore core_;
    exec::DeviceExecutor& executor_;
    TimePs compute_busy_{0}, link_busy_{0}, copy_busy_{0};  ///< summed job times

    struct Stats {
        explicit Stats(StatGroup& g);
        Counter& compute_bound;
        Counter& memory_bound;
        Counter& launch_bound;
        Counter& network_bound;
        Counter& host_bound;
        Counter& power_limited;
        Scalar& compute_engine_busy;
        Scalar& link_engine_busy;
        Scalar& copy_engine_busy;
    } stats_;
};

/// Registers the device kind "gpu" and the model "gpu.analytic".
void register_analytic(Registry& r);

}  // namespace sim::analytic
