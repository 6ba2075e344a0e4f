// SPDX-License-Identifier: MIT
#include "models/gpu/core/gpu_core.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>

namespace sim::gpu {

GpuCore::GpuCore(const GpuCoreConfig& config,
                 const hbm::HbmCoreConfig& hbm,
                 const KernelLaunch& k,
                 DramAccess dram)
    : config_(config),
      kernel_(k),
      occupancy_(occupancy_of(config.sm, k)),
      memory_(config, hbm, events_, dram),
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
    if (kernel_.cluster > 1) return dispatch_clusters(sm, now);
    Sm& s = *sms_[sm];
    while (next_cta_ < kernel_.ctas && s.has_free_cta_slot())
        s.launch(next_cta_++, now);
}

void GpuCore::dispatch_clusters(uint32_t sm, uint64_t now) {
    while (next_cta_ < kernel_.ctas) {
        const uint64_t size = std::min<uint64_t>(kernel_.cluster, kernel_.ctas - next_cta_);
        cluster_slots_.clear();
        for (uint32_t k = 0; k < config_.sm_count && cluster_slots_.size() < size; ++k) {
            const uint32_t i = (sm + k) % config_.sm_count;
            for (uint32_t f = sms_[i]->free_cta_slots(); f > 0 && cluster_slots_.size() < size; --f)
                cluster_slots_.push_back(i);
        }
        if (cluster_slots_.size() < size) return;  // the cluster waits for more slots
        for (const uint32_t i : cluster_slots_) {
            sms_[i]->launch(next_cta_++, now);
            if (i != sm) wake(i, now);
        }
    }
}

double GpuCore::running_dram_reads() const {
    double reads = 0;
    for (const auto& s : sms_)
        reads += s->running_dram_reads();
    return reads;
}

KernelTotals GpuCore::totals_at(uint64_t now) {
    // Every SM's residency up to now, and the waits its warps are in: a warp books a wait only
    // when it next issues, so totals taken mid-kernel (at a wave's end, for a loop's window)
    // would lack the waits then in progress, up to 4% of the warp time, and extrapolate that.
    for (auto& s : sms_)
        s->account(now);
    SmCounters sm = counters_;
    for (const auto& s : sms_)
        s->add_waits_in_progress(now, sm);
    return KernelTotals::of(sm, memory_.counters()).plus_scaled(skipped_, KernelTotals{}, 1);
}

