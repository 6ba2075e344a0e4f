// SPDX-License-Identifier: MIT
// One streaming multiprocessor: resident CTAs within the occupancy limits, warps spread over
// sub-partitions, and per sub-partition a warp scheduler (GTO or LRR) that issues at most one
// warp-instruction per cycle from its ready warps. A scoreboard holds each register's ready
// cycle (or "waiting for memory" until every line of its load is back); pipelines have an
// initiation interval (32 / lanes) and a latency; SIMT warps carry an active mask, and a
// divergent region runs once per path with that path's lanes. The SM is ticked only at cycles
// where some sub-partition can issue (event-driven: it reports its next such cycle). Pure C++.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "models/gpu/core/cluster_multicast.h"
#include "models/gpu/core/gpu_config.h"
#include "models/gpu/core/memory_system.h"
#include "models/gpu/core/warp_program.h"

namespace sim::gpu {

constexpr uint64_t kNeverCycle = ~0ULL;

/// What the SMs of a kernel did, summed over SMs.
struct SmCounters {
    uint64_t warp_instructions = 0;  ///< issue slots used (an arithmetic run counts each)
    uint64_t scheduler_decisions = 0;
    double thread_flops = 0;  ///< FLOPs: active threads' (FFMA 2, FALU and SFU 1) and MMAs'
    double tensor_flops = 0;  ///< the part of thread_flops the Tensor Cores did
    // Warp-cycles each resident warp spent waiting, by reason (Nsight's warp states).
    uint64_t stall_memory = 0;      ///< an operand still in flight from memory, or L1 misses full
    uint64_t stall_dependency = 0;  ///< an operand from a fixed-latency pipeline
    uint64_t stall_pipeline = 0;    ///< ready, but its pipeline was busy
    uint64_t stall_barrier = 0;
    uint64_t not_selected = 0;        ///< ready, but the scheduler issued another warp
    uint64_t no_eligible_cycles = 0;  ///< scheduler cycles with warps resident but none ready
    double warp_residency = 0;        ///< resident warps integrated over SM cycles
    uint64_t ctas_done = 0;
    uint64_t main_loop_trips = 0;    ///< trips of the kernel's main loop done (warp 0 of each CTA)
    uint64_t shared_wavefronts = 0;  ///< LDS and STS passes over the 32 shared-memory banks
    /// Shared-memory bytes moved by the async proxy: bulk copies landing or leaving (cp.async,
    /// TMA loads, multicasts and stores) and wgmma's operand reads.
    double shared_async_bytes = 0;
};

class Sm {
  public:
    Sm(uint32_t id,
       const GpuCoreConfig& config,
       const KernelLaunch& kernel,
       uint32_t ctas_per_sm,
       MemorySystem& memory,
       ClusterMulticast& multicast,
       SmCounters& counters);

