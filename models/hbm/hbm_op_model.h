// SPDX-License-Identifier: MIT
// The cycle-level HBM model as an operator model: `dram_traffic` operators and device-to-device
// `memcpy` run their requests through every pseudo-channel of the stack model, and the op takes
// the simulated time the last data beat needs. Each op starts from an idle memory system (rows
// closed, refresh phases reset); it occupies the device's kernel engine, shared with kernels.
#pragma once

#include "models/hbm/core/traffic.h"
#include "models/hbm/hbm_params.h"
#include "sim/core/timeline.h"
#include "sim/registry/op_model.h"
#include "sim/stats/group.h"

namespace sim::hbm {

class HbmOpModel final : public OpModel {
  public:
    /// Memory-system ops occupy the device's "kernel" engine, which kernels share: HBM
    /// bandwidth is never booked twice.
    /// static_power: the device's, W (from its energy tables), reported with each op.
    HbmOpModel(const HbmParams& params,
               double static_power,
               StatGroup& stats,
               exec::DeviceExecutor& executor,
               uint64_t seed);

    bool supports(const Op& op) const override { return why_unsupported(op).empty(); }
    std::string why_unsupported(const Op& op) const override;
    OpResult execute(const Op& op) override;

  private:
    TrafficParams traffic_of(const Op& op) const;

    HbmParams params_;
    double static_power_;
    uint32_t granule_bytes_;
    exec::DeviceExecutor& executor_;
    TimePs busy_{0};  ///< summed op times
    uint64_t seed_;
    struct Stats {
        explicit Stats(StatGroup& g);
        Counter& ops;
        Scalar& bytes;
        Scalar& busy;
        Distribution& utilisation;
        Distribution& read_latency;
    } stats_;
};

}  // namespace sim::hbm
