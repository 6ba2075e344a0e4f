// SPDX-License-Identifier: MIT
#include "models/gpu/core/sampling.h"

#include <algorithm>
#include <cmath>

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
    t.shared_wavefronts = double(sm.shared_wavefronts);
    t.shared_async_bytes = sm.shared_async_bytes;
    return t;
}

KernelTotals KernelTotals::plus_scaled(const KernelTotals& later,
                                       const KernelTotals& earlier,
                                       double factor) const {
    static constexpr double KernelTotals::*kFields[] = {
        &KernelTotals::warp_instructions,  &KernelTotals::thread_flops,
        &KernelTotals::tensor_flops,       &KernelTotals::l1_sectors,
        &KernelTotals::l1_hit_sectors,     &KernelTotals::l2_read_sectors,
        &KernelTotals::l2_write_sectors,   &KernelTotals::l2_hit_sectors,
        &KernelTotals::dram_read_bytes,    &KernelTotals::dram_write_bytes,
        &KernelTotals::warp_residency,     &KernelTotals::stall_memory,
        &KernelTotals::stall_dependency,   &KernelTotals::stall_pipeline,
        &KernelTotals::stall_barrier,      &KernelTotals::not_selected,
        &KernelTotals::no_eligible_cycles, &KernelTotals::shared_wavefronts,
        &KernelTotals::shared_async_bytes};
    static_assert(sizeof(kFields) / sizeof(kFields[0]) * sizeof(double) == sizeof(KernelTotals),
                  "every KernelTotals field is extrapolated");
    KernelTotals t = *this;
    for (const auto field : kFields)
        t.*field += (later.*field - earlier.*field) * factor;
    return t;
}

SpanRate span_rate(const std::vector<uint64_t>& marks,
                   const std::vector<double>& work,
                   size_t from_mark,
                   size_t min_spans,
                   size_t max_spans) {
    SpanRate r;
    if (marks.size() < from_mark + 1 + min_spans || min_spans < 2) return r;
    const size_t k = std::min(marks.size() - 1 - from_mark, max_spans);
    const size_t last = marks.size() - 1;
    double mean = 0, square = 0;
    for (size_t i = last + 1 - k; i <= last; ++i) {
        const double d = double(marks[i] - marks[i - 1]) / (work[i] - work[i - 1]);
        mean += d;
        square += d * d;
    }
    mean /= double(k);
    const double variance =
        std::max(0.0, square / double(k) - mean * mean) * double(k) / double(k - 1);
    r.spans = k;
    r.cycles_per_unit = double(marks[last] - marks[last - k]) / (work[last] - work[last - k]);
    r.relative_error = std::sqrt(variance) / double(k) / mean;
    return r;
}

double phase_averaged_cycles_per_unit(const std::vector<uint64_t>& times,
                                      const std::vector<double>& work,
                                      double from,
                                      double to,
                                      double unit,
                                      uint32_t phases) {
    const double length = to - from - unit;
    if (length <= 0 || phases == 0) return 0.0;
    const auto at = [&](double w) {
        return static_cast<size_t>(std::lower_bound(work.begin(), work.end(), w) - work.begin());
    };
    double cycles = 0, done = 0;
    for (uint32_t j = 0; j <= phases; ++j) {
        const size_t a = at(from + unit * j / phases), b = at(from + unit * j / phases + length);
        if (b >= work.size() || b <= a) continue;
        cycles += double(times[b] - times[a]);
        done += work[b] - work[a];
    }
    return done > 0 ? cycles / done : 0.0;
}

bool write_backs_steady(const KernelTotals& a,
                        const KernelTotals& b,
                        double cycles,
                        double dram_bytes_per_cycle) {
    const double stored = (b.l2_write_sectors - a.l2_write_sectors) * GpuCoreConfig::kSectorBytes;
    const double written_back = b.dram_write_bytes - a.dram_write_bytes;
    const double dram = (b.dram_read_bytes - a.dram_read_bytes) + written_back + stored;
    return written_back >= 0.9 * stored || dram < 0.5 * dram_bytes_per_cycle * cycles;
}

}  // namespace sim::gpu
