// SPDX-License-Identifier: MIT
#include "models/analytic/analytic_model.h"

#include <cmath>
#include <systemc>

#include "sim/exec/core/link_sends.h"

namespace sim::analytic {

using energy::ClockedLoad;
using energy::GovernedLoad;

namespace {
// sc_time and TimePs are 64-bit picoseconds; keep a margin below the wrap.
constexpr uint64_t kLatestPs = uint64_t{1} << 62;
}  // namespace

AnalyticModel::Stats::Stats(StatGroup& g)
    : compute_bound(g.add_counter("compute_bound_ops", "count", "ops limited by peak FLOP/s")),
      memory_bound(g.add_counter("memory_bound_ops", "count", "ops limited by HBM bandwidth")),
      launch_bound(
          g.add_counter("launch_bound_ops", "count", "ops whose launch gap exceeds their work")),
      network_bound(g.add_counter("network_bound_ops", "count", "collectives (link-limited)")),
      host_bound(g.add_counter("host_bound_ops", "count", "host copies (PCIe-limited)")),
      power_limited(g.add_counter(
          "power_limited_ops", "count", "ops the power limit slowed (clock lowered)")),
      compute_engine_busy(
          g.add_scalar("compute_engine_busy", "s", "time the kernel engine was busy")),
      link_engine_busy(g.add_scalar("link_engine_busy", "s", "time the link engine was busy")),
      copy_engine_busy(
          g.add_scalar("copy_engine_busy", "s", "time the host copy engine was busy")) {}

AnalyticModel::AnalyticModel(const hw::HardwareParams& hw,
                             const energy::EnergyParams& energy,
                             StatGroup& stats,
                             std::shared_ptr<spdlog::logger> log,
                             exec::DeviceExecutor& executor)
    : hw_(hw),
      energy_(energy),
      log_(std::move(log)),
      core_(hw_),
      executor_(executor),
      stats_(stats) {}

bool AnalyticModel::supports(const Op& op) const {
    return why_unsupported(op).empty();
}

std::string AnalyticModel::why_unsupported(const Op& op) const {
    return core_.unsupported_reason(op, cost_of(op));
}

OpResult AnalyticModel::execute(const Op& op) {
    const OpCost cost = cost_of(op);
    RooflineTiming timing;
    try {
        timing = core_.time(cost, op.launch);
    } catch (const std::range_error& e) {
        throw ConfigError(op.where, "kind", "operator '" + op.name + "': " + e.what());
    }
    // The power limit: an op that would draw more than TDP at the maximum clock runs at the
    // highest clock that fits, its compute time stretched and its on-chip energy at that
    // clock's voltage.
    GovernedLoad governed;
    EnergyBreakdown charged = energy::charge(energy_.table, cost);
    // A replayed measurement (custom duration_us) is not re-timed by the governor.
    const bool on_sms = (cost.unit == ComputeUnit::Vector || cost.unit == ComputeUnit::Tensor) &&
                        cost.replay_ps == 0;
    if (on_sms) {
        const ClockedLoad load = energy::analytic_load(energy_, hw_, cost, charged);
        governed = energy::govern(energy_.governor, load);
        if (governed.limited) {
            if (!(governed.seconds <= 1e6))  // the Roofline's own limit (roofline.cpp)
                throw ConfigError(
                    op.where, "kind",
                    "operator '" + op.name + "' would end beyond the simulator's time range");
            timing.duration = TimePs{static_cast<uint64_t>(std::ceil(
                                  governed.seconds * static_cast<double>(kPsPerSecond)))} +
                              TimePs{hw_.launch.gap_ps(op.launch)};
            timing.compute_seconds = governed.seconds;
            ++stats_.power_limited;
        }
    }
    const TimePs now{sc_core::sc_time_stamp().value()};
    if (timing.duration.value() > kLatestPs || now.value() > kLatestPs - timing.duration.value()) {
        throw ConfigError(op.where, "kind",
                          "operator '" + op.name + "' would end beyond the simulator's time range");
    }
    // A kernel fills the SMs; a collective the links (its memory traffic: what it sends and
    // what it receives); a host copy the copy engines.
    exec::Job job{timing.duration};
    if (cost.unit == ComputeUnit::Network) {
        job.link = 1;
        // A peer copy runs on the copy engines; a collective's kernels on a few SMs.
        if (op.kind == OpKind::Memcpy)
            job.copy = 1;
        else
            job.compute = hw_.collective_sm_share();
        job.memory_bytes = 2 * cost.wire_bytes;
        // Over named devices, what it sends crosses the system's link modules.
        job.link_sends = exec::group_sends(
            op, op.kind == OpKind::AllToAll ? exec::SendPattern::AllToAll : exec::SendPattern::Ring,
            cost.wire_bytes, executor_);
        link_busy_ += timing.duration;
    } else if (cost.unit == ComputeUnit::Host) {
        job.copy = 1;
        job.memory_bytes = cost.host_bytes;
        copy_busy_ += timing.duration;
    } else {
        job.compute = 1;
        job.memory_bytes = cost.dram_bytes;
        compute_busy_ += timing.duration;
    }
    const exec::JobTimes ran = executor_.run(job);
    const TimePs start = ran.start;
    const TimePs end = ran.end;
    SPDLOG_LOGGER_DEBUG(log_, "{} ({}): {} bound, {:.3f} us from {:.3f} us", op.name,
                        to_string(op.kind), timing.bound, to_seconds(end - start) * 1e6,
                        to_seconds(start) * 1e6);

    if (timing.bound == "compute")
        ++stats_.compute_bound;
    else if (timing.bound == "memory")
        ++stats_.memory_bound;
    else if (timing.bound == "launch")
        ++stats_.launch_bound;
    else if (timing.bound == "network")
        ++stats_.network_bound;
    else if (timing.bound == "host")
        ++stats_.host_bound;
    // Replayed measurements (bound "measured") are counted in run.by_bound.measured.
    stats_.compute_engine_busy.set(to_seconds(compute_busy_));
    stats_.link_engine_busy.set(to_seconds(link_busy_));
    stats_.copy_engine_busy.set(to_seconds(copy_busy_));

    OpResult r;
    r.start = start;
    r.end = end;
    r.launch_gap = TimePs{hw_.launch.gap_ps(op.launch)};
    r.cost = cost;
    r.roof_flops = timing.roof_flops;
    r.roof_bandwidth = timing.roof_bandwidth;
    r.bound = timing.bound;
    r.fidelity = Fidelity::Analytic;
    r.model = "gpu.analytic";
    r.energy = charged;
    r.static_power = energy_.table.static_power;
    r.power_limit = energy_.governor.power_limit_w;
    if (on_sms) {
        r.energy.compute *= governed.voltage_factor;
        r.energy.sram *= governed.voltage_factor;
        r.energy.l2 *= governed.voltage_factor;
        r.clock_hz = governed.clock_hz;
        r.max_clock_hz = energy::max_clock_of(hw_, cost.unit, cost.dtype);
        r.power_limited = governed.limited;
    }
    return r;
}

}  // namespace sim::analytic