bool GpuCore::steady(uint64_t now,
                     const KernelTotals& so_far,
                     const SamplingOptions& sampling,
                     KernelResult& r) {
    // now is the kernel's time: fast-forwarded trips included.
    const uint64_t wave = uint64_t{config_.sm_count} * occupancy_.ctas_per_sm;
    while (done_ctas_ >= (wave_ends_.size() + 1) * wave) {
        wave_ends_.push_back(now);
        wave_work_.push_back(double(wave_ends_.size() * wave));
        wave_totals_.push_back(so_far);
        wave_done_ctas_.push_back(double(done_ctas_));
        wave_done_reads_.push_back(so_far.dram_read_bytes - running_dram_reads());
    }
    // Warm-up: the first wave ramps up; and while the L2 still has room, the kernel's stores
    // stay in it instead of being written back, so those waves run faster than the steady
    // state.
    const size_t n = wave_ends_.size();
    const bool warm = n >= 2 && write_backs_steady(wave_totals_[n - 2], wave_totals_[n - 1],
                                                   double(wave_ends_[n - 1] - wave_ends_[n - 2]),
                                                   dram_bytes_per_cycle_);
    if (!warm) {
        warm_wave_ = n;
        return false;
    }
    // The last k steady waves (windows <= k <= max_windows): their mean time and its error.
    const SpanRate rate =
        span_rate(wave_ends_, wave_work_, warm_wave_, sampling.windows, sampling.max_windows);
    if (rate.spans == 0 || rate.relative_error > sampling.tolerance / 2) return false;
    // The window's rate from marks at every eighth of a wave (see
    // phase_averaged_cycles_per_unit); from its ends where the marks are too sparse, or once
    // main-loop trips were skipped: a jump moves the kernel time of only the CTAs that finish
    // after it, and the marks inside a wave no longer compare (an H100 FP8 8192^3 GEMM read 4%
    // fast from them, against its full run).
    const double averaged = skipped_trips_ > 0
                                ? 0.0
                                : phase_averaged_cycles_per_unit(
                                      mark_times_, mark_ctas_, wave_work_[n - 1 - rate.spans],
                                      wave_work_[n - 1], double(wave), kMarksPerWave);
    const double cycles_per_cta = averaged > 0 ? averaged : rate.cycles_per_unit;
    const double extra = double(kernel_.ctas - done_ctas_) * cycles_per_cta;
    r.cycles = now + static_cast<uint64_t>(std::llround(extra));
    r.extrapolated = true;
    // The work of the CTAs not simulated, at the window's per-CTA rate.
    const size_t last = n - 1;
    const double factor = double(kernel_.ctas - done_ctas_) / double(rate.spans * wave);
    const KernelTotals& first = wave_totals_[last - rate.spans];
    r.totals = wave_totals_.back().extrapolated(first, factor);
    // DRAM reads: those of the CTAs done, plus every CTA not done at the window's reads per CTA
    // done. A CTA's loads come at its start and it counts at its end, so the reads of the CTAs
    // running at either end of the window are left out of the window's: counted, they put a
    // kernel that loads first a wave's reads high (4.5% for a register-resident softmax), and
    // with CTAs finishing in bursts, as many as happened to be running (5% for a cluster
    // softmax).
    const double done_reads = wave_done_reads_[last];  // the wave that just ended: now
    const double reads_per_cta =
        (wave_done_reads_[last] - wave_done_reads_[last - rate.spans]) /
        std::max(1.0, wave_done_ctas_[last] - wave_done_ctas_[last - rate.spans]);
    r.totals.dram_read_bytes = std::max(
        so_far.dram_read_bytes, done_reads + double(kernel_.ctas - done_ctas_) * reads_per_cta);
    // In the steady state every byte stored is written back once: the CTAs not simulated add
    // their stores to the DRAM writes (a wave may hold some of its own in L2).
    r.totals.dram_write_bytes = wave_totals_.back().dram_write_bytes +
                                (wave_totals_.back().l2_write_sectors - first.l2_write_sectors) *
                                    GpuCoreConfig::kSectorBytes * factor;
    // About a 95% interval on the extrapolated part (two standard errors of the wave time).
    r.bound = 2 * rate.relative_error * extra / double(r.cycles);
    return true;
}

void GpuCore::fast_forward(LoopFastForward& loops, uint64_t now) {
    uint32_t resident = 0;
    for (auto& s : sms_) {
        s->account(now);
        resident += s->resident_ctas();
    }
    const auto trips_left = [this]() {
        uint32_t left = Sm::kNoWarps;
        for (const auto& s : sms_)
            left = std::min(left, s->main_loop_trips_left());
        return left == Sm::kNoWarps ? 0 : left;
    };
    // Each CTA's trips at every window since the rate was last reset: the jump moves each CTA
    // on at its own rate.
    if (loops.windows() == 0) window_trips_.clear();
    std::vector<uint32_t>& at_window = window_trips_.emplace_back();
    for (const auto& s : sms_)
        s->main_loop_trips_by_slot(at_window);
    const auto jump = loops.on_window(now, counters_.main_loop_trips, totals_at(now), resident,
                                      trips_left, dram_bytes_per_cycle_);
    if (!jump) return;
    const uint64_t skipped_trips = skip_each_cta(*jump, now);
    window_trips_.clear();
    // The skipped trips' fills would have pushed older lines out of the caches (a next wave
    // must not find the first k-tiles still in L2), writing back the dirty ones. Their own
    // stores would be written back in turn (later, or by the end of a steady state): the
    // skipped DRAM writes are those two, not the windows' write-back rate.
    constexpr double kSectorsPerLine = 128.0 / GpuCoreConfig::kSectorBytes;
    const double share = double(skipped_trips) / (double(jump->trips) * resident);
    KernelTotals work = KernelTotals{}.plus_scaled(jump->work, KernelTotals{}, share);
    const double l2_fills = work.dram_read_bytes / 128.0 + work.l2_write_sectors / kSectorsPerLine;
    const double l1_fills = (work.l1_sectors - work.l1_hit_sectors) / kSectorsPerLine;
    const uint64_t pushed_out = memory_.age_caches(
        static_cast<uint64_t>(l2_fills), static_cast<uint64_t>(l1_fills / config_.sm_count));
    work.dram_write_bytes =
        double(pushed_out) + work.l2_write_sectors * GpuCoreConfig::kSectorBytes;
    skipped_cycles_ += jump->cycles;
    skipped_bound_ += jump->bound_cycles;
    skipped_ = skipped_.plus_scaled(work, KernelTotals{}, 1);
    skipped_trips_ += skipped_trips;
}

