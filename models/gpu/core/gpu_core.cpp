// SPDX-License-Identifier: MIT
#include "models/gpu/core/gpu_core.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace sim::gpu {

KernelTotals KernelTotals::of(const SmCounters& sm, const MemoryCounters& memory) {
    KernelTotals t;
    t.warp_instructions = double(sm.warp_instructions);
    t.thread_flops = sm.thread_flops;
    t.tensor_flops = sm.tensor_flops;
    t.l1_sectors = double(memory.l1_sectors);
    t.l1_hit_sectors = double(memory.l1_hit_sectors);
    t.l2_read_sectors = double(memory.l2_read_sectors);
    t.l2_write_sectors = double(memory.l2_write_sectors);
    t.l2_hit_sectors = double(memory.l2_hit_sectors);
    t.dram_read_bytes = double(memory.dram_read_bytes);
    t.dram_write_bytes = double(memory.dram_write_bytes);
    t.warp_residency = sm.warp_residency;
    t.stall_memory = double(sm.stall_memory);
    t.stall_dependency = double(sm.stall_dependency);
    t.stall_pipeline = double(sm.stall_pipeline);
    t.stall_barrier = double(sm.stall_barrier);
    t.not_selected = double(sm.not_selected);
    t.no_eligible_cycles = double(sm.no_eligible_cycles);
    return t;
}

KernelTotals KernelTotals::extrapolated(const KernelTotals& earlier, double factor) const {
    static constexpr double KernelTotals::*kFields[] = {
        &KernelTotals::warp_instructions, &KernelTotals::thread_flops,
        &KernelTotals::tensor_flops,      &KernelTotals::l1_sectors,
        &KernelTotals::l1_hit_sectors,    &KernelTotals::l2_read_sectors,
        &KernelTotals::l2_write_sectors,  &KernelTotals::l2_hit_sectors,
        &KernelTotals::dram_read_bytes,   &KernelTotals::dram_write_bytes,
        &KernelTotals::warp_residency,    &KernelTotals::stall_memory,
        &KernelTotals::stall_dependency,  &KernelTotals::stall_pipeline,
        &KernelTotals::stall_barrier,     &KernelTotals::not_selected,
        &KernelTotals::no_eligible_cycles};
    static_assert(sizeof(kFields) / sizeof(kFields[0]) * sizeof(double) == sizeof(KernelTotals),
                  "every KernelTotals field is extrapolated");
    KernelTotals t = *this;
    for (const auto field : kFields)
        t.*field += (this->*field - earlier.*field) * factor;
    return t;
}

GpuCore::GpuCore(const GpuCoreConfig& config, const hbm::HbmCoreConfig& hbm, const KernelLaunch& k)
    : config_(config),
      kernel_(k),
      occupancy_(occupancy_of(config.sm, k)),
      memory_(config, hbm, events_),
      multicast_(k.cluster),
      dram_bytes_per_cycle_(memory_.dram().peak_bytes_per_cycle() * double(hbm.clock_hz) /
                            double(config.clock_hz)) {
    config_.validate();
    kernel_.validate();
    if (occupancy_.ctas_per_sm == 0) {
        throw std::invalid_argument("kernel " + k.name + " does not fit on an SM: not enough " +
                                    occupancy_.limiter + " for one CTA");
    }
    if (uint64_t{config_.sm_count} * occupancy_.ctas_per_sm < kernel_.cluster) {
        throw std::invalid_argument("kernel " + k.name + ": a cluster of " +
                                    std::to_string(kernel_.cluster) +
                                    " CTAs needs as many CTA slots on the GPU");
    }
    sms_.reserve(config_.sm_count);
    for (uint32_t i = 0; i < config_.sm_count; ++i) {
        sms_.push_back(std::make_unique<Sm>(i, config_, kernel_, occupancy_.ctas_per_sm, memory_,
                                            multicast_, counters_));
    }
}

void GpuCore::wake(uint32_t sm, uint64_t at) {
    Sm& s = *sms_[sm];
    if (at == kNeverCycle || at >= s.scheduled) return;
    s.scheduled = at;
    events_.push(at, {EventKind::SmWake, sm});
}

void GpuCore::dispatch(uint32_t sm, uint64_t now) {
    Sm& s = *sms_[sm];
    while (next_cta_ < kernel_.ctas && s.has_free_cta_slot())
        s.launch(next_cta_++, now);
}

