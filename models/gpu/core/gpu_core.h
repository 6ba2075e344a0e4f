// SPDX-License-Identifier: MIT
// The cycle-level GPU running one kernel: a CTA dispatcher that keeps every SM filled up to its
// occupancy, the SMs, and the memory system, all advanced from one event calendar (SM cycles)
// plus the HBM model's own clock. Only SMs with a warp able to issue are ticked.
//
// Fidelity: `cycle` runs every CTA. `sampled` does two things. Inside a wave, once the main
// loop's trips run at a steady rate it fast-forwards them (LoopFastForward). Across waves, it
// runs whole CTA waves until the wave time is steady (after the first wave, and once a wave's
// stores are written back as fast as they come, so that L2 write-backs are part of the steady
// state), then extrapolates the remaining CTAs and their work at the measured rate. Both
// report their bound. Pure C++.
#pragma once

#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "models/gpu/core/cluster_multicast.h"
#include "models/gpu/core/event_queue.h"
#include "models/gpu/core/gpu_config.h"
#include "models/gpu/core/loop_fast_forward.h"
#include "models/gpu/core/memory_system.h"
#include "models/gpu/core/occupancy.h"
#include "models/gpu/core/sampling.h"
#include "models/gpu/core/sm.h"
#include "models/gpu/core/warp_program.h"
#include "models/hbm/core/hbm_system.h"

namespace sim::gpu {

struct KernelResult {
    uint64_t cycles = 0;            ///< the kernel's time in SM cycles (extrapolated if sampled)
    uint64_t simulated_cycles = 0;  ///< cycles actually simulated
    uint64_t ctas = 0;
    uint64_t simulated_ctas = 0;  ///< CTAs that ran to completion in the simulation
    uint64_t skipped_trips = 0;   ///< main-loop trips fast-forwarded (all CTAs together)
    bool extrapolated = false;    ///< sampled: stopped early or fast-forwarded
    double bound = 0;             ///< extrapolation error bound, a fraction of cycles
    Occupancy occupancy;
    SmCounters sm;          ///< over the simulated cycles
    MemoryCounters memory;  ///< over the simulated cycles
    KernelTotals totals;    ///< the whole kernel (extrapolated when sampled)
};

class GpuCore {
  public:
    /// Throws std::invalid_argument for a kernel that does not fit on an SM or a bad config.
    /// dram says which DRAM model serves the L2's misses (dram_port.h; by default one of its
    /// own, of organisation hbm); behind a port, run() waits on the port's time.
    GpuCore(const GpuCoreConfig& config,
            const hbm::HbmCoreConfig& hbm,
            const KernelLaunch& k,
            DramAccess dram = {});
    KernelResult run(const SamplingOptions& sampling);
    const MemorySystem& memory() const { return memory_; }

  private:
    std::vector<uint32_t> cluster_slots_;  ///< dispatch_clusters' SMs for the next cluster
    void wake(uint32_t sm, uint64_t at);
    /// Launches CTAs on the slots SM sm freed at cycle now.
    void dispatch(uint32_t sm, uint64_t now);
    /// The same for a kernel of thread-block clusters: a cluster launches whole, once the GPU
    /// has as many free CTA slots (SM sm's first, then the next SMs'), as Hopper's cluster
    /// scheduler places a cluster's CTAs together; CTAs launched one by one as slots freed put
    /// a cluster's CTAs out of step, and its exchanges waited for the last one.
    void dispatch_clusters(uint32_t sm, uint64_t now);
    /// Called when a wave of CTAs has finished, at kernel time now with the totals so far:
    /// whether the wave time is steady; if so r gets the extrapolated cycles and bound.
    bool steady(uint64_t now,
                const KernelTotals& so_far,
                const SamplingOptions& sampling,
                KernelResult& r);
    /// A main-loop window ends at cycle now: jumps ahead when the trips run steadily.
    void fast_forward(LoopFastForward& loops, uint64_t now);
    /// Moves each resident CTA's main loop on by what its own rate makes in the jump's time;
    /// returns the trips skipped in all.
    uint64_t skip_each_cta(const LoopFastForward::Jump& jump, uint64_t now);
    /// The work counted up to simulated cycle now, fast-forwarded trips included.
    KernelTotals totals_at(uint64_t now);
    /// DRAM reads the CTAs now running have made so far.
    double running_dram_reads() const;
    /// The kernel's time at simulated cycle now: fast-forwarded trips included.
    uint64_t kernel_time(uint64_t now) const {
        return now + static_cast<uint64_t>(std::llround(skipped_cycles_));
    }

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
    std::vector<uint64_t> wave_ends_;        ///< kernel cycle at which each whole wave had finished
    std::vector<double> wave_work_;          ///< CTAs done at each wave end
    std::vector<KernelTotals> wave_totals_;  ///< the counters at each wave end
    /// At each wave end: the CTAs done and the DRAM reads of those done (the running CTAs'
    /// loads so far taken out).
    std::vector<double> wave_done_ctas_, wave_done_reads_;
    /// Finer marks than waves for the sampler's phase-averaged rate (sampled runs only): the
    /// kernel cycle and the CTAs done each time the count passes another kMarksPerWave-th of a
    /// wave.
    static constexpr uint64_t kMarksPerWave = 8;
    std::vector<uint64_t> mark_times_;
    std::vector<double> mark_ctas_;
    size_t warm_wave_ = 0;       ///< waves ending after wave_ends_[warm_wave_] count as steady
    double skipped_cycles_ = 0;  ///< time of the fast-forwarded trips (the simulated time is
                                 ///< this much behind the kernel's)
    double skipped_bound_ = 0;   ///< about a 95% interval on skipped_cycles_
    KernelTotals skipped_;       ///< work of the fast-forwarded trips
    uint64_t skipped_trips_ = 0;
    /// Main-loop trips of every CTA slot at each loop window since the rate's last reset.
    std::vector<std::vector<uint32_t>> window_trips_;
};

}  // namespace sim::gpu