    bool has_free_cta_slot() const { return resident_ctas_ < ctas_per_sm_; }
    uint32_t free_cta_slots() const { return ctas_per_sm_ - resident_ctas_; }
    /// DRAM bytes read so far for the CTAs running here (MemorySystem::dram_reads_of).
    double running_dram_reads() const;
    /// Places CTA cta on the SM; its warps may issue from cycle now.
    void launch(uint64_t cta, uint64_t now);
    /// Issues on every sub-partition that can at cycle now. Finished CTAs are counted in
    /// finished_ctas (the caller drains it).
    void tick(uint64_t now);
    /// `lines` lines of the load behind token are back at cycle now.
    void load_returned(uint32_t token, uint32_t lines, uint64_t now);
    /// Hints the host to fetch what load_returned(token) reads (see sim/core/prefetch.h).
    void prefetch_returned(uint32_t token) const;
    /// Wakes the warps waiting for L1 entries once a batch of them is free.
    void wake_throttled(uint64_t now);
    /// Hints the host to fetch this SM's schedulers; then (a later call, once they are in) the
    /// warps a tick(now) will read. GpuCore hints every SM it is about to tick first.
    void prefetch_schedulers() const;
    void prefetch_awake_warps(uint64_t now) const;
    /// The next cycle tick() may issue; kNeverCycle while every warp waits on memory.
    uint64_t next_wake() const;
    /// Closes the residency integral and idle intervals at the end of a run.
    void finish(uint64_t now);
    /// Brings the residency integral up to cycle now (the counters are read then).
    void account(uint64_t now) { account_residency(now); }
    /// Adds to into the waits resident warps are in at now, by reason, as they would be booked
    /// were each to issue at now (a warp books its wait only when it next issues), and the
    /// schedulers' idle stretches in progress.
    void add_waits_in_progress(uint64_t now, SmCounters& into) const;
    uint32_t resident_ctas() const { return resident_ctas_; }
    /// The fewest trips of the kernel's main loop a resident warp has left; 0 when a resident
    /// warp is outside it, kNoWarps when none is resident.
    uint32_t main_loop_trips_left() const;
    static constexpr uint32_t kNoWarps = ~0u;
    /// Main-loop trips each CTA slot's first warp has done (kNoWarps for a free slot), one
    /// entry per slot, appended.
    void main_loop_trips_by_slot(std::vector<uint32_t>& out) const;
    /// The CTA in slot `slot` (meaningful while it is live).
    uint64_t cta_in_slot(uint32_t slot) const { return warps_[ctas_[slot].first_warp].cta; }
    /// The fewest main-loop trips a warp of CTA slot `slot` has left; 0 when one is outside
    /// the loop, kNoWarps when the slot holds no live warp.
    uint32_t main_loop_trips_left(uint32_t slot) const;
    /// Moves CTA slot `slot`'s warps' main loop ahead by trips (fewer than any has left).
    void skip_main_loop(uint32_t slot, uint32_t trips);

    uint32_t finished_ctas = 0;
    uint64_t scheduled = kNeverCycle;  ///< the wake-up the caller has queued (dedupe)

  private:
    struct Loop {
        uint32_t start = 0;
        uint32_t trips = 0;
        uint32_t done = 0;
    };
    /// What a scheduler scan reads comes first, in one host cache line; then the scoreboard.
    struct alignas(64) Warp {
        bool live = false;
        bool at_barrier = false;
        bool saw_pipe_busy = false;
        bool saw_throttle = false;
        uint32_t pc = 0;
        uint32_t run_left = 0;  ///< instructions left in the current arithmetic run
        uint32_t depth = 0;
        uint64_t next_ready = 0;  ///< an arithmetic run's own pace
        uint32_t in_flight = 0;   ///< bit r: pending[r] > 0 (registers with lines not back)
        uint32_t loaded = 0;      ///< registers last written by a load
        std::array<Loop, 2> loops{};
        uint32_t full_mask = 0;                    ///< threads that exist
        uint32_t mask = 0;                         ///< threads active now
        std::array<uint16_t, kMaxRegs> pending{};  ///< load lines not back
        std::array<uint64_t, kMaxRegs> ready{};
        uint64_t since = 0;  ///< when it last finished issuing (stall accounting)
        uint64_t cta = 0;
        uint64_t age = 0;
        uint32_t cta_slot = 0;
        uint32_t warp_in_cta = 0;
        uint32_t paths = 1, path = 0, region_start = 0;  ///< divergent region
        uint32_t multicasts = 0;  ///< multicast copies and cluster exchanges issued
    };
    struct CtaSlot {
        bool live = false;
        uint32_t warps_alive = 0;
        uint32_t arrived = 0;
        uint32_t first_warp = 0;
    };
    struct SubPartition {
        /// Warp slots it schedules: sub-partition k of S has slots k, k + S, k + 2S, ...
        std::vector<uint32_t> warps;
        uint32_t last = 0;        ///< index in warps of the last issued
        uint64_t busy_until = 0;  ///< an arithmetic run holds the issue slot
        std::array<uint64_t, 6> pipe_free{};
        uint64_t next = kNeverCycle;
        uint64_t idle_since = kNeverCycle;
        uint32_t resident = 0;
    };
    enum Pipe : uint8_t { kFp32, kInt, kSfu, kLsu, kMio, kTensor };

