// SPDX-License-Identifier: MIT
#include "models/gpu/core/sm.h"

#include <algorithm>

#include "models/gpu/core/coalescer.h"
#include "sim/core/error.h"
#include "sim/core/prefetch.h"

namespace sim::gpu {

namespace {
/// Instructions of an arithmetic run issued per scheduler decision: the run holds its issue
/// slot for that many cycles, so other warps interleave at this granularity.
constexpr uint32_t kRunChunk = 64;
/// Free L1 miss entries at which loads held back for want of one try again.
constexpr uint32_t kThrottleBatch = 16;

double flops_per_thread(Opcode op) {
    switch (op) {
        case Opcode::Ffma: return 2;
        case Opcode::Falu:
        case Opcode::Sfu: return 1;
        default: return 0;
    }
}

uint32_t lanes_of_path(uint32_t path, uint32_t paths) {
    uint32_t m = 0;
    for (uint32_t lane = path; lane < 32; lane += paths)
        m |= 1u << lane;
    return m;
}
/// The first pc of a loop's body (0: no loop; a body never starts at pc 0).
uint32_t body_start(const MainLoop& loop) {
    return loop.found() ? loop.begin + 1 : 0;
}

}  // namespace

Sm::Sm(uint32_t id,
       const GpuCoreConfig& config,
       const KernelLaunch& kernel,
       uint32_t ctas_per_sm,
       MemorySystem& memory,
       ClusterMulticast& multicast,
       SmCounters& counters)
    : id_(id),
      config_(config),
      kernel_(kernel),
      main_loop_start_(body_start(main_loop_of(kernel))),
      ctas_per_sm_(ctas_per_sm),
      memory_(memory),
      multicast_(multicast),
      counters_(counters),
      warps_(ctas_per_sm * kernel.warps_per_cta()),
      ctas_(ctas_per_sm),
      sps_(config.sm.sub_partitions) {
    for (uint32_t slot = 0; slot < warps_.size(); ++slot)
        sps_[slot % sps_.size()].warps.push_back(slot);
    awake_words_ = std::max<size_t>(1, (sps_.front().warps.size() + 63) / 64);
    awake_.assign(sps_.size() * awake_words_, 0);
    for (uint32_t slot = 0; slot < warps_.size(); ++slot)
        unpark(slot);
}

Sm::Pipe Sm::pipe_of(Opcode op) {
    switch (op) {
        case Opcode::Ffma:
        case Opcode::Falu: return kFp32;
        case Opcode::Sfu: return kSfu;
        case Opcode::Ldg:
        case Opcode::Stg: return kLsu;
        case Opcode::Lds:
        case Opcode::Sts:
        case Opcode::Shfl: return kMio;
        case Opcode::Mma: return kTensor;
        case Opcode::Tma:
        case Opcode::TmaStore:
        case Opcode::ClusterExchange: return kLsu;
        default: return kInt;
    }
}

uint32_t Sm::interval_of(Pipe p) const {
    switch (p) {
        case kFp32: return config_.sm.fp32.interval();
        case kSfu: return config_.sm.sfu.interval();
        case kLsu: return config_.sm.lsu.interval();
        case kMio: return config_.sm.shuffle.interval();
        case kTensor: return kernel_.mma[0].interval;
        default: return config_.sm.integer.interval();
    }
}

uint32_t Sm::latency_of(Pipe p) const {
    switch (p) {
        case kFp32: return config_.sm.fp32.latency;
        case kSfu: return config_.sm.sfu.latency;
        case kLsu: return config_.sm.lsu.latency;
        case kMio: return config_.sm.shuffle.latency;
        case kTensor: return kernel_.mma[0].latency;
        default: return config_.sm.integer.latency;
    }
}

void Sm::account_residency(uint64_t now) {
    counters_.warp_residency += double(resident_warps_) * double(now - residency_since_);
    residency_since_ = now;
}

void Sm::launch(uint64_t cta, uint64_t now) {
    SIM_ASSERT(has_free_cta_slot(), "CTA launched on a full SM");
    account_residency(now);
    uint32_t c = 0;
    while (ctas_[c].live)
        ++c;
    const uint32_t per_cta = kernel_.warps_per_cta();
    ctas_[c] = {true, per_cta, 0, c * per_cta};
    memory_.forget_dram_reads(id_, c * per_cta, per_cta);
    ++resident_ctas_;
    resident_warps_ += per_cta;
    for (uint32_t i = 0; i < per_cta; ++i) {
        const uint32_t slot = c * per_cta + i;
        Warp& w = warps_[slot];
        w = Warp{};
        w.live = true;
        w.cta_slot = c;
        w.warp_in_cta = i;
        w.cta = cta;
        w.age = next_age_++;
        const uint32_t threads = std::min(32u, kernel_.threads_per_cta - i * 32);
        w.full_mask = threads == 32 ? ~0u : (1u << threads) - 1;
        w.mask = w.full_mask;
        w.since = now;
        w.next_ready = now;
        advance_control(w);
        unpark(slot);
        SubPartition& sp = sps_[slot % sps_.size()];
        ++sp.resident;
        sp.next = std::min(sp.next, now);
    }
}

uint32_t Sm::iteration(const Warp& w) const {
    if (w.depth == 0) return 0;
    if (w.depth == 1) return w.loops[0].done;
    return w.loops[0].done * w.loops[1].trips + w.loops[1].done;
}

void Sm::advance_control(Warp& w) {
    while (true) {
        const Instr& in = kernel_.program[w.pc];
        if ((in.leader && w.warp_in_cta != 0) ||  // `if (warp == 0)`: a uniform branch
            (in.stream_k_only && !kernel_.grid.is_stream_k_unit(w.cta))) {
            ++w.pc;
            continue;
        }
        switch (in.op) {
            case Opcode::LoopBegin: {
                uint32_t trips = in.count;
                if (in.grid_trips) {
                    trips = static_cast<uint32_t>(kernel_.grid.trips(w.cta));
                } else if (in.triangular) {
                    const uint64_t diagonal = (kernel_.grid.of(w.cta).m + 1) * in.chains;
                    trips = static_cast<uint32_t>(std::min<uint64_t>(trips, diagonal));
                } else if (in.from_diagonal) {
                    const uint64_t skipped = kernel_.grid.of(w.cta).m * in.chains;
                    trips = skipped < trips ? static_cast<uint32_t>(trips - skipped) : 1;
                }
                w.loops[w.depth++] = {w.pc + 1, trips, 0};
                ++w.pc;
                break;
            }
            case Opcode::LoopEnd: {
                Loop& l = w.loops[w.depth - 1];
                if (w.depth == 1 && l.start == main_loop_start_ && w.warp_in_cta == 0)
                    ++counters_.main_loop_trips;
                if (++l.done < l.trips) {
                    w.pc = l.start;
                } else {
                    --w.depth;
                    ++w.pc;
                }
                break;
            }
            case Opcode::Diverge:
                w.paths = in.count;
                w.path = 0;
                w.region_start = w.pc + 1;
                w.mask = w.full_mask & lanes_of_path(0, w.paths);
                while (w.mask == 0 && w.path + 1 < w.paths)
                    w.mask = w.full_mask & lanes_of_path(++w.path, w.paths);
                ++w.pc;
                break;
            case Opcode::Reconverge:
                // The SIMT stack pops to the next path with threads, or to the full mask.
                w.mask = 0;
                while (w.mask == 0 && w.path + 1 < w.paths)
                    w.mask = w.full_mask & lanes_of_path(++w.path, w.paths);
                if (w.mask != 0) {
                    w.pc = w.region_start;
                } else {
                    w.paths = 1;
                    w.path = 0;
                    w.mask = w.full_mask;
                    ++w.pc;
                }
                break;
            default: return;
        }
    }
}

uint64_t Sm::ready_at(Warp& w, SubPartition& sp, uint64_t now, bool& parked) {
    parked = true;
    if (!w.live || w.at_barrier) return kNeverCycle;
    const Instr& in = kernel_.program[w.pc];
    uint64_t t = w.next_ready;
    if (w.run_left == 0) {
        // A bulk copy's destination is a completion token, as an mbarrier counts the bytes of
        // every copy that signals it: a copy adds to the loads in flight to its token instead
        // of waiting for them. (Waiting serialised a GEMM's A and B copies of one stage, and
        // with them every later stage: one copy in flight per CTA, the DRAM latency exposed
        // on every k-tile.)
        const uint8_t dst =
            in.op == Opcode::Tma || in.op == Opcode::ClusterExchange ? kNoReg : in.dst;
        for (uint8_t name : {in.src[0], in.src[1], dst}) {
            const uint8_t r = rotated(w, in, name);
            if (r == kNoReg) continue;
            // Loads in flight to r (pending[r] > 0, kept in in_flight: no second line read).
            if (w.in_flight & (1u << r)) return kNeverCycle;  // woken by load_returned
            t = std::max(t, w.ready[r]);
        }
    }
    if (in.op == Opcode::Exit) {
        // A warp leaves once its loads are in: a copy still in flight (a prefetch past the
        // last trip) must not land in the next CTA's warp slot.
        if (w.in_flight) return kNeverCycle;  // woken by load_returned
        parked = false;
        return t;
    }
    parked = false;
    if (in.op == Opcode::Bar) return t;
    const uint64_t pipe = sp.pipe_free[pipe_of(in.op)];
    if (pipe > t && pipe > now) w.saw_pipe_busy = true;
    t = std::max(t, pipe);
    if ((in.op == Opcode::Ldg || in.op == Opcode::Stg) && t <= now &&
        !memory_.has_free_l1_entries(id_, 1)) {
        w.saw_throttle = true;
        throttled_ = true;
        return kNeverCycle;  // an L1 entry frees when a line returns or a store is written
    }
    return t;
}

void Sm::prefetch_returned(uint32_t token) const {
    if (token == kStoreWrittenToken) return;
    const Warp& w = warps_[token / kMaxRegs];
    __builtin_prefetch(&w);
    __builtin_prefetch(&w.pending[token % kMaxRegs]);
    __builtin_prefetch(&w.ready[token % kMaxRegs]);
}

void Sm::prefetch_schedulers() const {
    prefetch_bytes(sps_.data(), sps_.size() * sizeof(SubPartition));
    prefetch_bytes(awake_.data(), awake_.size() * sizeof(uint64_t));
}

void Sm::prefetch_awake_warps(uint64_t now) const {
    const size_t subs = sps_.size();
    for (size_t k = 0; k < subs; ++k) {
        if (sps_[k].next > now) continue;
        const uint64_t* awake = awake_of(k);
        for (size_t word = 0; word < awake_words_; ++word) {
            for (uint64_t bits = awake[word]; bits; bits &= bits - 1)
                __builtin_prefetch(&warps_[(word * 64 + size_t(__builtin_ctzll(bits))) * subs + k]);
        }
    }
}

void Sm::tick(uint64_t now) {
    for (SubPartition& sp : sps_) {
        if (sp.next <= now) schedule_sub_partition(sp, now);
    }
}

void Sm::schedule_sub_partition(SubPartition& sp, uint64_t now) {
    if (sp.busy_until > now) {
        sp.next = sp.busy_until;
        return;
    }
    const size_t n = sp.warps.size();
    const size_t subs = sps_.size(), k = static_cast<size_t>(&sp - sps_.data());
    uint64_t* awake = awake_of(k);
    int best = -1;
    uint64_t earliest = kNeverCycle;
    const bool gto = config_.sm.scheduler == SchedulerPolicy::Gto;
    // Reads warp i, which is awake; true ends the scan. GTO looks at every warp and keeps the
    // last one issued if it is ready, else the oldest; LRR takes the first ready one.
    const auto visit = [&](size_t i) {
        Warp& w = warps_[i * subs + k];  // sp.warps[i]
        bool parked = false;
        const uint64_t t = ready_at(w, sp, now, parked);
        if (parked) awake[i / 64] &= ~(uint64_t{1} << (i % 64));
        if (t > now) {
            earliest = std::min(earliest, t);
            return false;
        }
        if (!gto || i == sp.last) {
            best = static_cast<int>(i);
            return true;
        }
        if (best < 0 || w.age < warps_[size_t(best) * subs + k].age) best = static_cast<int>(i);
        return false;
    };
    // The awake warps of [from, to) in order, until visit ends the scan.
    const auto scan = [&](size_t from, size_t to) {
        for (size_t word = from / 64; word * 64 < to; ++word) {
            uint64_t bits = awake[word];
            if (word == from / 64) bits &= ~uint64_t{0} << (from % 64);
            while (bits) {
                const size_t i = word * 64 + static_cast<size_t>(__builtin_ctzll(bits));
                if (i >= to) return false;
                if (visit(i)) return true;
                bits &= bits - 1;
            }
        }
        return false;
    };
    // LRR starts after the last warp issued and wraps around; GTO starts at the first.
    const size_t start = gto ? 0 : (sp.last + 1) % n;
    if (!scan(start, n)) scan(0, start);
    if (best < 0) {
        if (sp.idle_since == kNeverCycle && sp.resident) sp.idle_since = now;
        sp.next = earliest;
        return;
    }
    if (sp.idle_since != kNeverCycle) {
        counters_.no_eligible_cycles += now - sp.idle_since;
        sp.idle_since = kNeverCycle;
    }
    sp.last = static_cast<uint32_t>(best);
    issue(sp.warps[best], sp, now);
    sp.next = std::max(now + 1, sp.busy_until);
}

void Sm::issue(uint32_t slot, SubPartition& sp, uint64_t now) {
    Warp& w = warps_[slot];
    const Instr& in = kernel_.program[w.pc];
    ++counters_.scheduler_decisions;
    book_wait(w, now, counters_);
    w.saw_throttle = w.saw_pipe_busy = false;

    const Pipe p = pipe_of(in.op);
    uint32_t interval = interval_of(p), latency = latency_of(p);
    if (in.op == Opcode::Mma) {
        interval = kernel_.mma[in.stream].interval;
        latency = kernel_.mma[in.stream].latency;
    }
    switch (in.op) {
        case Opcode::Tma:
        case Opcode::TmaStore: {
            const uint32_t slots = issue_bulk(slot, w, in, now);
            sp.pipe_free[p] = now + uint64_t{slots} * interval;
            counters_.warp_instructions += slots;
            sp.busy_until = now + slots;
            w.next_ready = w.since = now + slots;
            ++w.pc;
            advance_control(w);
            return;
        }
        case Opcode::ClusterExchange: {
            const uint8_t dst = rotated(w, in, in.dst);
            const LoadReturn receiver{id_, slot * kMaxRegs + dst, 1};
            if (multicast_.arrive(w.cta, w.multicasts++, receiver, members_))
                memory_.sm_to_sm(members_, now + 1 + config_.sm.dsmem_latency);
            await_lines(w, dst, 1);
            sp.pipe_free[p] = now + interval;
            issued_one(w, sp, now);
            return;
        }
        case Opcode::Ldg:
        case Opcode::Stg: {
            sp.pipe_free[p] = now + interval;
            const size_t n = coalesce(kernel_.streams[in.stream], w.cta, iteration(w) + in.unrolled,
                                      w.warp_in_cta, w.mask, lines_.data());
            if (in.op == Opcode::Ldg) {
                if (n) {
                    memory_.load(id_, slot * kMaxRegs + in.dst, lines_.data(), n, now + latency);
                    await_lines(w, in.dst, n);
                } else {
                    w.ready[in.dst] = now;
                }
            } else if (n) {
                memory_.store(id_, lines_.data(), n, now + latency);
            }
            issued_one(w, sp, now);
            return;
        }
        case Opcode::Bar: {
            ++counters_.warp_instructions;
            sp.busy_until = now + 1;
            w.since = w.next_ready = now + 1;
            w.at_barrier = true;
            ++w.pc;
            CtaSlot& c = ctas_[w.cta_slot];
            if (++c.arrived == c.warps_alive) release_barrier(c, now + config_.sm.barrier_latency);
            return;
        }
        case Opcode::Exit:
            ++counters_.warp_instructions;
            sp.busy_until = now + 1;
            retire(slot, now);
            return;
        default: break;
    }
    // An arithmetic run: `count` warp-instructions with `chains` independent chains.
    if (w.run_left == 0) w.run_left = in.count;
    const uint32_t c = std::min(w.run_left, kRunChunk);
    if (in.op == Opcode::Lds || in.op == Opcode::Sts) {
        // The SM's shared memory takes one wavefront a cycle, shared evenly by its
        // sub-partitions.
        interval = std::max<uint32_t>(interval, in.shared_wavefronts * uint32_t(sps_.size()));
        counters_.shared_wavefronts += uint64_t{c} * in.shared_wavefronts;
    }
    const uint64_t pace =
        in.count > 1 ? std::max<uint64_t>(interval, (latency + in.chains - 1) / in.chains) : 1;
    sp.pipe_free[p] = now + uint64_t{c} * interval;
    sp.busy_until = now + c;
    counters_.warp_instructions += c;
    counters_.thread_flops +=
        in.op == Opcode::Mma ? double(c) * kernel_.mma[in.stream].flops
                             : double(c) * __builtin_popcount(w.mask) * flops_per_thread(in.op);
    if (in.op == Opcode::Mma) {
        counters_.tensor_flops += double(c) * kernel_.mma[in.stream].flops;
        counters_.shared_async_bytes += double(c) * kernel_.mma[in.stream].shared_bytes;
    }
    w.run_left -= c;
    const uint8_t dst = rotated(w, in, in.dst);
    if (dst != kNoReg) {
        w.ready[dst] = now + (c - 1) * pace + latency;
        w.loaded &= ~(1u << dst);
    }
    w.since = now + c;
    w.next_ready = w.run_left ? now + c * pace : now + c;
    if (w.run_left == 0) {
        ++w.pc;
        advance_control(w);
    }
}

void Sm::await_lines(Warp& w, uint8_t r, size_t lines) {
    SIM_HOT_ASSERT(w.pending[r] + lines <= 0xFFFF, "too many lines in flight to one register");
    w.pending[r] = static_cast<uint16_t>(w.pending[r] + lines);
    w.in_flight |= 1u << r;
    w.ready[r] = kNeverCycle;
    w.loaded |= 1u << r;
}

void Sm::issued_one(Warp& w, SubPartition& sp, uint64_t now) {
    ++counters_.warp_instructions;
    sp.busy_until = now + 1;
    w.next_ready = w.since = now + 1;
    ++w.pc;
    advance_control(w);
}

void Sm::book_wait(const Warp& w, uint64_t now, SmCounters& into) const {
    const uint64_t waited = now - std::min(now, w.since);
    if (w.at_barrier) {
        into.stall_barrier += waited;
        return;
    }
    const Instr& in = kernel_.program[w.pc];
    uint64_t operands = w.next_ready;
    bool from_memory = false;
    if (w.run_left == 0) {
        for (uint8_t name : {in.src[0], in.src[1], in.dst}) {
            const uint8_t r = rotated(w, in, name);
            if (r == kNoReg || w.ready[r] <= operands) continue;
            operands = w.ready[r];
            from_memory = (w.loaded >> r) & 1;
        }
    }
    const uint64_t on_operands = std::min(waited, operands > w.since ? operands - w.since : 0);
    (from_memory ? into.stall_memory : into.stall_dependency) += on_operands;
    const uint64_t rest = waited - on_operands;
    if (w.saw_throttle) {
        into.stall_memory += rest;
    } else if (w.saw_pipe_busy) {
        into.stall_pipeline += rest;
    } else {
        into.not_selected += rest;
    }
}

void Sm::add_waits_in_progress(uint64_t now, SmCounters& into) const {
    for (const Warp& w : warps_) {
        if (w.live) book_wait(w, now, into);
    }
    for (const SubPartition& sp : sps_) {
        if (sp.idle_since != kNeverCycle && sp.resident)
            into.no_eligible_cycles += now - std::min(now, sp.idle_since);
    }
}

uint32_t Sm::issue_bulk(uint32_t slot, Warp& w, const Instr& in, uint64_t now) {
    bulk_.clear();
    const uint32_t part = in.count > 1 ? w.warp_in_cta : 0;
    tile_lines(kernel_.streams[in.stream], kernel_.grid, w.cta, iteration(w) + in.unrolled, part,
               in.count, bulk_);
    const size_t n = bulk_.size();
    uint64_t sectors = 0;
    for (const LineAccess& a : bulk_)
        sectors += sector_count(a.sectors);
    counters_.shared_async_bytes += double(sectors * GpuCoreConfig::kSectorBytes);
    if (in.op == Opcode::TmaStore) {
        if (n) memory_.bulk_store(bulk_.data(), n, now + 1);
    } else {
        const uint8_t dst = rotated(w, in, in.dst);
        if (dst != kNoReg && n) {
            // Each member awaits its own lines: members a main-loop jump paired across
            // different iterations (GpuCore's fast-forward) may have copied tiles of
            // different sizes.
            const LoadReturn receiver{id_, slot * kMaxRegs + dst, static_cast<uint32_t>(n)};
            // A TMA copy (one leader instruction per tile) pays the TMA unit's latency; cp.async
            // copies, split over the warps, take the loads' path.
            // The TMA unit then walks the copy into requests at tma_bytes_per_clock.
            const uint64_t leave = now + 1 + (in.leader ? config_.sm.tma_latency : 0);
            const uint32_t walk = in.leader ? config_.sm.tma_bytes_per_clock : 0;
            if (!in.multicast) {
                memory_.bulk_load(id_, receiver.token, bulk_.data(), n, leave, walk);
            } else if (multicast_.arrive(w.cta, w.multicasts++, receiver, members_)) {
                memory_.multicast_load(members_, bulk_.data(), n, leave, walk);
            }
            await_lines(w, dst, n);
        }
    }
    // TMA is one instruction for a whole tile; cp.async moves 16 bytes per thread (4 lines
    // per warp-instruction).
    return in.count > 1 ? std::max<uint32_t>(1, uint32_t((n + 3) / 4)) : 1;
}

void Sm::release_barrier(CtaSlot& c, uint64_t at) {
    c.arrived = 0;
    for (uint32_t i = 0; i < kernel_.warps_per_cta(); ++i) {
        const uint32_t slot = c.first_warp + i;
        Warp& w = warps_[slot];
        if (!w.live || !w.at_barrier) continue;
        counters_.stall_barrier += at - std::min(at, w.since);
        w.at_barrier = false;
        w.since = w.next_ready = std::max(w.next_ready, at);
        advance_control(w);
        unpark(slot);
        SubPartition& sp = sps_[slot % sps_.size()];
        sp.next = std::min(sp.next, at);
    }
}

void Sm::retire(uint32_t slot, uint64_t now) {
    Warp& w = warps_[slot];
    account_residency(now);
    w.live = false;
    --resident_warps_;
    SubPartition& sp = sps_[slot % sps_.size()];
    if (--sp.resident == 0 && sp.idle_since != kNeverCycle) {
        counters_.no_eligible_cycles += now - std::min(now, sp.idle_since);
        sp.idle_since = kNeverCycle;
    }
    CtaSlot& c = ctas_[w.cta_slot];
    --c.warps_alive;
    if (c.warps_alive > 0 && c.arrived == c.warps_alive)
        release_barrier(c, now + config_.sm.barrier_latency);
    if (c.warps_alive == 0) {
        c.live = false;
        --resident_ctas_;
        ++finished_ctas;
        ++counters_.ctas_done;
    }
}

void Sm::load_returned(uint32_t token, uint32_t lines, uint64_t now) {
    if (token == kStoreWrittenToken) {
        wake_throttled(now);
        return;
    }
    const uint32_t slot = token / kMaxRegs;
    const uint32_t reg = token % kMaxRegs;
    Warp& w = warps_[slot];
    SIM_ASSERT(w.pending[reg] >= lines, "more lines returned than were loaded");
    w.pending[reg] = static_cast<uint16_t>(w.pending[reg] - lines);
    if (w.pending[reg] == 0) {
        w.in_flight &= ~(1u << reg);
        w.ready[reg] = now;
        unpark(slot);
        SubPartition& sp = sps_[slot % sps_.size()];
        sp.next = std::min(sp.next, now);
    }
    wake_throttled(now);
}

void Sm::wake_throttled(uint64_t now) {
    // A returned line or a written store frees an L1 entry. Loads and stores waiting for
    // entries retry once a batch of them is free, not on every line (which would rescan every
    // warp per line).
    if (throttled_ &&
        memory_.has_free_l1_entries(id_, std::min(kThrottleBatch, config_.l1.max_pending_lines))) {
        throttled_ = false;
        for (SubPartition& sp : sps_)
            sp.next = std::min(sp.next, now);
    }
}

uint32_t Sm::main_loop_trips_left() const {
    uint32_t left = kNoWarps;
    for (uint32_t slot = 0; slot < ctas_.size(); ++slot)
        left = std::min(left, main_loop_trips_left(slot));
    return left;
}

void Sm::main_loop_trips_by_slot(std::vector<uint32_t>& out) const {
    for (const CtaSlot& c : ctas_) {
        const Warp& w = warps_[c.first_warp];
        const bool in_loop = c.live && w.live && w.depth > 0 && main_loop_start_ != 0 &&
                             w.loops[0].start == main_loop_start_;
        out.push_back(in_loop ? w.loops[0].done : kNoWarps);
    }
}

uint32_t Sm::main_loop_trips_left(uint32_t slot) const {
    const CtaSlot& c = ctas_[slot];
    if (!c.live) return kNoWarps;
    uint32_t left = kNoWarps;
    for (uint32_t i = c.first_warp; i < c.first_warp + kernel_.warps_per_cta(); ++i) {
        const Warp& w = warps_[i];
        if (!w.live) continue;
        if (main_loop_start_ == 0 || w.depth == 0 || w.loops[0].start != main_loop_start_) return 0;
        left = std::min(left, w.loops[0].trips - w.loops[0].done);
    }
    return left;
}

void Sm::skip_main_loop(uint32_t slot, uint32_t trips) {
    const CtaSlot& c = ctas_[slot];
    for (uint32_t i = c.first_warp; i < c.first_warp + kernel_.warps_per_cta(); ++i) {
        Warp& w = warps_[i];
        if (!w.live) continue;
        SIM_ASSERT(w.depth > 0 && w.loops[0].start == main_loop_start_ &&
                       w.loops[0].done + trips < w.loops[0].trips,
                   "a main-loop jump past a warp's last trip");
        w.loops[0].done += trips;
    }
}

uint64_t Sm::next_wake() const {
    uint64_t t = kNeverCycle;
    for (const SubPartition& sp : sps_)
        t = std::min(t, sp.next);
    return t;
}

void Sm::finish(uint64_t now) {
    account_residency(now);
    for (SubPartition& sp : sps_) {
        if (sp.idle_since != kNeverCycle && sp.resident)
            counters_.no_eligible_cycles += now - std::min(now, sp.idle_since);
        sp.idle_since = kNeverCycle;
    }
}

double Sm::running_dram_reads() const {
    double bytes = 0;
    for (const CtaSlot& c : ctas_) {
        if (c.live) bytes += memory_.dram_reads_of(id_, c.first_warp, kernel_.warps_per_cta());
    }
    return bytes;
}

}  // namespace sim::gpu
