// SPDX-License-Identifier: MIT
// What the cycle-level GPU's sampling shares: its options, the kernel-wide counters it
// extrapolates, and the two tests it applies before trusting a measured rate (the spans it was
// measured over agree, and L2 write-backs keep up with stores). Pure C++.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "models/gpu/core/memory_system.h"
#include "models/gpu/core/sm.h"

namespace sim::gpu {

struct SamplingOptions {
    bool enabled = true;
    /// Steady: the mean time of the last waves (windows to max_windows of them, after
    /// warm-up) is known to within this fraction at about 95% confidence (two standard errors).
    double tolerance = 0.05;
    uint32_t windows = 3;       ///< steady waves (or loop windows) required at least
    uint32_t max_windows = 16;  ///< waves (or loop windows) averaged at most
    /// Fast-forward a kernel's main loop (its longest top-level loop, a GEMM's k-loop) once its
    /// trips run at a steady rate, when it has at least min_loop_trips trips.
    bool fast_forward_loops = true;
    uint32_t min_loop_trips = 32;
};

/// The kernel's work and warp-time counters as a whole: as counted, or for a sampled run, the
/// count when it stopped plus the steady waves' per-CTA rate times the CTAs not simulated.
struct KernelTotals {
    double warp_instructions = 0, thread_flops = 0, tensor_flops = 0;
    double l1_sectors = 0, l1_hit_sectors = 0;
    double l2_read_sectors = 0, l2_write_sectors = 0, l2_hit_sectors = 0;
    double dram_read_bytes = 0, dram_write_bytes = 0;
    double warp_residency = 0;  ///< resident warps integrated over SM cycles
    double stall_memory = 0, stall_dependency = 0, stall_pipeline = 0, stall_barrier = 0;
    double not_selected = 0, no_eligible_cycles = 0;
    double shared_wavefronts = 0;   ///< LDS and STS passes over the shared-memory banks
    double shared_async_bytes = 0;  ///< bulk copies in and out of shared memory, wgmma operands

    static KernelTotals of(const SmCounters& sm, const MemoryCounters& memory);
    /// this + (later - earlier) x factor, field by field.
    KernelTotals plus_scaled(const KernelTotals& later,
                             const KernelTotals& earlier,
                             double factor) const;
    /// this + (this - earlier) x factor: the rate since earlier carried on for factor as long.
    KernelTotals extrapolated(const KernelTotals& earlier, double factor) const {
        return plus_scaled(*this, earlier, factor);
    }
};

/// The mean of the last spans between consecutive marks, per unit of work: spans are
/// marks[i] - marks[i-1] in cycles and work[i] - work[i-1] in whatever the caller counts
/// (a wave's CTAs, a loop's trips).
struct SpanRate {
    size_t spans = 0;            ///< spans averaged (0: too few)
    double cycles_per_unit = 0;  ///< their total cycles over their total work
    double relative_error = 0;   ///< one standard error of that mean, relative
};
/// Over the last k spans, from_mark < k <= max_spans, with at least min_spans of them. A span's
/// ends jitter (work finishes in bursts), so the error of the mean of k spans is about one
/// span's standard deviation over k, not over sqrt(k).
SpanRate span_rate(const std::vector<uint64_t>& marks,
                   const std::vector<double>& work,
                   size_t from_mark,
                   size_t min_spans,
                   size_t max_spans);

/// Cycles per unit of work between marks (times[i], work[i], work rising) from `from` to `to`,
/// averaged over phases + 1 starting points a unit apart divided in phases (from, from +
/// unit / phases, ..., from + unit), each over to - from - unit of work. A rate taken between
/// two marks a whole number of units apart depends on where the marks fall in the pattern the
/// work finishes in: the CTAs of a cluster-split softmax finish in bursts that hold more than a
/// wave (the unit, 264 CTAs on H100), so six of every seven waves take about 14,000 cycles and
/// the seventh 6,000-10,000, and a window of three long ones read 11% slow. Starting points
/// spread over a unit sample the bursts' phases evenly. 0 when no pair of marks is that far
/// apart.
double phase_averaged_cycles_per_unit(const std::vector<uint64_t>& times,
                                      const std::vector<double>& work,
                                      double from,
                                      double to,
                                      double unit,
                                      uint32_t phases);

/// Whether L2 write-backs have caught up with stores between a and b (cycles apart): DRAM got
/// at least 90% of the bytes stored into L2, or so little DRAM traffic flowed that write-backs
/// cannot slow anything (under half the peak even if every store were written back). Before
/// that, stores stay in L2 and the kernel runs faster than its steady state.
bool write_backs_steady(const KernelTotals& a,
                        const KernelTotals& b,
                        double cycles,
                        double dram_bytes_per_cycle);

}  // namespace sim::gpu
