// SPDX-License-Identifier: MIT
// Everything between the SMs' load/store units and the DRAM pins: an L1 per SM (a sectored
// cache with a data port of bytes_per_clock and a limit on lines in flight), the crossbar (a
// fixed latency each way), L2 slices (line-interleaved, each a bandwidth server in front of its
// share of a sectored, write-back, write-allocate L2 with MSHRs that merge misses to a line), the
// path from a slice to its memory controller and back (a fixed latency each way; a miss from an
// SM of another L2 partition crosses between the partitions as well), and the
// cycle-level HBM stacks of models/hbm on their own clock. Loads return per line; a store holds
// its L1 entry until its slice has written it, and a slice takes no store while the write-backs
// it would add find the memory controllers' write queues full. Pure C++.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "models/gpu/core/dram_port.h"
#include "models/gpu/core/event_queue.h"
#include "models/gpu/core/gpu_config.h"
#include "models/gpu/core/line_table.h"
#include "models/gpu/core/sector_cache.h"
#include "models/gpu/core/warp_program.h"
#include "models/hbm/core/hbm_system.h"
#include "models/hbm/core/sliding_vector.h"
#include "sim/time/clock_domain.h"

namespace sim::gpu {

/// Loaded lines delivered to an SM: token is the SM's own tag (its warp slot and register).
/// A warp's load returns line by line; a bulk copy returns once, when its last line is back.
struct LoadReturn {
    uint32_t sm = 0;
    uint32_t token = 0;
    uint32_t lines = 1;
};
/// The token of a LoadReturn that frees an SM's L1 entry held by a store, written in L2.
constexpr uint32_t kStoreWrittenToken = ~0u;

struct MemoryCounters {
    uint64_t l1_sectors = 0;  ///< sectors loads asked of L1
    uint64_t l1_hit_sectors = 0;
    uint64_t l2_read_sectors = 0;  ///< sectors that reached L2 for loads
    uint64_t l2_write_sectors = 0;
    uint64_t l2_hit_sectors = 0;  ///< load sectors L2 held
    uint64_t dram_read_bytes = 0;
    uint64_t dram_write_bytes = 0;
    uint64_t l1_throttled = 0;  ///< load attempts refused: no free L1 miss entry
};

class MemorySystem final : public DramListener {
  public:
    /// hbm is the DRAM's organisation; access says which DRAM model serves it (dram_port.h).
    MemorySystem(const GpuCoreConfig& gpu,
                 const hbm::HbmCoreConfig& hbm,
                 EventQueue& events,
                 DramAccess access = {});
    MemorySystem(const MemorySystem&) = delete;
    MemorySystem& operator=(const MemorySystem&) = delete;

    /// Whether SM sm has `lines` free L1 entries now: a load's misses and a store's lines each
    /// hold one (a store until its slice has written it).
    bool has_free_l1_entries(uint32_t sm, uint32_t lines) const {
        return l1_pending_[sm] + lines <= gpu_.l1.max_pending_lines;
    }
    /// A warp's coalesced load leaves the load/store unit at cycle now.
    void load(uint32_t sm, uint32_t token, const LineAccess* lines, size_t n, uint64_t now);
    /// A warp's coalesced store (write-through L1, write-back L2).
    void store(uint32_t sm, const LineAccess* lines, size_t n, uint64_t now);
    /// A bulk copy between L2 and shared memory (TMA, cp.async.cg): the lines bypass L1 and
    /// its miss entries, and return together with token when the last of them is back (the
    /// copy completes its barrier then, not line by line). With walk_bytes_per_clock > 0 the
    /// lines leave one after another, that many of their bytes per cycle (the TMA unit walking
    /// the copy); with 0 all at once.
    void bulk_load(uint32_t sm,
                   uint32_t token,
                   const LineAccess* lines,
                   size_t n,
                   uint64_t now,
                   uint32_t walk_bytes_per_clock = 0);
    void bulk_store(const LineAccess* lines, size_t n, uint64_t now);
    /// A TMA multicast: each line is read from L2 once; the copy returns to every receiver,
    /// with the lines that receiver awaits (LoadReturn::lines).
    void multicast_load(const std::vector<LoadReturn>& receivers,
                        const LineAccess* lines,
                        size_t n,
                        uint64_t now,
                        uint32_t walk_bytes_per_clock = 0);
    /// A message over the SM-to-SM network (distributed shared memory): it reaches every
    /// receiver at cycle `at` and touches no cache or DRAM.
    void sm_to_sm(const std::vector<LoadReturn>& receivers, uint64_t at);

