// SPDX-License-Identifier: MIT
#include "models/analytic/core/roofline.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "sim/core/error.h"

namespace sim::analytic {

namespace {
// The engine keeps time in 64-bit picoseconds (about 213 days); refuse anything near that.
constexpr double kMostSeconds = 1e6;

TimePs ceil_ps(double seconds) {
    if (!(seconds <= kMostSeconds)) {
        throw std::range_error("it would take " + std::to_string(seconds) +
                               " s, beyond the simulator's time range (1e6 s per operator)");
    }
    return TimePs{static_cast<uint64_t>(std::ceil(seconds * static_cast<double>(kPsPerSecond)))};
}
}  // namespace

RooflineCore::RooflineCore(const hw::HardwareParams& hw) : hw_(hw) {}

std::string RooflineCore::unsupported_reason(const Op& op, const OpCost& cost) const {
    if (op.kind == OpKind::PointerChase) {
        return "a pointer chase measures load-to-use latency, which a Roofline has not got "
               "(run it at cycle or sampled fidelity)";
    }
    if (op.kind == OpKind::CacheRead) {
        return "a cache read measures the bandwidth of the caches, which a Roofline has not got "
               "(run it at cycle or sampled fidelity)";
    }
    switch (cost.unit) {
        case ComputeUnit::Network:
            if (hw_.nvlink_bandwidth_per_direction() <= 0) {
                return "this hardware has no device links (nvlink.links is 0 or absent)";
            }
            return {};
        case ComputeUnit::Host:
            if (hw_.pcie_bandwidth_per_direction() <= 0) {
                return "this hardware has no host link (pcie.lanes is 0 or absent)";
            }
            return {};
        case ComputeUnit::Vector:
        case ComputeUnit::Tensor:
            if (cost.flops > 0 && hw_.peak_flops(cost.unit, cost.dtype) <= 0) {
                return "this hardware has no " + to_string(cost.unit) + " rate for " +
                       to_string(cost.dtype) + " (compute." + to_string(cost.unit) +
                       ".flops_per_clock." + to_string(cost.dtype) + ")";
            }
            (void)op;
            return {};
    }
    return "unknown unit";
}

RooflineTiming RooflineCore::time(const OpCost& cost, LaunchMode launch_mode) const {
    RooflineTiming t;
    switch (cost.unit) {
        case ComputeUnit::Network:
            t.roof_bandwidth = hw_.nvlink_data_bandwidth_per_direction();
            t.memory_seconds = cost.wire_bytes / t.roof_bandwidth;
            t.bound = "network";
            break;
        case ComputeUnit::Host:
            t.roof_bandwidth = hw_.pcie_bandwidth_per_direction();
            t.memory_seconds = cost.host_bytes / t.roof_bandwidth;
            t.bound = "host";
            break;
        case ComputeUnit::Vector:
        case ComputeUnit::Tensor: {
            t.roof_flops = hw_.peak_flops(cost.unit, cost.dtype);
            t.roof_bandwidth = hw_.hbm_bandwidth();
            SIM_ASSERT(cost.flops == 0 || t.roof_flops > 0, "no roof for a supported op");
            t.compute_seconds = cost.flops > 0 ? cost.flops / t.roof_flops : 0.0;
            t.memory_seconds = cost.dram_bytes / t.roof_bandwidth;
            t.bound = t.compute_seconds >= t.memory_seconds ? "compute" : "memory";
            break;
        }
    }
    const uint64_t gap_ps = hw_.launch.gap_ps(launch_mode);
    const double launch = static_cast<double>(gap_ps) / kPsPerSecond;
    if (cost.replay_ps > 0) {
        // A measured kernel body replayed as is (an imported kernel no model describes),
        // launched like any other kernel; its FLOPs and bytes, if known, do not time it.
        const double replay = static_cast<double>(cost.replay_ps) / kPsPerSecond;
        if (!(replay + launch <= kMostSeconds)) ceil_ps(replay + launch);  // throws
        t.bound = "measured";
        t.duration = TimePs{cost.replay_ps} + TimePs{gap_ps};
        return t;
    }
    const double busy = std::max(t.compute_seconds, t.memory_seconds);
    if (!(busy + launch <= kMostSeconds)) ceil_ps(busy + launch);  // throws
    // An op whose launch gap exceeds its work is latency-bound, not on either roof.
    if (launch > busy) t.bound = "launch";
    t.duration = ceil_ps(busy) + TimePs{gap_ps};
    return t;
}

}  // namespace sim::analytic
