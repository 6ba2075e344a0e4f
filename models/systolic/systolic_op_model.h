// SPDX-License-Identifier: MIT
// The systolic array as an operator model: `gemm` and `conv2d` operators of a wallsim trace run
// on the array through the closed-form fold timing of core/fold_timing.h (cycle-exact fill,
// stream and drain per fold, memory stalls from the SRAM sizes and the DRAM bandwidth). With a
// `tpu:` section, TPU v1's pipeline (core/tpu_pipeline.h) times them instead, and also runs
// `elementwise` (vector layers) and `reduction` (pooling) on the activation unit and h2d/d2h
// `memcpy` over the host link. Each operator is a job on the device (sim/exec): it fills the
// array and moves its DRAM bytes through the device's memory port.
#pragma once

#include "models/systolic/core/fold_timing.h"
#include "models/systolic/core/op_layer.h"
#include "sim/core/timeline.h"
#include "sim/registry/op_model.h"
#include "sim/stats/group.h"

namespace sim::systolic {

class SystolicOpModel final : public OpModel {
  public:
    SystolicOpModel(const ArrayParams& params,
                    const TpuParams& tpu,
                    double dram_bandwidth,
                    StatGroup& stats,
                    exec::DeviceExecutor& executor);

    bool supports(const Op& op) const override { return why_unsupported(op).empty(); }
    std::string why_unsupported(const Op& op) const override;
    OpResult execute(const Op& op) override;

  private:
    OpResult execute_tpu(const Op& op);
    OpResult finish(const Op& op, uint64_t cycles, double dram_bytes);
    ArrayParams params_;
    TpuParams tpu_;
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
        Counter& active_cycles;
        Counter& weight_stall_cycles;
        Counter& weight_shift_cycles;
        Counter& non_matrix_cycles;
    } stats_;
};

}  // namespace sim::systolic