uint64_t GpuCore::skip_each_cta(const LoopFastForward::Jump& jump, uint64_t now) {
    // While fewer CTAs wait to be dispatched than the GPU has slots (a partial wave is next),
    // where they land depends on the order in which the running CTAs free their slots. Then a
    // CTA moves on by the trips its own rate over the measured windows makes in the jump's
    // time, rounded to the loop's period and leaving it the margin: the CTAs drift apart over
    // the skipped trips as they would have. (The same trips for all kept the spread they had;
    // the wave freed its slots in bursts, which stacked the partial wave two and three CTAs to
    // an SM: A100 FP16 2048^3 sampled 19% longer than its full run, 3.4% now.) Otherwise every
    // CTA moves on by the jump's trips: a full next wave refills every freed slot whatever the
    // order, and in the last wave rates measured over a few windows overstate how far the
    // CTAs drift (their noise carried over the whole jump: DeepGEMM 4096 x 576 x 7168 3.4%
    // long with them, 0.3% without). The CTAs of a cluster move together (their multicasts
    // pair trip by trip), by the fewest any of them would.
    const uint64_t waiting = kernel_.ctas - next_cta_;
    const bool own_rates =
        waiting > 0 && waiting < uint64_t{config_.sm_count} * occupancy_.ctas_per_sm;
    const std::vector<uint32_t>& first = window_trips_[jump.first_window];
    const std::vector<uint32_t>& last = window_trips_.back();
    const double span = double(now - jump.first_cycle);
    struct Move {
        Sm* sm;
        uint32_t slot;
        uint64_t cluster;
        uint32_t trips;
    };
    std::vector<Move> moves;
    std::map<uint64_t, uint32_t> cluster_trips;
    size_t k = 0;
    for (auto& s : sms_) {
        for (uint32_t slot = 0; slot < occupancy_.ctas_per_sm; ++slot, ++k) {
            if (first[k] == Sm::kNoWarps || last[k] == Sm::kNoWarps || last[k] < first[k]) continue;
            const double rate = double(last[k] - first[k]) / span;
            const auto own =
                own_rates ? static_cast<uint32_t>(std::lround(rate * jump.cycles / jump.period)) *
                                jump.period
                          : jump.trips;
            const uint32_t left = s->main_loop_trips_left(slot);
            const uint32_t room =
                left > jump.margin ? (left - jump.margin) / jump.period * jump.period : 0;
            const uint64_t cluster = s->cta_in_slot(slot) / kernel_.cluster;
            const uint32_t trips = std::min(own, room);
            moves.push_back({s.get(), slot, cluster, trips});
            auto [it, fresh] = cluster_trips.emplace(cluster, trips);
            if (!fresh) it->second = std::min(it->second, trips);
        }
    }
    uint64_t skipped = 0;
    for (const Move& m : moves) {
        const uint32_t trips = cluster_trips[m.cluster];
        if (trips > 0) m.sm->skip_main_loop(m.slot, trips);
        skipped += trips;
    }
    return skipped;
}