    /// DRAM bytes read on behalf of warp slots [first_warp, first_warp + warps) of SM sm since
    /// forget_dram_reads cleared them: the loads of a running CTA, which the sampler must not
    /// count again with the CTAs left (GpuCore::steady). A line's fill counts for the warp
    /// whose miss fetched it (a multicast's for its first receiver).
    double dram_reads_of(uint32_t sm, uint32_t first_warp, uint32_t warps) const;
    void forget_dram_reads(uint32_t sm, uint32_t first_warp, uint32_t warps);

    /// Hints the host to fetch the cache sets that on_event(e) will touch (no state changes):
    /// GpuCore hints a cycle's whole batch of events before it handles the first.
    void prefetch(const Event& e) const;
    /// Handles an L2Arrive(Copy), SmReturn or CopyReturn event due at now; returned loads are
    /// appended to done.
    void on_event(const Event& e, uint64_t now, std::vector<LoadReturn>& done);
    /// The SM cycle of the DRAM's next event; kNever when it is idle or behind a port (whose
    /// completions come through dram_completed).
    uint64_t next_dram_cycle() const;
    /// Advances the DRAM to SM cycle now (call when next_dram_cycle() <= now).
    void advance_dram(uint64_t now);
    /// Stores that have not reached L2 yet (a kernel is not done before they have).
    uint64_t stores_in_flight() const { return stores_in_flight_; }
    /// The SM cycle by which the L2 slices have written every store that reached them: a
    /// slice queues the lines it is sent and writes one at its own rate, so a burst of stores
    /// is written after it has arrived (a kernel is not done before).
    uint64_t stores_written_by() const { return stores_written_by_; }
    /// DRAM requests not back yet (queued, refused or issued): with none of them and no event
    /// of the SMs due, only the DRAM's refreshes are left to happen.
    uint64_t dram_requests_in_flight() const { return dram_requests_.size() - dram_free_.size(); }

    /// The caches take the given numbers of fills of lines nobody uses again (a fast-forward's
    /// skipped traffic; SectorCache::fill_unused), the L2's spread over its slices, the L1s'
    /// per SM. Returns the dirty bytes the L2 dropped, which
    /// those fills would have written back (not sent to the DRAM model: its time is past).
    uint64_t age_caches(uint64_t l2_lines, uint64_t l1_lines_per_sm);

    /// A request sent through the port has completed (DramListener).
    void dram_completed(const hbm::Completion& c, uint64_t due) override;

    const MemoryCounters& counters() const { return counters_; }
    /// The DRAM model driven directly (not meaningful behind a port: the port's memory has it).
    const hbm::HbmSystem& dram() const { return dram_; }
    DramPort* port() const { return port_; }

