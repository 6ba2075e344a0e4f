// SPDX-License-Identifier: MIT
// The analytic fidelity of a GPU-like device: each operator occupies one engine (kernels the
// compute engine, collectives the link engine, host copies the copy engine) for its Roofline
// time. Engines serve in arrival order, so streams overlap only across engines.
#pragma once

#include <spdlog/spdlog.h>

#include <memory>

#include "models/analytic/core/roofline.h"
#include "models/energy/energy_params.h"
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
                  EngineSet& engines);

    bool supports(const Op& op) const override;
    std::string why_unsupported(const Op& op) const override;
    OpResult execute(const Op& op) override;

  private:
    Timeline& engine_for(ComputeUnit unit);

    const hw::HardwareParams hw_;
    const energy::EnergyParams energy_;
    std::shared_ptr<spdlog::logger> log_;
    RooflineCore core_;
    Timeline& compute_engine_;
    Timeline& link_engine_;
    Timeline& copy_engine_;

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
