// SPDX-License-Identifier: MIT
#include "models/hbm/hbm_op_model.h"

#include <systemc>

#include "models/hbm/hbm_stats.h"
#include "sim/time/clock_domain.h"

namespace sim::hbm {

namespace {
constexpr uint32_t kCopyRequestBytes = 64;
}

HbmOpModel::Stats::Stats(StatGroup& g)
    : ops(g.add_counter("ops", "count", "operators run on the cycle-level HBM model")),
      bytes(g.add_scalar("bytes", "B", "bytes those operators moved")),
      busy(g.add_scalar("busy_time", "s", "simulated time the memory system was busy with them")),
      utilisation(g.add_distribution(
          "bandwidth_utilisation", "ratio", "achieved / peak HBM bandwidth per op")),
      read_latency(g.add_distribution("read_latency_mean", "ns", "mean read latency per op")) {}

HbmOpModel::HbmOpModel(const HbmParams& params,
                       double static_power,
                       StatGroup& stats,
                       exec::DeviceExecutor& executor,
                       uint64_t seed)
    : params_(params),
      static_power_(static_power),
      granule_bytes_(HbmSystem(params.core).max_request_bytes()),
      executor_(executor),
      seed_(seed),
      stats_(stats) {}

TrafficParams HbmOpModel::traffic_of(const Op& op) const {
    TrafficParams tp;
    if (const auto* d = std::get_if<DramTrafficParams>(&op.params)) {
        tp.pattern = parse_pattern(d->pattern);
        tp.bytes = d->bytes;
        tp.request_bytes = static_cast<uint32_t>(d->request_bytes);
        tp.outstanding = static_cast<uint32_t>(d->outstanding);
        tp.stride = d->stride;
        // The run's --seed and the op's own seed together pick the random addresses.
        tp.seed = d->seed * 0x9E3779B97F4A7C15ULL ^ seed_;
    } else if (const auto* m = std::get_if<MemcpyParams>(&op.params)) {
        tp.pattern = Pattern::Copy;
        tp.bytes = 2 * m->bytes;  // every byte is read once and written once
        tp.request_bytes = kCopyRequestBytes;
    }
    return tp;
}

std::string HbmOpModel::why_unsupported(const Op& op) const {
    if (op.kind == OpKind::Memcpy) {
        const auto& m = std::get<MemcpyParams>(op.params);
        if (m.direction != "d2d") return "host copies cross PCIe, not the HBM model";
        if (m.bytes < kCopyRequestBytes) return "copies under 64 B are not modelled";
        return {};
    }
    if (op.kind != OpKind::DramTraffic)
        return "the HBM model runs dram_traffic and d2d memcpy only";
    const TrafficParams tp = traffic_of(op);
    if (tp.request_bytes % params_.core.shape.access_bytes != 0 ||
        tp.request_bytes > granule_bytes_) {
        return "request_bytes must be a multiple of " +
               std::to_string(params_.core.shape.access_bytes) + " B and at most " +
               std::to_string(granule_bytes_) + " B (one row of one pseudo-channel)";
    }
    if (tp.pattern == Pattern::Strided && tp.stride % tp.request_bytes != 0) {
        return "stride must be a multiple of request_bytes";
    }
    return {};
}

HbmOpModel::Alone HbmOpModel::run_alone(const Op& op) const {
    HbmSystem system(params_.core);
    Alone a;
    a.traffic = run_traffic(system, traffic_of(op));
    a.dram_joules = hbm_energy(params_, system);
    return a;
}

std::vector<std::function<void()>> HbmOpModel::precompute(const Op& op) {
    auto ahead = std::make_shared<Ahead>();
    ahead_[op.index] = ahead;
    return {[this, op, ahead]() {
        try {
            ahead->result = run_alone(op);
        } catch (...) {
            ahead->error = std::current_exception();
        }
    }};
}

OpResult HbmOpModel::execute(const Op& op) {
    const auto ahead = ahead_.find(op.index);
    if (ahead != ahead_.end() && ahead->second->error) std::rethrow_exception(ahead->second->error);
    const Alone alone =
        ahead != ahead_.end() && ahead->second->result ? *ahead->second->result : run_alone(op);
    const TrafficResult& r = alone.traffic;
    const ClockDomain clock("hbm", params_.core.clock_hz);
    const TimePs duration = clock.to_ps(Cycle{r.cycles});
    // Memory traffic with no kernel behind it: only the memory port is shared.
    exec::Job job{duration};
    job.memory_bytes = double(r.bytes_read + r.bytes_written);
    busy_ += duration;
    const exec::JobTimes ran = executor_.run(job);
    const TimePs start = ran.start;
    const TimePs end = ran.end;

    const double bytes = double(r.bytes_read + r.bytes_written);
    const double seconds = to_seconds(duration);
    ++stats_.ops;
    stats_.bytes += bytes;
    stats_.busy.set(to_seconds(busy_));
    stats_.utilisation.sample(seconds > 0 ? bytes / seconds / params_.peak_bandwidth() : 0.0);
    stats_.read_latency.sample(r.read_latency.mean() * 1e9 /
                               static_cast<double>(params_.core.clock_hz));

    OpResult res;
    res.start = start;
    res.end = end;
    res.cost = cost_of(op);
    res.cost.dram_bytes = bytes;  // what actually crossed the HBM interface
    res.roof_bandwidth = params_.peak_bandwidth();
    res.bound = "memory";
    res.fidelity = Fidelity::Cycle;
    res.model = "gpu.hbm";
    res.energy.dram = alone.dram_joules;  // every ACT, data bit and REF, counted
    res.static_power = static_power_;
    return res;
}

}  // namespace sim::hbm
