// SPDX-License-Identifier: MIT
#include "models/gpu/core/memory_system.h"

#include <algorithm>
#include <numeric>

#include "sim/core/error.h"

namespace sim::gpu {

namespace {
constexpr uint32_t kNoSlot = ~0u;
constexpr uint32_t kSector = GpuCoreConfig::kSectorBytes;
constexpr uint64_t kNotHeld = ~0ULL;  ///< l2_read: the line waits on DRAM

uint64_t ceil_div(uint64_t a, uint64_t b) {
    return (a + b - 1) / b;
}

/// An entry of a pool whose freed entries keep their vectors' capacity: a freed one, or a new one.
template <typename Entry>
uint32_t take_from_pool(std::vector<Entry>& pool, std::vector<uint32_t>& free) {
    if (free.empty()) {
        pool.emplace_back();
        return static_cast<uint32_t>(pool.size() - 1);
    }
    const uint32_t index = free.back();
    free.pop_back();
    return index;
}
}  // namespace

MemorySystem::MemorySystem(const GpuCoreConfig& gpu,
                           const hbm::HbmCoreConfig& hbm,
                           EventQueue& events,
                           DramAccess access)
    : gpu_(gpu),
      events_(events),
      sm_clock_("sm", gpu.clock_hz),
      dram_clock_("hbm", hbm.clock_hz),
      own_dram_(access.system && !access.port ? nullptr : std::make_unique<hbm::HbmSystem>(hbm)),
      dram_(own_dram_ ? *own_dram_ : *access.system),
      port_(access.port),
      dram_capacity_(dram_.mapping().capacity()),
      dram_block_shift_(dram_.mapping().column_block_shift()),
      l1_pending_(gpu.sm_count, 0),
      slice_free_(gpu.l2.slices, 0),
      refused_reads_(dram_.pseudo_channel_count()),
      refused_writes_(dram_.pseudo_channel_count()),
      writes_outstanding_(dram_.pseudo_channel_count(), 0),
      deferred_stores_(dram_.pseudo_channel_count()),
      write_queue_per_pc_(
          hbm.controller.queues_per_channel
              ? std::max<uint32_t>(1, hbm.controller.write_queue / hbm.pseudo_channels_per_channel)
              : hbm.controller.write_queue) {
    l1_.reserve(gpu.sm_count);
    for (uint32_t i = 0; i < gpu.sm_count; ++i)
        l1_.emplace_back(gpu.l1.bytes, gpu.l1.ways);
    l1_port_free_.assign(gpu.sm_count, 0);
    l2_.reserve(gpu.l2.slices);
    for (uint32_t i = 0; i < gpu.l2.slices; ++i)
        l2_.emplace_back(gpu.l2.bytes / gpu.l2.slices, gpu.l2.ways);
    if (port_) port_->connect(*this);
    dram_reads_of_warp_.assign(size_t{gpu.sm_count} * gpu.sm.max_warps, 0.0);
}

size_t MemorySystem::warp_index(uint32_t sm, uint32_t warp_slot) const {
    return size_t{sm} * gpu_.sm.max_warps + warp_slot;
}

double MemorySystem::dram_reads_of(uint32_t sm, uint32_t first_warp, uint32_t warps) const {
    const auto first = dram_reads_of_warp_.begin() + warp_index(sm, first_warp);
    return std::accumulate(first, first + warps, 0.0);
}

void MemorySystem::forget_dram_reads(uint32_t sm, uint32_t first_warp, uint32_t warps) {
    const auto first = dram_reads_of_warp_.begin() + warp_index(sm, first_warp);
    std::fill(first, first + warps, 0.0);
}

void MemorySystem::count_dram_read(uint32_t waiter, uint8_t sectors) {
    uint32_t sm = 0, token = 0;
    if (waiter & kCopyWaiter) {
        const Copy& c = copies_[waiter & ~kCopyWaiter];
        if (c.receivers.empty()) return;
        sm = c.receivers.front().sm;
        token = c.receivers.front().token;
    } else {
        sm = requests_[waiter].sm;
        token = requests_[waiter].token;
    }
    const size_t at = warp_index(sm, token / kMaxRegs);
    if (at < dram_reads_of_warp_.size())
        dram_reads_of_warp_[at] += double(sector_count(sectors)) * kSector;
}

uint64_t MemorySystem::dram_cycle_at(uint64_t sm_cycle) const {
    const TimePs t = dram_clock_.next_edge(sm_clock_.to_ps(Cycle{sm_cycle}));
    return dram_clock_.cycle_at(t).value();
}

uint64_t MemorySystem::sm_cycle_at(uint64_t dram_cycle) const {
    const TimePs t = sm_clock_.next_edge(dram_clock_.to_ps(Cycle{dram_cycle}));
    return sm_clock_.cycle_at(t).value();
}

uint32_t MemorySystem::new_request(
    uint64_t line, uint8_t sectors, bool write, uint32_t sm, uint32_t token) {
    uint32_t slot;
    if (free_head_ != 0) {
        slot = free_head_ - 1;
        free_head_ = requests_[slot].next_free;
    } else {
        slot = static_cast<uint32_t>(requests_.size());
        requests_.emplace_back();
    }
    // Field by field into the slot: a Request built by the caller and copied here was read
    // with wide loads from the narrow stores that wrote it, which the host cannot forward
    // (see AddressMapping::decode_into).
    Request& r = requests_[slot];
    r.line = line;
    r.sectors = sectors;
    r.write = write;
    r.sm = sm;
    r.token = token;
    r.l1_miss = false;
    return slot;
}

void MemorySystem::free_request(uint32_t slot) {
    requests_[slot].next_free = free_head_;
    free_head_ = slot + 1;
}

uint32_t MemorySystem::slice_of(uint64_t line) const {
    const uint64_t n = line >> 7;
    return static_cast<uint32_t>((n ^ (n >> 11) ^ (n >> 19)) % gpu_.l2.slices);
}

uint64_t MemorySystem::crossing(uint32_t slice, uint32_t waiter) const {
    const uint32_t parts = gpu_.l2.partitions;
    if (parts == 1) return 0;
    uint32_t sm = 0;
    if (waiter & kCopyWaiter) {
        const Copy& c = copies_[waiter & ~kCopyWaiter];
        if (c.receivers.empty()) return 0;
        sm = c.receivers.front().sm;
    } else {
        sm = requests_[waiter].sm;
    }
    const uint64_t sm_part = uint64_t{sm} * parts / gpu_.sm_count;
    const uint64_t slice_part = uint64_t{slice} * parts / gpu_.l2.slices;
    return sm_part == slice_part ? 0 : gpu_.l2.partition_latency;
}

void MemorySystem::load(
    uint32_t sm, uint32_t token, const LineAccess* lines, size_t n, uint64_t now) {
    for (size_t i = 0; i < n; ++i) {
        const LineAccess& a = lines[i];
        const uint32_t sectors = sector_count(a.sectors);
        const uint64_t start = std::max(now, l1_port_free_[sm]);
        l1_port_free_[sm] =
            start + std::max<uint64_t>(1, ceil_div(sectors * kSector, gpu_.l1.bytes_per_clock));
        counters_.l1_sectors += sectors;
        const uint8_t hit = l1_[sm].lookup(a.line, a.sectors);
        counters_.l1_hit_sectors += sector_count(hit);
        const uint32_t slot = new_request(a.line, a.sectors, false, sm, token);
        if (hit == a.sectors) {
            events_.push(start + gpu_.l1.hit_latency, {EventKind::SmReturn, slot});
            continue;
        }
        requests_[slot].sectors = static_cast<uint8_t>(a.sectors & ~hit);
        requests_[slot].l1_miss = true;
        ++l1_pending_[sm];
        events_.push(start + gpu_.l2.crossbar_latency, {EventKind::L2Arrive, slot});
    }
}

void MemorySystem::store(uint32_t sm, const LineAccess* lines, size_t n, uint64_t now) {
    for (size_t i = 0; i < n; ++i) {
        const LineAccess& a = lines[i];
        const uint64_t start = std::max(now, l1_port_free_[sm]);
        l1_port_free_[sm] =
            start + std::max<uint64_t>(
                        1, ceil_div(sector_count(a.sectors) * kSector, gpu_.l1.bytes_per_clock));
        l1_[sm].invalidate(a.line);
        const uint32_t slot = new_request(a.line, a.sectors, true, sm, 0);
        ++stores_in_flight_;
        ++l1_pending_[sm];  // the store holds an L1 entry until its slice has written it
        events_.push(start + gpu_.l2.crossbar_latency, {EventKind::L2Arrive, slot});
    }
}

void MemorySystem::send_copy(std::vector<LoadReturn> receivers,
                             bool write,
                             const LineAccess* lines,
                             size_t n,
                             uint64_t at,
                             uint32_t walk_bytes_per_clock) {
    if (n == 0) return;
    const uint32_t index = take_from_pool(copies_, free_copies_);
    Copy& c = copies_[index];
    c.lines.assign(lines, lines + n);
    c.receivers = std::move(receivers);
    c.write = write;
    c.walk_bytes_per_clock = walk_bytes_per_clock;
    c.lines_left = write ? 0 : static_cast<uint32_t>(n);
    c.lines_written = 0;
    c.back_at = 0;
    events_.push(at, {EventKind::L2ArriveCopy, index});
}

void MemorySystem::bulk_load(uint32_t sm,
                             uint32_t token,
                             const LineAccess* lines,
                             size_t n,
                             uint64_t now,
                             uint32_t walk_bytes_per_clock) {
    send_copy({{sm, token, static_cast<uint32_t>(n)}}, false, lines, n,
              now + gpu_.l2.crossbar_latency, walk_bytes_per_clock);
}

void MemorySystem::multicast_load(const std::vector<LoadReturn>& receivers,
                                  const LineAccess* lines,
                                  size_t n,
                                  uint64_t now,
                                  uint32_t walk_bytes_per_clock) {
    send_copy(receivers, false, lines, n, now + gpu_.l2.crossbar_latency, walk_bytes_per_clock);
}

void MemorySystem::sm_to_sm(const std::vector<LoadReturn>& receivers, uint64_t at) {
    const uint32_t index = take_from_pool(copies_, free_copies_);
    Copy& c = copies_[index];
    c.lines.clear();
    c.receivers = receivers;
    c.write = false;
    c.walk_bytes_per_clock = 0;
    c.lines_left = 0;
    c.back_at = at;
    events_.push(at, {EventKind::CopyReturn, index});
}

void MemorySystem::bulk_store(const LineAccess* lines, size_t n, uint64_t now) {
    stores_in_flight_ += n;
    send_copy({}, true, lines, n, now + gpu_.l2.crossbar_latency);
}

void MemorySystem::copy_arrives(uint32_t copy, uint64_t now) {
    // Nothing here grows copies_, so the reference stays valid.
    Copy& c = copies_[copy];
    if (c.write) {
        arrive_store(kCopyWaiter | copy, now);
        return;
    }
    // A copy's lines are looked up one after another, each in an L2 slice's tags, which are
    // more than the host's caches hold: hint each line's set and its slot in the miss index a
    // few lines ahead, as prefetch() does for single requests one event ahead.
    constexpr size_t kAhead = 4;
    const size_t n = c.lines.size();
    const auto hint = [&](size_t i) {
        if (i >= n) return;
        const uint64_t line = c.lines[i].line;
        l2_[slice_of(line)].prefetch(line);
        miss_index_.prefetch(line);
    };
    for (size_t i = 0; i < kAhead; ++i)
        hint(i);
    // A walked copy's line i leaves the SM when the TMA unit has walked the bytes before it:
    // its hit returns, and its miss reaches the DRAM, that much later. (Its slice serves it
    // now: the slices are not the limit of a bulk copy, and a slice reserved ahead would make
    // the requests of other SMs wait behind it. A line that joins a miss already in flight
    // gets the fill when it comes, which may be before the line would have left.)
    uint64_t walked = 0;
    for (size_t i = 0; i < n; ++i) {
        hint(i + kAhead);
        const uint64_t walk = c.walk_bytes_per_clock ? walked / c.walk_bytes_per_clock : 0;
        walked += sector_count(c.lines[i].sectors) * kSector;
        const uint64_t back =
            l2_read(c.lines[i].line, c.lines[i].sectors, kCopyWaiter | copy, now, walk);
        if (back != kNotHeld) copy_line_back(copy, back);
    }
}

void MemorySystem::copy_line_back(uint32_t copy, uint64_t at) {
    Copy& c = copies_[copy];
    c.back_at = std::max(c.back_at, at);
    if (--c.lines_left == 0) events_.push(c.back_at, {EventKind::CopyReturn, copy});
}

void MemorySystem::prefetch(const Event& e) const {
    if (e.kind == EventKind::L2Arrive) {
        const Request& r = requests_[e.payload];
        l2_[slice_of(r.line)].prefetch(r.line);
        if (!r.write) miss_index_.prefetch(r.line);
    } else if (e.kind == EventKind::SmReturn) {
        const Request& r = requests_[e.payload];
        if (r.l1_miss) l1_[r.sm].prefetch(r.line);
    }
}

void MemorySystem::on_event(const Event& e, uint64_t now, std::vector<LoadReturn>& done) {
    switch (e.kind) {
        case EventKind::L2Arrive: l2_access(e.payload, now); return;
        case EventKind::L2ArriveCopy: copy_arrives(e.payload, now); return;
        case EventKind::CopyReturn: {
            // The crossbar delivers a multicast's lines to every SM of the cluster (the SM-to-SM
            // network a cluster exchange's values).
            const Copy& c = copies_[e.payload];
            done.insert(done.end(), c.receivers.begin(), c.receivers.end());
            free_copies_.push_back(e.payload);
            return;
        }
        case EventKind::StoreWritten:
            --l1_pending_[e.payload];
            done.push_back({e.payload, kStoreWrittenToken, 1});
            return;
        case EventKind::WriteRoom: {
            std::deque<uint32_t>& waiting = deferred_stores_[e.payload];
            while (!waiting.empty() && writes_outstanding_[e.payload] < write_queue_per_pc_) {
                const uint32_t store = waiting.front();
                waiting.pop_front();
                arrive_store(store, now);
            }
            return;
        }
        case EventKind::SmReturn: break;
        default: SIM_ASSERT(false, "memory system got a foreign event");
    }
    const Request& r = requests_[e.payload];
    if (r.l1_miss) {
        SectorCache::Victim unused;
        l1_[r.sm].fill(r.line, r.sectors, false, unused);
        --l1_pending_[r.sm];
    }
    done.push_back({r.sm, r.token, 1});
    free_request(e.payload);
}

uint64_t MemorySystem::slice_start(uint32_t slice, uint8_t sectors, uint64_t now) {
    const uint64_t start = std::max(now, slice_free_[slice]);
    slice_free_[slice] = start + std::max<uint64_t>(1, ceil_div(sector_count(sectors) * kSector,
                                                                gpu_.l2.bytes_per_clock_per_slice));
    return start;
}

void MemorySystem::l2_access(uint32_t slot, uint64_t now) {
    const Request& r = requests_[slot];
    if (r.write) {
        arrive_store(slot, now);
        return;
    }
    const uint64_t back = l2_read(r.line, r.sectors, slot, now);
    if (back != kNotHeld) events_.push(back, {EventKind::SmReturn, slot});
}

uint32_t MemorySystem::pseudo_channel_of(uint64_t addr) const {
    hbm::AddressParts parts;
    dram_.mapping().decode_into(addr % dram_capacity_, parts);
    return static_cast<uint32_t>(dram_.pseudo_channel_of(parts));
}

uint32_t MemorySystem::blocking_pseudo_channel(uint64_t line) const {
    if (full_write_queues_ == 0) return kNoPc;
    const SectorCache::Victim v = l2_[slice_of(line)].victim_for(line);
    for (uint32_t half = 0; half < 2; ++half) {
        if (!((v.dirty >> (2 * half)) & 0x3)) continue;
        const uint32_t pc = pseudo_channel_of(v.line + half * 64);
        if (writes_outstanding_[pc] >= write_queue_per_pc_) return pc;
    }
    return kNoPc;
}

void MemorySystem::arrive_store(uint32_t store, uint64_t now) {
    if (store & kCopyWaiter) {
        // The lines' L2 sets hinted a few lines ahead, as copy_arrives does for loads.
        constexpr size_t kAhead = 4;
        const uint32_t copy = store & ~kCopyWaiter;
        Copy& c = copies_[copy];
        const size_t n = c.lines.size();
        for (size_t i = c.lines_written; i < n; ++i) {
            if (i + kAhead < n)
                l2_[slice_of(c.lines[i + kAhead].line)].prefetch(c.lines[i + kAhead].line);
            const uint32_t pc = blocking_pseudo_channel(c.lines[i].line);
            if (pc != kNoPc) {
                c.lines_written = static_cast<uint32_t>(i);
                deferred_stores_[pc].push_back(store);
                return;
            }
            --stores_in_flight_;
            l2_write(c.lines[i].line, c.lines[i].sectors, now);
        }
        free_copies_.push_back(copy);
        return;
    }
    const Request& r = requests_[store];
    const uint32_t pc = blocking_pseudo_channel(r.line);
    if (pc != kNoPc) {
        deferred_stores_[pc].push_back(store);
        return;
    }
    --stores_in_flight_;
    const uint64_t written = l2_write(r.line, r.sectors, now);
    events_.push(written, {EventKind::StoreWritten, r.sm});
    free_request(store);
}

uint64_t MemorySystem::l2_write(uint64_t line, uint8_t sectors, uint64_t now) {
    const uint32_t slice = slice_of(line);
    const uint64_t start = slice_start(slice, sectors, now);
    stores_written_by_ = std::max(stores_written_by_, slice_free_[slice]);
    counters_.l2_write_sectors += sector_count(sectors);
    SectorCache::Victim victim;
    l2_[slice].fill(line, sectors, true, victim);
    write_back(victim, start);
    return slice_free_[slice];
}

uint64_t MemorySystem::l2_read(
    uint64_t line, uint8_t sectors, uint32_t waiter, uint64_t now, uint64_t later) {
    const uint32_t slice = slice_of(line);
    const uint64_t start = slice_start(slice, sectors, now) + later;
    counters_.l2_read_sectors += sector_count(sectors);
    const uint8_t present = l2_[slice].lookup(line, sectors);
    counters_.l2_hit_sectors += sector_count(present);
    const uint8_t missing = static_cast<uint8_t>(sectors & ~present);
    uint32_t index = miss_index_.find(line);
    if (missing == 0 && index == LineTable::kAbsent)
        return start + gpu_.l2.hit_latency + gpu_.l2.crossbar_latency;
    if (index == LineTable::kAbsent) {
        index = take_from_pool(misses_, free_misses_);
        misses_[index].requested = 0;
        misses_[index].outstanding = 0;
        misses_[index].waiters.clear();
        miss_index_.insert(line, index);
    }
    Miss& m = misses_[index];
    m.waiters.push_back(waiter);
    const uint8_t fresh = static_cast<uint8_t>(missing & ~m.requested);
    if (fresh) {
        m.requested |= fresh;
        // One DRAM access per run of sectors inside each 64-byte half of the line.
        for (uint8_t half : {uint8_t{0x3}, uint8_t{0xC}}) {
            if (fresh & half) ++m.outstanding;
        }
        count_dram_read(waiter, fresh);
        dram_access(
            line, fresh, index,
            start + gpu_.l2.hit_latency + gpu_.l2.controller_latency + crossing(slice, waiter));
    }
    return kNotHeld;
}

void MemorySystem::dram_access(uint64_t line, uint8_t sectors, uint32_t miss, uint64_t now) {
    const bool write = miss == kNoMiss;
    const uint64_t arrival = dram_cycle_at(now);
    // Both halves of a line usually lie in one column block: decoded once.
    uint64_t decoded_block = ~0ULL;
    hbm::AddressParts parts;
    size_t pc = 0;
    for (uint32_t half = 0; half < 2; ++half) {
        const uint8_t bits = static_cast<uint8_t>((sectors >> (2 * half)) & 0x3);
        if (!bits) continue;
        const uint32_t first = (bits & 1) ? 0 : 1;
        const uint32_t bytes = sector_count(bits) * kSector;
        const uint64_t addr = (line + half * 64 + first * kSector) % dram_capacity_;
        uint64_t id;
        if (!dram_free_.empty()) {
            id = dram_free_.back();
            dram_free_.pop_back();
            dram_requests_[id] = {line, miss};
        } else {
            id = dram_requests_.size();
            dram_requests_.push_back({line, miss});
        }
        (write ? counters_.dram_write_bytes : counters_.dram_read_bytes) += bytes;
        if (addr >> dram_block_shift_ != decoded_block) {
            decoded_block = addr >> dram_block_shift_;
            dram_.mapping().decode_into(addr, parts);
            pc = dram_.pseudo_channel_of(parts);
        }
        dram_requests_[id].pc = static_cast<uint32_t>(pc);
        if (write && ++writes_outstanding_[pc] == write_queue_per_pc_) ++full_write_queues_;
        if (port_) {
            port_->send({id, addr, bytes, write, pc, arrival});
            continue;
        }
        auto& waiting = write ? refused_writes_[pc] : refused_reads_[pc];
        if (waiting.empty() &&
            dram_.try_send(pc, dram_.request_for(id, parts, write, bytes), arrival))
            continue;
        // Refused: queued to retry, the request built in its slot, not copied there (see
        // AddressMapping::decode_into).
        Refused& refused = waiting.emplace_back();
        refused.request = dram_.request_for(id, parts, write, bytes);
        refused.arrival = arrival;
    }
}

void MemorySystem::write_back(const SectorCache::Victim& v, uint64_t now) {
    if (v.dirty) dram_access(v.line, v.dirty, kNoMiss, now + gpu_.l2.controller_latency);
}

uint64_t MemorySystem::age_caches(uint64_t l2_lines, uint64_t l1_lines_per_sm) {
    uint64_t dirty = 0;
    for (SectorCache& slice : l2_)
        dirty += slice.fill_unused((l2_lines + l2_.size() - 1) / l2_.size());
    for (SectorCache& l1 : l1_)
        l1.fill_unused(l1_lines_per_sm);  // write-through: never dirty
    return dirty * kSector;
}

uint64_t MemorySystem::next_dram_cycle() const {
    if (port_) return hbm::kNever;
    const uint64_t next = dram_.next_event();
    if (next == hbm::kNever) return hbm::kNever;
    return sm_cycle_at(next);
}

void MemorySystem::advance_dram(uint64_t now) {
    // Every DRAM cycle whose edge lies at or before this SM cycle's edge.
    const uint64_t limit = dram_clock_.cycle_at(sm_clock_.to_ps(Cycle{now})).value();
    while (true) {
        const uint64_t due = dram_.next_event();
        if (due == hbm::kNever || due > limit) break;
        completions_.clear();
        touched_.clear();
        dram_.advance(due, completions_, &touched_);
        complete(completions_.data(), completions_.size(), now);
        retry_refused(touched_);
    }
}

void MemorySystem::dram_completed(const hbm::Completion& c, uint64_t due) {
    complete(&c, 1, sm_cycle_at(due));
}

void MemorySystem::complete(const hbm::Completion* done, size_t n, uint64_t now) {
    const hbm::Completion* const end = done + n;
    // What filling these lines into L2 reads below, hinted for all of them first, one
    // step of the chain at a time (see sim/core/prefetch.h): the DRAM requests; their
    // misses; the L2 sets, miss-table slots and waiter lists.
    for (const hbm::Completion* c = done; c != end; ++c)
        __builtin_prefetch(&dram_requests_[c->id]);
    for (const hbm::Completion* c = done; c != end; ++c) {
        const DramRequest& d = dram_requests_[c->id];
        if (d.miss != kNoMiss) __builtin_prefetch(&misses_[d.miss]);
    }
    for (const hbm::Completion* c = done; c != end; ++c) {
        const DramRequest& d = dram_requests_[c->id];
        if (d.miss == kNoMiss || misses_[d.miss].outstanding != 1) continue;
        l2_[slice_of(d.line)].prefetch(d.line);
        miss_index_.prefetch(d.line);
        __builtin_prefetch(misses_[d.miss].waiters.data());
    }
    for (const hbm::Completion* c = done; c != end; ++c) {
        const DramRequest d = dram_requests_[c->id];
        dram_free_.push_back(c->id);
        if (d.miss == kNoMiss) {  // a write-back: room for a store waiting on its queue
            // The slices take the waiting stores in the SMs' loop (on_event), not here: this
            // may run inside the DRAM's own step (a port's completion callback).
            if (writes_outstanding_[d.pc]-- == write_queue_per_pc_) {
                --full_write_queues_;
                if (!deferred_stores_[d.pc].empty())
                    events_.push(now, {EventKind::WriteRoom, d.pc});
            }
            continue;
        }
        SIM_ASSERT(d.miss < misses_.size(), "a DRAM fill for a line nobody missed");
        if (--misses_[d.miss].outstanding == 0)
            fill_l2(d.line, d.miss, std::max(now, sm_cycle_at(c->done)));
    }
}

void MemorySystem::retry_refused(const std::vector<size_t>& touched) {
    for (size_t pc : touched) {
        for (auto* q : {&refused_reads_[pc], &refused_writes_[pc]}) {
            // A request refused before it arrived still arrives no earlier than stamped (and
            // try_send counts one stamped before the latest DRAM advance as arriving then).
            while (!q->empty() && dram_.try_send(pc, q->front().request, q->front().arrival))
                q->pop_front();
        }
    }
}

void MemorySystem::fill_l2(uint64_t line, uint32_t miss, uint64_t at) {
    miss_index_.erase(line);
    free_misses_.push_back(miss);
    const Miss& m = misses_[miss];
    const uint32_t slice = slice_of(line);
    SectorCache::Victim victim;
    l2_[slice].fill(line, m.requested, false, victim);
    write_back(victim, at);
    // The data reaches the slice controller_latency after the DRAM's burst, then crosses to
    // the SMs, those of another partition after crossing back between the partitions. The L2
    // takes the line now, not when the data arrives: a load hitting it in between is served up
    // to controller_latency early (rare: loads before the fill merge into the miss).
    const uint64_t back = at + gpu_.l2.controller_latency + gpu_.l2.crossbar_latency;
    for (uint32_t waiter : m.waiters) {
        const uint64_t to_sm = back + crossing(slice, waiter);
        if (waiter & kCopyWaiter)
            copy_line_back(waiter & ~kCopyWaiter, to_sm);
        else
            events_.push(to_sm, {EventKind::SmReturn, waiter});
    }
}

}  // namespace sim::gpu