KernelResult GpuCore::run(const SamplingOptions& requested) {
    SamplingOptions sampling = requested;
    sampling.enabled = sampling.enabled && kernel_.may_sample;
    KernelResult r;
    r.ctas = kernel_.ctas;
    r.occupancy = occupancy_;
    // The dispatcher fills the SMs breadth first, one CTA per SM per round, whole clusters
    // only.
    const uint64_t slots = uint64_t{config_.sm_count} * occupancy_.ctas_per_sm;
    const uint64_t first = std::min(kernel_.ctas, slots - slots % kernel_.cluster);
    for (uint32_t round = 0; round < occupancy_.ctas_per_sm; ++round) {
        for (uint32_t i = 0; i < config_.sm_count && next_cta_ < first; ++i) {
            sms_[i]->launch(next_cta_++, 0);
        }
    }
    for (uint32_t i = 0; i < config_.sm_count; ++i)
        wake(i, 0);

    const uint64_t wave = uint64_t{config_.sm_count} * occupancy_.ctas_per_sm;
    const uint64_t mark = std::max<uint64_t>(1, wave / kMarksPerWave);
    LoopFastForward loops(main_loop_of(kernel_), sampling);
    std::vector<Event> batch;
    std::vector<LoadReturn> returns;
    std::vector<uint32_t> touched;
    std::vector<uint8_t> is_touched(config_.sm_count, 0);
    uint64_t now = 0;
    // The kernel is done when its last CTA has retired and its last store has reached L2 and
    // been written there: its slices may still be writing the last ones when they arrive.
    const auto all_stored = [this]() {
        return done_ctas_ == kernel_.ctas && memory_.stores_in_flight() == 0;
    };
    while (!all_stored() || now < memory_.stores_written_by()) {
        uint64_t t_core = events_.empty() ? kNeverCycle : events_.next_time();
        if (all_stored()) t_core = std::min(t_core, memory_.stores_written_by());
        if (DramPort* port = memory_.port()) {
            // The DRAM is outside: its completions arrive while time passes to t_core.
            if (!port->wait_until(t_core)) continue;
        } else {
            const uint64_t t_dram = memory_.next_dram_cycle();
            // Refresh keeps the DRAM ticking: nothing the SMs wait for can come from it then.
            if (t_core == kNeverCycle &&
                (t_dram == kNeverCycle || memory_.dram_requests_in_flight() == 0))
                throw std::logic_error("kernel " + kernel_.name + " deadlocked");
            if (t_dram <= t_core) {
                memory_.advance_dram(t_dram);
                continue;
            }
        }
        if (events_.empty() || events_.next_time() > t_core) {  // the slices' writing ends first
            now = t_core;
            continue;
        }
        now = events_.pop_earliest(batch);
        returns.clear();
        touched.clear();
        for (const Event& e : batch) {
            if (e.kind != EventKind::SmWake) memory_.prefetch(e);
        }
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
        for (const LoadReturn& lr : returns)
            sms_[lr.sm]->prefetch_returned(lr.token);
        for (const LoadReturn& lr : returns) {
            sms_[lr.sm]->load_returned(lr.token, lr.lines, now);
            if (!is_touched[lr.sm]) {
                is_touched[lr.sm] = 1;
                touched.push_back(lr.sm);
            }
        }
        bool wave_done = false;
        const uint64_t done_before = done_ctas_;
        // The schedulers of the SMs to tick, then the warps they will read: hinted first, in
        // two steps, so that the host fetches them together (see sim/core/prefetch.h).
        for (uint32_t i : touched)
            sms_[i]->prefetch_schedulers();
        for (uint32_t i : touched)
            sms_[i]->prefetch_awake_warps(now);
        for (uint32_t i : touched) {
            is_touched[i] = 0;
            Sm& s = *sms_[i];
            if (s.next_wake() <= now) s.tick(now);
            if (s.finished_ctas) {
                const uint64_t before = done_ctas_;
                done_ctas_ += s.finished_ctas;
                s.finished_ctas = 0;
                wave_done |= done_ctas_ / wave != before / wave;
                if (sampling.enabled && done_ctas_ / mark != before / mark) {
                    mark_times_.push_back(kernel_time(now));
                    mark_ctas_.push_back(double(done_ctas_));
                }
                dispatch(i, now);
            }
            wake(i, s.next_wake());
        }
        if (wave_done && sampling.enabled && done_ctas_ < kernel_.ctas &&
            steady(kernel_time(now), totals_at(now), sampling, r))
            break;
        if (loops.enabled()) {
            if (done_ctas_ != done_before) loops.reset();  // CTAs retired and others launched
            if (loops.at_window(counters_.main_loop_trips)) fast_forward(loops, now);
        }
    }
    for (auto& s : sms_)
        s->finish(now);
    r.simulated_cycles = now;
    r.simulated_ctas = done_ctas_;
    r.skipped_trips = skipped_trips_;
    r.sm = counters_;
    r.memory = memory_.counters();
    if (!r.extrapolated) {
        r.cycles = kernel_time(now);
        r.totals = totals_at(now);
    }
    if (skipped_trips_ > 0) {
        r.extrapolated = true;
        r.bound += skipped_bound_ / double(r.cycles);
    }
    return r;
}

}  // namespace sim::gpu
