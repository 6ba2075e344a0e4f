// SPDX-License-Identifier: MIT
#include "models/gpu/gpu_op_model.h"

#include <systemc>

#include "models/gpu/kernels/kernels.h"
#include "models/hbm/hbm_stats.h"
#include "sim/core/error.h"
#include "sim/time/clock_domain.h"

namespace sim::gpu {

namespace {
/// The engine keeps time in 64-bit picoseconds; an op must end well inside that.
constexpr uint64_t kLatestPs = uint64_t{1} << 62;
}  // namespace

GpuOpModel::Stats::Stats(StatGroup& g)
    : kernels(g.add_counter("kernels", "count", "operators run as kernels on the cycle-level GPU")),
      extrapolated(g.add_counter("extrapolated",
                                 "count",
                                 "kernels stopped after steady waves and extrapolated (sampled)")),
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
                       double peak_fp32_flops,
                       uint64_t launch_overhead_ps,
                       bool sampled,
                       StatGroup& stats,
                       EngineSet& engines)
    : params_(params),
      energy_(energy),
      peak_fp32_flops_(peak_fp32_flops),
      launch_overhead_ps_(launch_overhead_ps),
      sampled_(sampled),
      engine_(engines.get("kernel")),
      stats_(stats) {}

std::string GpuOpModel::why_unsupported(const Op& op) const {
    KernelLaunch k;
    try {
        k = lower(op);
    } catch (const NotLowerable& e) {
        return e.what();
    } catch (const std::invalid_argument& e) {
        throw ConfigError(op.where, "kernel", e.what());
    }
    const Occupancy o = occupancy_of(params_.core.sm, k);
    if (o.ctas_per_sm == 0) {
        throw ConfigError(op.where, "kernel",
                          "a CTA of " + std::to_string(k.threads_per_cta) + " threads, " +
                              std::to_string(k.registers_per_thread) +
                              " registers per thread and " +
                              std::to_string(k.shared_bytes_per_cta) +
                              " B of shared memory does not fit on an SM (" + o.limiter + ")");
    }
    return {};
}

EnergyBreakdown GpuOpModel::energy_of(const KernelResult& r, const GpuCore& core) const {
    const energy::EnergyTable& t = energy_.table;
    const KernelTotals& k = r.totals;
    const double sector = GpuCoreConfig::kSectorBytes;
    EnergyBreakdown e;
    e.compute = k.thread_flops / 2 * t.fma_energy(ComputeUnit::Vector, DType::FP32);
    e.sram = k.l1_sectors * sector * t.sram_per_byte * t.scale;
    e.l2 = (k.l2_read_sectors + k.l2_write_sectors) * sector * t.l2_per_byte * t.scale;
    // Every ACT, burst and REF the HBM model counted, scaled to the whole kernel's traffic.
    const double simulated = double(r.memory.dram_read_bytes + r.memory.dram_write_bytes);
    const double dram = hbm::hbm_energy(params_.hbm, core.memory().dram());
    e.dram = simulated > 0 ? dram * (k.dram_read_bytes + k.dram_write_bytes) / simulated : dram;
    return e;
}

KernelMetrics GpuOpModel::metrics_of(const KernelLaunch& kernel,
                                     const KernelResult& r,
                                     const GpuCore& core) const {
    const GpuCoreConfig& c = params_.core;
    const KernelTotals& k = r.totals;
    const double sector = GpuCoreConfig::kSectorBytes;
    KernelMetrics m;
    m.kernel = kernel.name;
    m.ctas = kernel.ctas;
    m.threads_per_cta = kernel.threads_per_cta;
    m.registers_per_thread = kernel.registers_per_thread;
    m.ctas_per_sm = r.occupancy.ctas_per_sm;
    m.occupancy_limiter = r.occupancy.limiter;
    m.theoretical_occupancy = r.occupancy.fraction(c.sm);
    const double sm_cycles = double(r.cycles) * c.sm_count;
    m.achieved_occupancy = sm_cycles > 0 ? k.warp_residency / sm_cycles / c.sm.max_warps : 0;
    m.cycles = r.cycles;
    m.simulated_fraction = double(r.simulated_ctas) / double(r.ctas);
    m.bound = r.bound;
    m.warp_instructions = k.warp_instructions;
    const double slots = sm_cycles * c.sm.sub_partitions;
    m.issue_utilisation = slots > 0 ? k.warp_instructions / slots : 0;
    m.l1_bytes = k.l1_sectors * sector;
    m.l2_bytes = (k.l2_read_sectors + k.l2_write_sectors) * sector;
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

OpResult GpuOpModel::execute(const Op& op) {
    const TimePs now{sc_core::sc_time_stamp().value()};
    const auto beyond_time_range = [&op]() {
        return ConfigError(
            op.where, "kind",
            "operator '" + op.name + "' would end beyond the simulator's time range");
    };
    if (launch_overhead_ps_ > kLatestPs / 2 || now.value() > kLatestPs / 2)
        throw beyond_time_range();
    const KernelLaunch k = lower(op);
    GpuCore core(params_.core, params_.hbm.core, k);
    SamplingOptions sampling;
    sampling.enabled = sampled_;
    const KernelResult r = core.run(sampling);

    const ClockDomain clock("sm", params_.core.clock_hz);
    const TimePs kernel_time = clock.to_ps(Cycle{r.cycles});
    if (kernel_time.value() > kLatestPs / 4 || engine_.free_at().value() > kLatestPs / 4)
        throw beyond_time_range();
    const TimePs duration = kernel_time + TimePs{launch_overhead_ps_};
    const TimePs start = engine_.reserve(now, duration);
    const TimePs end = start + duration;
    sc_core::wait(sc_core::sc_time::from_value(end.value() - now.value()));

    OpResult res;
    res.start = start;
    res.end = end;
    res.cost = cost_of(op);
    res.cost.unit = ComputeUnit::Vector;
    res.cost.dtype = DType::FP32;  // the kernels compute in FP32 on the CUDA cores
    res.kernel = metrics_of(k, r, core);
    res.cost.dram_bytes = res.kernel->dram_read_bytes + res.kernel->dram_write_bytes;
    res.roof_flops = peak_fp32_flops_;
    res.roof_bandwidth = params_.hbm.peak_bandwidth();
    const double seconds = to_seconds(duration);
    const double flop_share = res.cost.flops / seconds / res.roof_flops;
    const double byte_share = res.cost.dram_bytes / seconds / res.roof_bandwidth;
    res.bound = TimePs{launch_overhead_ps_} > kernel_time ? "launch"
                : flop_share > byte_share                 ? "compute"
                                                          : "memory";
    res.fidelity = r.extrapolated ? Fidelity::Sampled : Fidelity::Cycle;
    res.model = sampled_ ? "gpu.sm" : "gpu.sm_cycle";
    res.energy = energy_of(r, core);
    res.static_power = energy_.table.static_power;

    ++stats_.kernels;
    if (r.extrapolated) ++stats_.extrapolated;
    stats_.warp_instructions += double(r.sm.warp_instructions);
    stats_.simulated_cycles += double(r.simulated_cycles);
    stats_.dram_utilisation.sample(byte_share);
    stats_.achieved_occupancy.sample(res.kernel->achieved_occupancy);
    return res;
}

}  // namespace sim::gpu
