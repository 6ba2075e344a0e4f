// SPDX-License-Identifier: MIT
// The cycle-level GPU running one kernel: a CTA dispatcher that keeps every SM filled up to its
// occupancy, the SMs, and the memory system, all advanced from one event calendar (SM cycles)
// plus the HBM model's own clock. Only SMs with a warp able to issue are ticked.
//
// Fidelity: `cycle` runs every CTA. `sampled` runs whole CTA waves until the wave time is
// steady (after the first wave, and once a wave's stores are written back as fast as they come,
// so that L2 write-backs are part of the steady state), then extrapolates the remaining CTAs
// and their work at the measured rate and reports the bound. Pure C++.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "models/gpu/core/cluster_multicast.h"
#include "models/gpu/core/event_queue.h"
#include "models/gpu/core/gpu_config.h"
#include "models/gpu/core/memory_system.h"
#include "models/gpu/core/occupancy.h"
#include "models/gpu/core/sm.h"
#include "models/gpu/core/warp_program.h"
#include "models/hbm/core/hbm_system.h"

namespace sim::gpu {

struct SamplingOptions {
    bool enabled = true;
    /// Steady: the mean time of the last waves (windows to max_windows of them, after
    /// warm-up) is known to within this fraction at about 95% confidence (two standard errors).
    double tolerance = 0.05;
    uint32_t windows = 3;       ///< steady waves required at least
    uint32_t max_windows = 16;  ///< waves averaged at most
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

    static KernelTotals of(const SmCounters& sm, const MemoryCounters& memory);
    /// this + (later - earlier) x factor, field by field.
    KernelTotals extrapolated(const KernelTotals& earlier, double factor) const;
};

struct KernelResult {
    uint64_t cycles = 0;            ///< the kernel's time in SM cycles (extrapolated if sampled)
    uint64_t simulated_cycles = 0;  ///< cycles actually simulated
    uint64_t ctas = 0;
    uint64_t simulated_ctas = 0;  ///< CTAs that ran to completion in the simulation
    bool extrapolated = false;    ///< sampled and stopped early
    double bound = 0;             ///< extrapolation error bound, a fraction of cycles
    Occupancy occupancy;
    SmCounters sm;          ///< over the simulated cycles
    MemoryCounters memory;  ///< over the simulated cycles
    KernelTotals totals;    ///< the whole kernel (extrapolated when sampled)
};

class GpuCore {
  public:
    /// Throws std::invalid_argument for a kernel that does not fit on an SM or a bad config.
    GpuCore(const GpuCoreConfig& config, const hbm::HbmCoreConfig& hbm, const KernelLaunch& k);
    KernelResult run(const SamplingOptions& sampling);
    const MemorySystem& memory() const { return memory_; }

  private:
    void wake(uint32_t sm, uint64_t at);
    void dispatch(uint32_t sm, uint64_t now);
    /// Called when a wave of CTAs has finished: whether the wave time is steady; if so r gets
    /// the extrapolated cycles and bound.
    bool steady(uint64_t now, const SamplingOptions& sampling, KernelResult& r);

    GpuCoreConfig config_;
    KernelLaunch kernel_;
    Occupancy occupancy_;
    EventQueue events_;
    MemorySystem memory_;
    ClusterMulticast multicast_;
    double dram_bytes_per_cycle_;  ///< peak DRAM bandwidth per SM cycle
    SmCounters counters_;
    std::vector<std::unique_ptr<Sm>> sms_;
    uint64_t next_cta_ = 0;
    uint64_t done_ctas_ = 0;
    std::vector<uint64_t> wave_ends_;  ///< cycle at which each whole wave of CTAs had finished
    std::vector<KernelTotals> wave_totals_;  ///< the counters at each wave end
    size_t warm_wave_ = 0;  ///< waves ending after wave_ends_[warm_wave_] count as steady
};

}  // namespace sim::gpu
