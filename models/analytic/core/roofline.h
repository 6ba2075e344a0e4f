// SPDX-License-Identifier: MIT
// The analytic (Roofline) timing of one operator on one device: the slower of computing its
// FLOPs at the peak of its unit and dtype and moving its compulsory bytes at peak bandwidth,
// plus the device-side launch gap of the way it was launched (a stream launch or a CUDA graph
// node; the host's side of launching is the trace driver's). No contention, no caches, no latency:
// this is the bound every cycle-level model must stay above. Pure C++ (no SystemC).
#pragma once

#include <string>

#include "models/hw/hw_params.h"
#include "sim/core/types.h"
#include "sim/trace/op_cost.h"

namespace sim::analytic {

struct RooflineTiming {
    TimePs duration;             ///< total time including the device-side launch gap
    double compute_seconds = 0;  ///< FLOPs / peak
    double memory_seconds = 0;   ///< bytes / bandwidth (HBM, link or host link)
    double roof_flops = 0;       ///< the peak used, FLOP/s
    double roof_bandwidth = 0;   ///< the bandwidth used, B/s
    std::string bound;           ///< compute, memory, network, host, launch or measured
};

class RooflineCore {
  public:
    explicit RooflineCore(const hw::HardwareParams& hw);

    /// Empty when the device can run op; otherwise why not (missing rate, no links, ...).
    std::string unsupported_reason(const Op& op, const OpCost& cost) const;
    /// The timing of op launched as `launch` says; requires unsupported_reason(op, cost).empty().
    /// Throws std::range_error when the op would outlast the engine's 64-bit picosecond clock.
    RooflineTiming time(const OpCost& cost, LaunchMode launch = LaunchMode::Stream) const;

  private:
    const hw::HardwareParams& hw_;
};

}  // namespace sim::analytic