    /// The cycle warp w could issue its current instruction (kNeverCycle: memory or barrier);
    /// parked is set when only an event can change that (see awake_).
    uint64_t ready_at(Warp& w, SubPartition& sp, uint64_t now, bool& parked);
    /// The event that ends a warp's wait: the next scan reads it again.
    void unpark(uint32_t slot) {
        const size_t i = slot / sps_.size();
        awake_of(slot % sps_.size())[i / 64] |= uint64_t{1} << (i % 64);
    }
    uint64_t* awake_of(size_t sp) { return awake_.data() + sp * awake_words_; }
    const uint64_t* awake_of(size_t sp) const { return awake_.data() + sp * awake_words_; }
    void issue(uint32_t slot, SubPartition& sp, uint64_t now);
    /// Register r of w waits for `lines` more lines (a load's, a copy's, an exchange's) to
    /// come back through load_returned.
    void await_lines(Warp& w, uint8_t r, size_t lines);
    /// One warp-instruction issued at now: the issue slot busy for a cycle, the warp on to
    /// its next instruction.
    void issued_one(Warp& w, SubPartition& sp, uint64_t now);
    /// Books w's wait from w.since to now into `into` by reason: operands in flight from memory
    /// or a pipeline, then what the warp saw while ready (throttled, pipeline busy, or another
    /// warp chosen); the whole wait at a barrier.
    void book_wait(const Warp& w, uint64_t now, SmCounters& into) const;
    /// Resolves loop and divergence markers from w.pc to the next instruction that issues.
    void advance_control(Warp& w);
    void retire(uint32_t slot, uint64_t now);
    void release_barrier(CtaSlot& c, uint64_t now);
    uint32_t iteration(const Warp& w) const;
    void account_residency(uint64_t now);
    void schedule_sub_partition(SubPartition& sp, uint64_t now);
    uint32_t interval_of(Pipe p) const;
    uint32_t latency_of(Pipe p) const;
    /// Register r of in as warp w names it now (rotating registers).
    uint8_t rotated(const Warp& w, const Instr& in, uint8_t r) const {
        if (r == kNoReg || in.rotate <= 1) return r;
        return static_cast<uint8_t>(r + (iteration(w) + in.unrolled) % in.rotate);
    }
    /// Issues a bulk copy (Tma, TmaStore); returns the issue slots it used.
    uint32_t issue_bulk(uint32_t slot, Warp& w, const Instr& in, uint64_t now);
    static Pipe pipe_of(Opcode op);

    uint32_t id_;
    const GpuCoreConfig& config_;
    const KernelLaunch& kernel_;
    uint32_t main_loop_start_;  ///< the main loop body's first pc (0: no main loop)
    uint32_t ctas_per_sm_;
    MemorySystem& memory_;
    ClusterMulticast& multicast_;
    SmCounters& counters_;
    std::vector<Warp> warps_;
    std::vector<CtaSlot> ctas_;
    std::vector<SubPartition> sps_;
    /// Per sub-partition k, awake_words_ words from k * awake_words_: bit i for entry i of its
    /// warps, clear ("parked") once a scan found that warp waiting for something only an event
    /// ends (its loads, a barrier, a launch into an empty slot); that event sets it again. A
    /// scan visits only the set bits. One array for the SM, so that it is hinted at once.
    std::vector<uint64_t> awake_;
    size_t awake_words_ = 1;
    uint32_t resident_ctas_ = 0;
    uint32_t resident_warps_ = 0;
    uint64_t residency_since_ = 0;
    uint64_t next_age_ = 0;
    bool throttled_ = false;  ///< a load waits for an L1 miss entry
    std::array<LineAccess, 32> lines_{};
    std::vector<LineAccess> bulk_;
    std::vector<LoadReturn> members_;
};

}  // namespace sim::gpu