  private:
    struct Request {
        uint64_t line = 0;
        uint8_t sectors = 0;
        bool write = false;
        uint32_t sm = 0;
        uint32_t token = 0;
        bool l1_miss = false;  ///< holds an L1 miss entry until it returns
        uint32_t next_free = 0;
    };
    /// A bulk copy in flight: its lines, which reach their L2 slices together, and for a load
    /// the warps it returns to (several for a multicast) once every line is back.
    struct Copy {
        std::vector<LineAccess> lines;
        std::vector<LoadReturn> receivers;
        bool write = false;
        uint32_t walk_bytes_per_clock = 0;  ///< a load's lines leave at this rate (0: at once)
        uint32_t lines_left = 0;            ///< loaded lines not back yet
        uint64_t back_at = 0;        ///< when the latest of the lines returned so far is back
        uint32_t lines_written = 0;  ///< a store's lines its slices have taken so far
    };
    /// A miss's waiter: a request slot, or a copy's index with this bit set.
    static constexpr uint32_t kCopyWaiter = 1u << 31;
    struct Miss {  ///< one L2 line in flight from DRAM, with the loads waiting on it
        uint8_t requested = 0;
        uint32_t outstanding = 0;  ///< DRAM requests not back yet
        std::vector<uint32_t> waiters;
    };
    struct DramRequest {  ///< a DRAM access: a load fill of a line, or a write-back
        uint64_t line = 0;
        uint32_t miss = 0;  ///< a fill's entry in misses_; kNoMiss for a write-back
        uint32_t pc = 0;    ///< its pseudo-channel
    };
    static constexpr uint32_t kNoMiss = ~0u;
    struct Refused {
        hbm::MemRequest request;
        uint64_t arrival;  ///< DRAM cycle it reaches the controller, were there room
    };

    /// Counts the DRAM fill of `sectors` for the warp the miss's waiter belongs to.
    void count_dram_read(uint32_t waiter, uint8_t sectors);
    /// Per SM and warp slot (at warp_index): DRAM bytes read for it (dram_reads_of).
    std::vector<double> dram_reads_of_warp_;
    size_t warp_index(uint32_t sm, uint32_t warp_slot) const;

    /// A request slot (reused or new) holding these fields; not an L1 miss yet.
    uint32_t new_request(uint64_t line, uint8_t sectors, bool write, uint32_t sm, uint32_t token);
    void free_request(uint32_t slot);
    /// Sends a bulk copy's lines to L2 as one event: they leave the SM at the same cycle, or
    /// for a load with walk_bytes_per_clock > 0 one after another from then (copy_arrives).
    void send_copy(std::vector<LoadReturn> receivers,
                   bool write,
                   const LineAccess* lines,
                   size_t n,
                   uint64_t at,
                   uint32_t walk_bytes_per_clock = 0);
    void copy_arrives(uint32_t copy, uint64_t now);
    /// One of the copy's lines is back at the SM at cycle at.
    void copy_line_back(uint32_t copy, uint64_t at);
    uint32_t slice_of(uint64_t line) const;
    /// SM cycles each way a miss from the waiter's SM pays to reach the partition the slice's
    /// memory hangs off: l2.partition_latency when the two differ, else 0.
    uint64_t crossing(uint32_t slice, uint32_t waiter) const;
    /// Occupies the slice for the sectors from now on; returns when the access starts.
    uint64_t slice_start(uint32_t slice, uint8_t sectors, uint64_t now);
    void l2_access(uint32_t slot, uint64_t now);
    /// Returns the cycle the slice has written the line.
    uint64_t l2_write(uint64_t line, uint8_t sectors, uint64_t now);
    /// A store (request slot) or a bulk copy's stores (kCopyWaiter | copy) reach their slices
    /// at cycle now. Each line is written there unless the dirty line its write would evict
    /// finds its controller's write queue full: then it waits for a write of that
    /// pseudo-channel to finish (a copy's lines from there on with it).
    void arrive_store(uint32_t store, uint64_t now);
    /// The pseudo-channel whose full write queue keeps line's store from its slice, or kNoPc.
    uint32_t blocking_pseudo_channel(uint64_t line) const;
    static constexpr uint32_t kNoPc = ~0u;
    /// The pseudo-channel of a DRAM address.
    uint32_t pseudo_channel_of(uint64_t addr) const;
    /// A load of line's sectors at its slice: the cycle its data is back at the SM when L2
    /// holds it all, or kNeverCycle when waiter waits on a DRAM fill. `later`: cycles the
    /// request left the SM after the slice's service (a walked copy's line), added to the hit's
    /// return and to the miss's DRAM access.
    uint64_t l2_read(
        uint64_t line, uint8_t sectors, uint32_t waiter, uint64_t now, uint64_t later = 0);
    /// Queues DRAM accesses for the given sectors of line (32-byte sector runs within 64 B):
    /// the fill of misses_[miss], or a write-back (miss = kNoMiss).
    void dram_access(uint64_t line, uint8_t sectors, uint32_t miss, uint64_t now);
    void fill_l2(uint64_t line, uint32_t miss, uint64_t at);
    void write_back(const SectorCache::Victim& v, uint64_t now);
    uint64_t dram_cycle_at(uint64_t sm_cycle) const;
    uint64_t sm_cycle_at(uint64_t dram_cycle) const;
    /// Handles completed DRAM requests: a fill's last request fills its line into L2 and
    /// answers the loads waiting on it. now is the SM cycle of the DRAM cycle that completed them.
    void complete(const hbm::Completion* done, size_t n, uint64_t now);
    void retry_refused(const std::vector<size_t>& touched);

