// SPDX-License-Identifier: MIT
// The systolic array as an operator model: `gemm` and `conv2d` operators of a wallsim trace run
// on the array through the closed-form fold timing of core/fold_timing.h (cycle-exact fill,
// stream and drain per fold, memory stalls from the SRAM sizes and the DRAM bandwidth).
// Each operator is a job on the device (sim/exec): it fills the array and moves its DRAM bytes
// through the device's memory port.
#pragma once

#include "models/systolic/core/fold_timing.h"
#include "sim/core/timeline.h"
#include "sim/registry/op_model.h"
#include "sim/stats/group.h"

namespace sim::systolic {

/// The layer an operator is on the array; batch is how many times it repeats (gemm batch).
struct OpLayer {
    Layer layer;
    uint64_t repeat = 1;
};
/// Lowers a gemm or conv2d operator (padding becomes part of the input; groups must be 1).
OpLayer layer_of(const Op& op);

class SystolicOpModel final : public OpModel {
  public:
    SystolicOpModel(const ArrayParams& params,
                    double dram_bandwidth,
                    StatGroup& stats,
                    exec::DeviceExecutor& executor);

    bool supports(const Op& op) const override { return why_unsupported(op).empty(); }
    std::string why_unsupported(const Op& op) const override;
    OpResult execute(const Op& op) override;

  private:
    ArrayParams params_;
    double dram_bandwidth_;
    exec::DeviceExecutor& executor_;
    struct Stats {
        explicit Stats(StatGroup& g);
        Counter& ops;
        Counter& macs;
        Counter& compute_cycles;
        Counter& stall_cycles;
        Scalar& dram_bytes;
        Distribution& utilisation;
    } stats_;
};

}  // namespace sim::systolic