bool GpuCore::steady(uint64_t now, const SamplingOptions& sampling, KernelResult& r) {
    const uint64_t wave = uint64_t{config_.sm_count} * occupancy_.ctas_per_sm;
    while (done_ctas_ >= (wave_ends_.size() + 1) * wave) {
        wave_ends_.push_back(now);
        wave_totals_.push_back(KernelTotals::of(counters_, memory_.counters()));
    }
    // Warm-up: the first wave ramps up; and while the L2 still has room, the kernel's stores
    // stay in it instead of being written back, so those waves run faster than the steady
    // state. A kernel that stores is warm once a wave writes back to DRAM at least 90% of the
    // bytes it stores into L2, or when its waves need under half the DRAM bandwidth even if
    // every store were written back (compute-bound kernels).
    bool warm = wave_ends_.size() >= 2;
    if (warm) {
        const KernelTotals& a = wave_totals_[wave_totals_.size() - 2];
        const KernelTotals& b = wave_totals_.back();
        const double stored =
            (b.l2_write_sectors - a.l2_write_sectors) * GpuCoreConfig::kSectorBytes;
        const double written_back = b.dram_write_bytes - a.dram_write_bytes;
        // A wave that uses under half the DRAM bandwidth is not slowed by write-backs either.
        const double wave_cycles = double(wave_ends_.back() - wave_ends_[wave_ends_.size() - 2]);
        const double dram = (b.dram_read_bytes - a.dram_read_bytes) + written_back + stored;
        warm = written_back >= 0.9 * stored || dram < 0.5 * dram_bytes_per_cycle_ * wave_cycles;
    }
    if (!warm) {
        warm_wave_ = wave_ends_.size();
        return false;
    }
    // The last k steady waves (windows <= k <= max_windows): their mean time and its error.
    const size_t steady_waves = wave_ends_.size() - 1 - warm_wave_;
    if (steady_waves < sampling.windows) return false;
    const size_t k = std::min<size_t>(steady_waves, sampling.max_windows);
    const size_t last = wave_ends_.size() - 1;
    double mean = 0, square = 0;
    for (size_t i = last + 1 - k; i <= last; ++i) {
        const double d = double(wave_ends_[i] - wave_ends_[i - 1]);
        mean += d;
        square += d * d;
    }
    mean /= double(k);
    const double variance =
        std::max(0.0, square / double(k) - mean * mean) * double(k) / double(k - 1);
    // The mean is the span of k waves over k: only the span's two ends are uncertain. A wave
    // end jitters (CTAs finish in bursts) with variance var(duration) / 2, so the span's
    // error is about sqrt(var(duration)) and the mean's is that over k.
    const double relative_error = std::sqrt(variance) / double(k) / mean;
    if (relative_error > sampling.tolerance / 2) return false;
    const double extra = double(kernel_.ctas - done_ctas_) * mean / double(wave);
    r.cycles = now + static_cast<uint64_t>(std::llround(extra));
    r.extrapolated = true;
    // The work of the CTAs not simulated, at the window's per-CTA rate.
    const double factor = double(kernel_.ctas - done_ctas_) / double(k * wave);
    const KernelTotals& first = wave_totals_[last - k];
    r.totals = wave_totals_.back().extrapolated(first, factor);
    // In the steady state every byte stored is written back once: the CTAs not simulated add
    // their stores to the DRAM writes (a wave may hold some of its own in L2).
    r.totals.dram_write_bytes = wave_totals_.back().dram_write_bytes +
                                (wave_totals_.back().l2_write_sectors - first.l2_write_sectors) *
                                    GpuCoreConfig::kSectorBytes * factor;
    // About a 95% interval on the extrapolated part (two standard errors of the wave time).
    r.bound = 2 * relative_error * extra / double(r.cycles);
    return true;
}

KernelResult GpuCore::run(const SamplingOptions& sampling) {
    KernelResult r;
    r.ctas = kernel_.ctas;
    r.occupancy = occupancy_;
    // The dispatcher fills the SMs breadth first, one CTA per SM per round.
    for (uint32_t round = 0; round < occupancy_.ctas_per_sm; ++round) {
        for (uint32_t i = 0; i < config_.sm_count && next_cta_ < kernel_.ctas; ++i) {
            sms_[i]->launch(next_cta_++, 0);
        }
    }
    for (uint32_t i = 0; i < config_.sm_count; ++i)
        wake(i, 0);

    const uint64_t wave = uint64_t{config_.sm_count} * occupancy_.ctas_per_sm;
    std::vector<Event> batch;
    std::vector<LoadReturn> returns;
    std::vector<uint32_t> touched;
    std::vector<uint8_t> is_touched(config_.sm_count, 0);
    uint64_t now = 0;
    // The kernel is done when its last CTA has retired and its last store has reached L2.
    while (done_ctas_ < kernel_.ctas || memory_.stores_in_flight()) {
        const uint64_t t_core = events_.empty() ? kNeverCycle : events_.next_time();
        const uint64_t t_dram = memory_.next_dram_cycle();
        if (t_core == kNeverCycle && t_dram == kNeverCycle)
            throw std::logic_error("kernel " + kernel_.name + " deadlocked");
        if (t_dram <= t_core) {
            memory_.advance_dram(t_dram);
            continue;
        }
        now = events_.pop_earliest(batch);
        returns.clear();
        touched.clear();
        for (const Event& e : batch) {
            if (e.kind == EventKind::SmWake) {
                Sm& s = *sms_[e.payload];
                if (s.scheduled == now) s.scheduled = kNeverCycle;
                if (!is_touched[e.payload]) {
                    is_touched[e.payload] = 1;
                    touched.push_back(e.payload);
                }
                continue;
            }
            memory_.on_event(e, now, returns);
        }
        for (const LoadReturn& lr : returns) {
            sms_[lr.sm]->load_returned(lr.token, lr.lines, now);
            if (!is_touched[lr.sm]) {
                is_touched[lr.sm] = 1;
                touched.push_back(lr.sm);
            }
        }
        bool wave_done = false;
        for (uint32_t i : touched) {
            is_touched[i] = 0;
            Sm& s = *sms_[i];
            if (s.next_wake() <= now) s.tick(now);
            if (s.finished_ctas) {
                const uint64_t before = done_ctas_;
                done_ctas_ += s.finished_ctas;
                s.finished_ctas = 0;
                wave_done |= done_ctas_ / wave != before / wave;
                dispatch(i, now);
            }
            wake(i, s.next_wake());
        }
        if (wave_done && sampling.enabled && done_ctas_ < kernel_.ctas && steady(now, sampling, r))
            break;
    }
    for (auto& s : sms_)
        s->finish(now);
    r.simulated_cycles = now;
    r.simulated_ctas = done_ctas_;
    if (!r.extrapolated) r.cycles = now;
    r.sm = counters_;
    r.memory = memory_.counters();
    if (!r.extrapolated) r.totals = KernelTotals::of(r.sm, r.memory);
    return r;
}

}  // namespace sim::gpu