    GpuCoreConfig gpu_;
    EventQueue& events_;
    ClockDomain sm_clock_;
    ClockDomain dram_clock_;
    std::unique_ptr<hbm::HbmSystem> own_dram_;  ///< unless another's (DramAccess::system)
    hbm::HbmSystem& dram_;  ///< its address mapping; the DRAM model unless behind a port
    DramPort* port_;
    uint64_t dram_capacity_;
    /// log2 of the address mapping's column block (0 when not a power of two): the addresses
    /// of one block share their pseudo-channel, bank and row.
    uint32_t dram_block_shift_;
    std::vector<SectorCache> l1_;
    std::vector<uint64_t> l1_port_free_;
    std::vector<uint32_t> l1_pending_;
    std::vector<SectorCache> l2_;
    std::vector<uint64_t> slice_free_;
    std::vector<Request> requests_;
    uint32_t free_head_ = 0;
    LineTable miss_index_;      ///< line -> index in misses_
    std::vector<Miss> misses_;  ///< pool; entries keep their waiter capacity when freed
    std::vector<uint32_t> free_misses_;
    std::vector<Copy> copies_;  ///< pool, like misses_
    std::vector<uint32_t> free_copies_;
    std::vector<DramRequest> dram_requests_;
    std::vector<uint64_t> dram_free_;
    /// Requests waiting for room in a controller queue: per pseudo-channel, reads and writes
    /// apart (the controller has a queue for each, so neither blocks the other).
    /// (A SlidingVector: one contiguous array each, where a std::deque reads its block map
    /// and a block per access.)
    std::vector<hbm::SlidingVector<Refused>> refused_reads_, refused_writes_;
    std::vector<hbm::Completion> completions_;
    std::vector<size_t> touched_;
    uint64_t stores_in_flight_ = 0;
    uint64_t stores_written_by_ = 0;
    /// Per pseudo-channel: DRAM writes (write-backs of dirty L2 lines) sent and not yet
    /// written, and the stores waiting at their slices for one of those writes to finish
    /// (arrive_store): request slots, and bulk copies with kCopyWaiter set, in arrival order.
    std::vector<uint32_t> writes_outstanding_;
    std::vector<std::deque<uint32_t>> deferred_stores_;
    /// Pseudo-channels whose writes_outstanding_ fill their write queue: while none does, a
    /// store needs no look at the line it would evict.
    uint32_t full_write_queues_ = 0;
    /// Write-backs a pseudo-channel's controller queues: its write queue (its share of its
    /// channel's, when the two pseudo-channels share one).
    uint32_t write_queue_per_pc_;
    MemoryCounters counters_;
};

}  // namespace sim::gpu
