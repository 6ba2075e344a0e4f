// SPDX-License-Identifier: MIT
#include "models/gpu/gpu_op_model.h"

#include <algorithm>
#include <cmath>
#include <systemc>

#include "models/gpu/context_axis.h"
#include "models/gpu/kernel_charge.h"
#include "models/gpu/kernels/kernels.h"
#include "models/gpu/op_key.h"
#include "models/hbm/hbm_stats.h"
#include "sim/core/error.h"
#include "sim/time/clock_domain.h"

namespace sim::gpu {

namespace {
/// The engine keeps time in 64-bit picoseconds; an op must end well inside that.
constexpr uint64_t kLatestPs = uint64_t{1} << 62;
/// The kernel metrics that are amounts: the kernels of an op add them up, and an op between
/// two simulated context lengths takes them in proportion.
constexpr double KernelMetrics::*kAdditiveMetrics[] = {
    &KernelMetrics::warp_instructions, &KernelMetrics::l1_bytes,
    &KernelMetrics::l2_bytes,          &KernelMetrics::dram_read_bytes,
    &KernelMetrics::dram_write_bytes,  &KernelMetrics::shared_bytes};
}  // namespace

GpuOpModel::Stats::Stats(StatGroup& g)
    : kernels(g.add_counter("kernels", "count", "operators run as kernels on the cycle-level GPU")),
      extrapolated(g.add_counter("extrapolated",
                                 "count",
                                 "kernels stopped after steady waves and extrapolated (sampled)")),
      reused(g.add_counter(
          "reused", "count", "operators identical to one simulated before, given its result")),
      interpolated(g.add_counter("interpolated",
                                 "count",
                                 "decode-step kernels interpolated between the two context "
                                 "lengths of the grid around theirs")),
      power_limited(g.add_counter(
          "power_limited", "count", "kernels the power limit slowed (SM clock lowered)")),
      warp_instructions(g.add_scalar("warp_instructions_simulated",
                                     "count",
                                     "warp-instructions issued in simulation (not extrapolated)")),
      simulated_cycles(g.add_scalar("simulated_cycles", "cycles", "SM cycles simulated")),
      dram_utilisation(g.add_distribution(
          "dram_bandwidth_utilisation", "ratio", "achieved / peak HBM bandwidth per kernel")),
      achieved_occupancy(g.add_distribution(
          "achieved_occupancy", "ratio", "time-averaged resident warps / max per SM, per kernel")) {
}

GpuOpModel::GpuOpModel(const GpuParams& params,
                       const energy::EnergyParams& energy,
                       const hw::HardwareParams& hw,
                       bool sampled,
                       StatGroup& stats,
                       exec::DeviceExecutor& executor,
                       Tables* tables)
    : params_(params),
      energy_(energy),
      hw_(hw),
      outcomes_(tables ? tables->outcomes : own_tables_.outcomes),
      ahead_(tables ? tables->ahead : own_tables_.ahead),
      sampled_(sampled),
      executor_(executor),
      stats_(stats) {}

std::string GpuOpModel::why_unsupported(const Op& op) const {
    std::vector<KernelLaunch> kernels;
    try {
        kernels = lower(op, target());
    } catch (const NotLowerable& e) {
        return e.what();
    } catch (const std::invalid_argument& e) {
        throw ConfigError(op.where, "kernel", e.what());
    }
    for (const KernelLaunch& k : kernels) {
        const Occupancy o = occupancy_of(params_.core.sm, k);
        if (o.ctas_per_sm != 0) continue;
        throw ConfigError(op.where, "kernel",
                          "a CTA of " + std::to_string(k.threads_per_cta) + " threads, " +
                              std::to_string(k.registers_per_thread) +
                              " registers per thread and " +
                              std::to_string(k.shared_bytes_per_cta) +
                              " B of shared memory does not fit on an SM (" + o.limiter + ")");
    }
    return {};
}

KernelMetrics GpuOpModel::metrics_of(const KernelLaunch& kernel,
                                     const KernelResult& r,
                                     const GpuCore& core) const {
    const GpuCoreConfig& c = params_.core;
    const KernelTotals& k = r.totals;
    const double sector = GpuCoreConfig::kSectorBytes;
    KernelMetrics m;
    m.kernel = kernel.name;
    m.tile = kernel.tile;
    m.ctas = kernel.ctas;
    m.threads_per_cta = kernel.threads_per_cta;
    m.registers_per_thread = kernel.registers_per_thread;
    m.ctas_per_sm = r.occupancy.ctas_per_sm;
    m.occupancy_limiter = r.occupancy.limiter;
    m.theoretical_occupancy = r.occupancy.fraction(c.sm);
    const double sm_cycles = double(r.cycles) * c.sm_count;
    m.achieved_occupancy = sm_cycles > 0 ? k.warp_residency / sm_cycles / c.sm.max_warps : 0;
    m.cycles = r.cycles;
    // The share of the kernel's warp-instructions simulated (fast-forwarded trips and CTAs
    // extrapolated past are not).
    m.simulated_fraction = k.warp_instructions > 0
                               ? std::min(1.0, double(r.sm.warp_instructions) / k.warp_instructions)
                               : 1.0;
    m.bound = r.bound;
    m.warp_instructions = k.warp_instructions;
    const double slots = sm_cycles * c.sm.sub_partitions;
    m.issue_utilisation = slots > 0 ? k.warp_instructions / slots : 0;
    m.l1_bytes = k.l1_sectors * sector;
    m.l2_bytes = (k.l2_read_sectors + k.l2_write_sectors) * sector;
    m.shared_bytes = k.shared_wavefronts * GpuCoreConfig::kSharedWavefrontBytes;
    m.dram_read_bytes = k.dram_read_bytes;
    m.dram_write_bytes = k.dram_write_bytes;
    m.l1_hit_rate = k.l1_sectors > 0 ? k.l1_hit_sectors / k.l1_sectors : 0;
    m.l2_hit_rate = k.l2_read_sectors > 0 ? k.l2_hit_sectors / k.l2_read_sectors : 0;
    uint64_t hits = 0, accesses = 0;
    const hbm::HbmSystem& dram = core.memory().dram();
    for (size_t i = 0; i < dram.pseudo_channel_count(); ++i) {
        const auto& pc = dram.pseudo_channel(i).counters();
        hits += pc.row_hits;
        accesses += pc.row_hits + pc.row_misses + pc.row_conflicts;
    }
    m.dram_row_hit_rate = accesses ? double(hits) / double(accesses) : 0;
    // Warp states over resident warp-cycles: issuing, or one stall reason.
    if (k.warp_residency > 0) {
        m.issuing = k.warp_instructions / k.warp_residency;
        m.stall_memory = k.stall_memory / k.warp_residency;
        m.stall_dependency = k.stall_dependency / k.warp_residency;
        m.stall_pipeline = k.stall_pipeline / k.warp_residency;
        m.stall_barrier = k.stall_barrier / k.warp_residency;
        m.not_selected = k.not_selected / k.warp_residency;
    }
    m.no_eligible = slots > 0 ? k.no_eligible_cycles / slots : 0;
    return m;
}

namespace {

/// One kernels.csv row for an operator of several kernels (naive attention): times, counts and
/// bytes add up; ratios are averaged over the kernels' cycles; the shape is the longest one's.
KernelMetrics merged(const std::vector<KernelMetrics>& parts) {
    if (parts.size() == 1) return parts.front();
    KernelMetrics m = parts.front();
    double cycles = 0;
    for (const KernelMetrics& p : parts) {
        if (p.cycles > m.cycles) m = p;
        cycles += double(p.cycles);
    }
    m.kernel.clear();
    m.tile.clear();
    for (const KernelMetrics& p : parts) {
        m.kernel += (m.kernel.empty() ? "" : "+") + p.kernel;
        if (m.tile.empty()) m.tile = p.tile;
    }
    const auto weighted = [&](double KernelMetrics::*field) {
        double v = 0;
        for (const KernelMetrics& p : parts)
            v += p.*field * double(p.cycles);
        return cycles > 0 ? v / cycles : 0.0;
    };
    const auto total = [&](double KernelMetrics::*field) {
        double v = 0;
        for (const KernelMetrics& p : parts)
            v += p.*field;
        return v;
    };
    m.ctas = 0;
    m.cycles = 0;
    double simulated = 0, bound = 0;
    for (const KernelMetrics& p : parts) {
        m.ctas += p.ctas;
        m.cycles += p.cycles;
        simulated += p.simulated_fraction * double(p.ctas);
        bound = std::max(bound, p.bound);
    }
    m.simulated_fraction = simulated / double(m.ctas);
    m.bound = bound;
    for (auto f : kAdditiveMetrics)
        m.*f = total(f);
    for (auto f :
         {&KernelMetrics::theoretical_occupancy, &KernelMetrics::achieved_occupancy,
          &KernelMetrics::issue_utilisation, &KernelMetrics::l1_hit_rate,
          &KernelMetrics::l2_hit_rate, &KernelMetrics::dram_row_hit_rate,
          &KernelMetrics::stall_memory, &KernelMetrics::stall_dependency,
          &KernelMetrics::stall_pipeline, &KernelMetrics::stall_barrier,
          &KernelMetrics::not_selected, &KernelMetrics::issuing, &KernelMetrics::no_eligible})
        m.*f = weighted(f);
    return m;
}

}  // namespace

GpuOpModel::Outcome GpuOpModel::run_kernels(const Op& op,
                                            const std::vector<KernelLaunch>& kernels) const {
    Outcome out;
    std::vector<KernelMetrics> metrics;
    SamplingOptions sampling;
    sampling.enabled = sampled_;
    for (const KernelLaunch& k : kernels) {
        const GpuCoreConfig config = core_config_for(params_, k);
        GpuCore core(config, params_.hbm.core, k);
        const KernelResult r = core.run(sampling);
        const TimePs at_max = ClockDomain("sm", config.clock_hz).to_ps(Cycle{r.cycles});
        EnergyBreakdown e = kernel_energy(energy_.table, params_.hbm, k, r, core, op.dtype);
        // The power limit, solved from the kernel's split rather than re-simulated: its SM
        // side stretches as 1/f, its DRAM traffic cannot go faster than the HBM peak, its
        // on-chip energy follows V(f)^2 and its HBM energy does not.
        energy::ClockedLoad load;
        load.max_clock_hz = double(config.clock_hz);
        load.seconds = to_seconds(at_max);
        load.floor_seconds =
            (r.totals.dram_read_bytes + r.totals.dram_write_bytes) / params_.hbm.peak_bandwidth();
        load.on_chip_joules = e.compute + e.sram + e.l2;
        load.fixed_joules = e.dram;
        load.static_w = energy_.table.static_power;
        const energy::GovernedLoad g = energy::govern(energy_.governor, load);
        TimePs kernel_time = at_max;
        if (g.limited) {
            kernel_time = TimePs{
                static_cast<uint64_t>(std::ceil(g.seconds * static_cast<double>(kPsPerSecond)))};
            out.power_limited = true;
        }
        e.compute *= g.voltage_factor;
        e.sram *= g.voltage_factor;
        e.l2 *= g.voltage_factor;
        out.kernel_time += kernel_time;
        out.clock_hz += g.clock_hz * to_seconds(kernel_time);
        out.max_clock_hz += load.max_clock_hz * to_seconds(kernel_time);
        metrics.push_back(metrics_of(k, r, core));
        out.energy += e;
        out.extrapolated = out.extrapolated || r.extrapolated;
        out.warp_instructions_simulated += double(r.sm.warp_instructions);
        out.cycles_simulated += double(r.simulated_cycles);
    }
    out.metrics = merged(metrics);
    const double busy = to_seconds(out.kernel_time);
    out.clock_hz = busy > 0 ? out.clock_hz / busy : double(params_.core.clock_hz);
    out.max_clock_hz = busy > 0 ? out.max_clock_hz / busy : double(params_.core.clock_hz);
    if (op.kind == OpKind::PointerChase) {
        // The timed loads' mean latency: the chase's time less that of its warm-up lap alone
        // (run the same way, from the same cold caches), over the steps.
        const auto& p = std::get<PointerChaseParams>(op.params);
        const KernelLaunch lap = pointer_chase_kernel(p, target(), false);
        GpuCore warm(params_.core, params_.hbm.core, lap);
        const uint64_t warm_cycles = warm.run(sampling).cycles;
        out.metrics.load_to_use_cycles =
            double(out.metrics.cycles - std::min(out.metrics.cycles, warm_cycles)) /
            double(p.steps);
    }
    if (op.kind == OpKind::CacheRead) {
        // The grid's second half, warm: the whole grid's time less that of its first half
        // alone (run the same way, from the same cold caches, which it fills), as the
        // benchmark's many CTAs make its cold start negligible. At the boost clock.
        const auto& p = std::get<CacheReadParams>(op.params);
        const uint64_t half = p.ctas / 2;
        GpuCore first(params_.core, params_.hbm.core, cache_read_kernel(p, half));
        const uint64_t first_cycles = first.run(sampling).cycles;
        if (out.metrics.cycles > first_cycles) {
            const double seconds =
                double(out.metrics.cycles - first_cycles) / double(params_.core.clock_hz);
            out.metrics.warm_read_bytes_per_s = double((p.ctas - half) * p.block_bytes) / seconds;
        }
    }
    return out;
}

GpuOpModel::Outcome GpuOpModel::simulate(const Op& op) {
    const std::string key = op_key(op);
    auto found = outcomes_.find(key);
    if (found != outcomes_.end()) return found->second;
    const auto ahead = ahead_.find(key);
    if (ahead != ahead_.end() && ahead->second->error) std::rethrow_exception(ahead->second->error);
    const Outcome o = ahead != ahead_.end() && ahead->second->outcome
                          ? *ahead->second->outcome
                          : run_kernels(op, lower(op, target()));
    stats_.warp_instructions += o.warp_instructions_simulated;
    stats_.simulated_cycles += o.cycles_simulated;
    outcomes_.emplace(key, o);
    return o;
}

void GpuOpModel::plan(const Op& op, std::vector<std::function<void()>>& tasks) {
    auto [slot, fresh] = ahead_.emplace(op_key(op), nullptr);
    if (!fresh) return;
    slot->second = std::make_shared<Ahead>();
    tasks.push_back([this, op, ahead = slot->second]() {
        try {
            ahead->outcome = run_kernels(op, lower(op, target()));
        } catch (...) {
            ahead->error = std::current_exception();
        }
    });
}

std::vector<std::function<void()>> GpuOpModel::precompute(const Op& op) {
    // The same choices as execute() and outcome_of() will make.
    std::vector<std::function<void()>> tasks;
    const std::optional<ContextAxis> axis = sampled_ ? context_axis(op) : std::nullopt;
    const auto first = axis ? planned_first_length_.emplace(axis->family, axis->value).first
                            : planned_first_length_.end();
    if (!axis || first->second == axis->value) {
        plan(op, tasks);
    } else if (ahead_.emplace(op_key(op), std::make_shared<Ahead>()).second) {
        // Interpolated (its own entry stays empty, so execute() interpolates it again).
        plan(with_context(op, axis->lower), tasks);
        plan(with_context(op, axis->upper), tasks);
    }
    return tasks;
}

GpuOpModel::Outcome GpuOpModel::outcome_of(const Op& op) {
    // A decode step whose kernels grow with the context: once its family has shown a second
    // length, lengths between grid points are interpolated from the two around them.
    const std::optional<ContextAxis> axis = sampled_ ? context_axis(op) : std::nullopt;
    if (!axis) return simulate(op);
    const auto first = first_length_.emplace(axis->family, axis->value).first;
    if (first->second == axis->value) return simulate(op);
    const Outcome lo = simulate(with_context(op, axis->lower));
    const Outcome hi = simulate(with_context(op, axis->upper));
    const double t = double(axis->value - axis->lower) / double(axis->upper - axis->lower);
    const auto mix = [t](double a, double b) { return a + (b - a) * t; };
    Outcome o = t < 0.5 ? lo : hi;  // the rest of the kernels' metrics: the nearer point's
    o.kernel_time = TimePs{static_cast<uint64_t>(
        std::llround(mix(double(lo.kernel_time.value()), double(hi.kernel_time.value()))))};
    for (double EnergyBreakdown::*part :
         {&EnergyBreakdown::compute, &EnergyBreakdown::sram, &EnergyBreakdown::l2,
          &EnergyBreakdown::dram, &EnergyBreakdown::link, &EnergyBreakdown::host})
        o.energy.*part = mix(lo.energy.*part, hi.energy.*part);
    KernelMetrics& m = o.metrics;
    m.cycles = static_cast<uint64_t>(
        std::llround(mix(double(lo.metrics.cycles), double(hi.metrics.cycles))));
    for (double KernelMetrics::*field : kAdditiveMetrics)
        m.*field = mix(lo.metrics.*field, hi.metrics.*field);
    m.simulated_fraction = 0;
    o.clock_hz = mix(lo.clock_hz, hi.clock_hz);
    o.max_clock_hz = mix(lo.max_clock_hz, hi.max_clock_hz);
    o.power_limited = lo.power_limited || hi.power_limited;
    o.extrapolated = true;
    o.warp_instructions_simulated = o.cycles_simulated = 0;
    ++stats_.interpolated;
    return o;
}

OpResult GpuOpModel::execute(const Op& op) {
    const TimePs now{sc_core::sc_time_stamp().value()};
    const auto beyond_time_range = [&op]() {
        return ConfigError(
            op.where, "kind",
            "operator '" + op.name + "' would end beyond the simulator's time range");
    };
    const uint64_t gap_ps = hw_.launch.gap_ps(op.launch);  // the device side of its launch
    if (gap_ps > kLatestPs / 2 || now.value() > kLatestPs / 2) throw beyond_time_range();
    const std::string key = op_key(op);
    auto found = outcomes_.find(key);
    if (found == outcomes_.end()) {
        found = outcomes_.emplace(key, outcome_of(op)).first;
    } else {
        ++stats_.reused;
    }
    const Outcome& o = found->second;

    if (o.kernel_time.value() > kLatestPs / 4) throw beyond_time_range();
    const TimePs duration = o.kernel_time + TimePs{gap_ps};
    // The kernel holds the share of the SMs' CTA slots its grid fills (all of them once it has
    // a wave or more) and moves its DRAM bytes through the GPU's memory port.
    const KernelMetrics& km = o.metrics;
    const double slots = double(km.ctas_per_sm) * params_.core.sm_count;
    exec::Job job;
    job.duration = duration;
    job.compute = slots > 0 ? std::min(1.0, double(km.ctas) / slots) : 1.0;
    job.ctas = km.ctas;
    job.cta_slots = slots;
    job.memory_bytes = km.dram_read_bytes + km.dram_write_bytes;
    const exec::JobTimes ran = executor_.run(job);
    const TimePs start = ran.start;
    const TimePs end = ran.end;

    OpResult res;
    res.start = start;
    res.end = end;
    res.launch_gap = TimePs{gap_ps};
    res.cost = cost_of(op);
    // Element-wise kernels compute in FP32 on the CUDA cores; GEMMs, convolutions and
    // attention on the Tensor Cores in their dtype (FP32 GEMMs on the CUDA cores).
    if (res.cost.unit != ComputeUnit::Tensor || op.dtype == DType::FP32) {
        res.cost.unit = ComputeUnit::Vector;
        res.cost.dtype = DType::FP32;
    }
    res.kernel = o.metrics;
    res.cost.dram_bytes = res.kernel->dram_read_bytes + res.kernel->dram_write_bytes;
    res.roof_flops = hw_.peak_flops(res.cost.unit, res.cost.dtype);
    res.roof_bandwidth = params_.hbm.peak_bandwidth();
    const double seconds = to_seconds(duration);
    const double flop_share = res.roof_flops > 0 ? res.cost.flops / seconds / res.roof_flops : 0;
    const double byte_share = res.cost.dram_bytes / seconds / res.roof_bandwidth;
    res.bound = TimePs{gap_ps} > o.kernel_time ? "launch"
                : flop_share > byte_share      ? "compute"
                                               : "memory";
    res.fidelity = o.extrapolated ? Fidelity::Sampled : Fidelity::Cycle;
    res.model = sampled_ ? "gpu.sm" : "gpu.sm_cycle";
    res.energy = o.energy;
    res.static_power = energy_.table.static_power;
    res.power_limit = energy_.governor.power_limit_w;
    res.clock_hz = o.clock_hz;
    res.max_clock_hz = o.max_clock_hz;
    res.power_limited = o.power_limited;

    ++stats_.kernels;
    if (o.extrapolated) ++stats_.extrapolated;
    if (o.power_limited) ++stats_.power_limited;
    stats_.dram_utilisation.sample(byte_share);
    stats_.achieved_occupancy.sample(res.kernel->achieved_occupancy);
    return res;
}

}  // namespace sim::gpu
