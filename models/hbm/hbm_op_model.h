// SPDX-License-Identifier: MIT
// The cycle-level HBM model as an operator model: `dram_traffic` operators and device-to-device
// `memcpy` run their requests through every pseudo-channel of the stack model, and the op takes
// the simulated time the last data beat needs. Each op starts from an idle memory system (rows
// closed, refresh phases reset); it occupies the device's kernel engine, shared with kernels.
#pragma once

#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <vector>

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
    /// The op's traffic run on an idle memory, ahead of the run (`--threads`).
    std::vector<std::function<void()>> precompute(const Op& op) override;
    OpResult execute(const Op& op) override;

  private:
    TrafficParams traffic_of(const Op& op) const;
    /// The op's traffic on an idle memory: its time and what it measured, and the energy
    /// of every ACT, data bit and REF it took.
    struct Alone {
        TrafficResult traffic;
        double dram_joules = 0;
    };
    Alone run_alone(const Op& op) const;

    /// Traffic run ahead by precompute, by the op's index in the trace; each entry written
    /// by its task alone, read once every task has finished.
    struct Ahead {
        std::optional<Alone> result;
        std::exception_ptr error;
    };
    std::map<size_t, std::shared_ptr<Ahead>> ahead_;

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
