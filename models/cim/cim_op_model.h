// SPDX-License-Identifier: MIT
// Runs a trace's gemm and conv2d operators on a CIM chip (a hardware file with `device: cim`,
// e.g. configs/cim/isaac.yaml): each is mapped onto weight-stationary crossbars (convolutions
// by im2col), timed by counting read cycles and ADC conversions (models/cim/core), and charged
// its energy per component. Weights of a layer that fits are assumed resident (inference); a
// layer larger than the chip pays for rewriting them between passes. Batched GEMMs (two
// activation operands) and grouped convolutions are not supported: their "weights" change
// with every batch, which is what a crossbar cannot do cheaply.
#pragma once

#include <array>

#include "models/cim/core/cim_config.h"
#include "models/cim/core/energy_area.h"
#include "models/cim/core/layer_mapping.h"
#include "sim/core/timeline.h"
#include "sim/registry/op_model.h"
#include "sim/stats/group.h"

namespace sim::cim {

class CimOpModel : public OpModel {
  public:
    CimOpModel(const CimConfig& cfg, StatGroup& stats, exec::DeviceExecutor& executor);

    bool supports(const Op& op) const override;
    std::string why_unsupported(const Op& op) const override;
    OpResult execute(const Op& op) override;

  private:
    struct Stats {
        Counter& layers;
        Counter& passes;
        Scalar& crossbar_time;
        Scalar& adc_conversions;
        Scalar& ops;
        std::array<Scalar*, kComponentCount> energy;
        Scalar& energy_total;
        explicit Stats(StatGroup& g);
    };

    const CimConfig cfg_;
    const PeakFigures peak_;
    exec::DeviceExecutor& executor_;
    Stats stats_;
};

}  // namespace sim::cim
