// SPDX-License-Identifier: MIT
// The controller of one HBM pseudo-channel: read and write queues, an FR-FCFS scheduler
// (oldest ready row hit first, then the oldest request's ACT or PRE), write drain between
// watermarks (also started by an empty read queue), open- or closed-row policy, and all-bank
// refresh every tREFI or per-bank refresh (one bank every tREFI / banks, round robin, while the
// other banks go on). Row commands and column commands use separate command buses (HBM has
// both), so one of each may issue per cycle; with a CommandBus (command_bus.h) they are shared
// with the other pseudo-channel of the channel and an ACT may take more than one clock.
// Event-driven: next_event() is the next cycle anything can happen; advance() is only called
// then, or later, never on idle cycles.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "models/hbm/core/address_mapping.h"
#include "models/hbm/core/bank_timing.h"
#include "models/hbm/core/command_bus.h"
#include "models/hbm/core/position_mask.h"
#include "models/hbm/core/sliding_vector.h"

namespace sim::hbm {

inline constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();

/// Most entries a read or write queue may have (real controllers have tens).
inline constexpr uint32_t kMaxQueueEntries = 4096;
/// Bits of a flat bank index (at most 64 banks per pseudo-channel); rows use the other 26 of
/// a 32-bit scan key, so a pseudo-channel has at most kMaxRows rows per bank.
inline constexpr uint32_t kBankBits = 6;
inline constexpr uint32_t kMaxBanks = 1u << kBankBits;
inline constexpr uint64_t kMaxRows = uint64_t{1} << (32 - kBankBits);

struct ControllerParams {
    uint32_t read_queue = 32;            ///< read queue entries, 1 .. kMaxQueueEntries
    uint32_t write_queue = 32;           ///< write queue entries, 1 .. kMaxQueueEntries
    uint32_t write_high_watermark = 24;  ///< start draining writes at this many
    uint32_t write_low_watermark = 8;    ///< stop draining at this many
    bool open_row = true;                ///< false: close a row when no queued request hits it
    uint32_t frontend_cycles = 4;        ///< arrival -> schedulable (decode, queue insert)
    /// REFpb to one bank every tREFI / banks, round robin (JESD238 per-bank refresh), instead
    /// of REFab to all banks every tREFI. The refreshed bank is closed first; its row hits wait.
    bool per_bank_refresh = false;
    /// One read and one write queue per channel, shared by its pseudo-channels (Ramulator 2's
    /// per-channel HBM controllers), instead of one pair per pseudo-channel: read_queue and
    /// write_queue are then the channel's, and the write drain is decided for the channel.
    bool queues_per_channel = false;
    /// Validation only (not a hardware setting): wake every cycle instead of at the next
    /// legal command. Results must not change; a test holds the event-driven scheduler to it.
    bool tick_every_cycle = false;
    /// Validation only: scan every schedulable request for a row command on each call instead
    /// of resuming after the ones already scanned (RowScan) or bounding the commands bank by
    /// bank (no_row_command_yet). Results and wake-ups must not change.
    bool full_row_scan = false;
};

/// A request as one pseudo-channel sees it (the address already decoded).
struct MemRequest {
    uint64_t id = 0;
    uint32_t row = 0;
    uint32_t bursts = 1;  ///< bursts of access_bytes
    uint16_t bank_group = 0, bank = 0;
    bool write = false;
};

struct Completion {
    uint64_t id = 0;
    bool write = false;
    uint64_t arrival = 0;  ///< cycle it entered the controller
    uint64_t done = 0;     ///< cycle its last data beat moved
    uint32_t bytes = 0;
};

/// The queue occupancy of a channel whose pseudo-channels share their queues
/// (ControllerParams::queues_per_channel): each pseudo-channel keeps its own requests, and
/// admission and the write drain count the channel's.
struct SharedQueues {
    uint32_t reads = 0, writes = 0;                  ///< queued or on their way
    uint32_t arrived_reads = 0, arrived_writes = 0;  ///< queued
    bool draining = false;
    uint64_t drain_changes = 0;  ///< times draining changed: the siblings must look again
};

struct ChannelCounters {
    uint64_t reads = 0, writes = 0;  ///< requests completed
    uint64_t read_bursts = 0, write_bursts = 0;
    uint64_t activates = 0, precharges = 0, refreshes = 0;
    uint64_t row_hits = 0, row_misses = 0, row_conflicts = 0;
    uint64_t refresh_cycles = 0;       ///< cycles all banks were locked by all-bank refresh
    uint64_t bank_refreshes = 0;       ///< per-bank REFpb commands
    uint64_t bank_refresh_cycles = 0;  ///< bank-cycles locked by per-bank refresh
    uint64_t queue_integral = 0;       ///< sum over cycles of queued requests
    uint64_t wakeups = 0;  ///< calls of advance(): the scheduler's cost, not a DRAM figure
};

class PseudoChannel {
  public:
    /// refresh_phase staggers this channel's first REF (0 .. tREFI). bus, when given, is the
    /// command bus this pseudo-channel uses (shared with its sibling or its own); it must
    /// outlive the pseudo-channel. Without one, one row and one column command may issue each
    /// clock.
    PseudoChannel(const DramTiming& t,
                  const PseudoChannelShape& shape,
                  const ControllerParams& params,
                  uint64_t refresh_phase,
                  CommandBus* bus = nullptr,
                  SharedQueues* shared = nullptr);

    /// Whether r's queue has room; requests sent ahead of their arrival take room at once.
    bool can_accept(bool write) const;
    /// Queues r arriving at cycle now, the cycle of the caller's latest advance(); requires
    /// can_accept(r.write).
    void enqueue(const MemRequest& r, uint64_t now);
    /// Queues r to arrive at cycle arrival, which may lie ahead of now (the GPU's L2 slices
    /// send a request stamped with their own latency). The scheduler sees it only from then:
    /// a controller knows nothing of requests still on the way, and requests are served in
    /// arrival order whatever order they were sent in. Requires can_accept(r.write).
    void send(const MemRequest& r, uint64_t arrival);
    /// The next cycle at which advance() has work (kNever if nothing will ever happen).
    uint64_t next_event() const { return next_event_; }
    /// Makes advance() run at cycle at at the latest (a sibling changed the shared state).
    void wake_by(uint64_t at) { next_event_ = std::min(next_event_, at); }
    /// Issues what is legal at cycle now and appends finished requests to done.
    void advance(uint64_t now, std::vector<Completion>& done);

    /// Requests queued or on their way (sent, not yet arrived).
    size_t queued() const { return reads_.entries.size() + writes_.entries.size(); }
    /// For an idle pseudo-channel whose refreshes fell due before now: books them as done on
    /// time (rows closed, the last one's tRFC lock kept) instead of issuing them late.
    void skip_idle_refreshes(uint64_t now);
    const ChannelCounters& counters() const { return counters_; }
    /// Hints the host to fetch this controller's own state, then (a later call, once that is
    /// in) the arrays it points to: HbmSystem hints the controllers due at a cycle a few
    /// ahead of the one it advances (see sim/core/prefetch.h).
    /// The lines of prefetch_bytes(this, sizeof(*this)), one prefetch each: GCC unrolls that
    /// loop only up to 16 lines, and this object spans 18 since the JEDEC mechanisms (1,128
    /// bytes), so the loop cost 143 M instructions in BM_HbmTraffic/0 (CHANGELOG.md, 2026-12-04).
    void prefetch_state() const {
        prefetch_lines(reinterpret_cast<const char*>(this),
                       std::make_index_sequence<(sizeof(*this) + 63) / 64>{});
    }
    void prefetch_arrays() const {
        // The queue a wake-up most likely serves (advance() decides on the arrived ones).
        timing_.prefetch(draining() || reads_.arrived == 0);
        for (const Queue* q : {&reads_, &writes_}) {
            const size_t n = q->entries.size();
            if (n == 0) continue;
            prefetch_bytes(q->keys.begin(), n * sizeof(uint32_t));
            q->hit_at.prefetch();
            // Of the entries, a wake-up reads the oldest (the column command most likely goes
            // to one of them) and those at the border of the arrived ones.
            prefetch_bytes(q->entries.begin(), std::min<size_t>(n, 4) * sizeof(Entry));
            __builtin_prefetch(q->entries.begin() + std::min(n - 1, q->arrived));
            if (q->arrived > 0) __builtin_prefetch(q->entries.begin() + (q->arrived - 1));
        }
    }
    const BankTiming& timing() const { return timing_; }
    /// Closes the queue-occupancy integral at the end of a run (requests that arrived and were
    /// not admitted yet count from their arrival).
    void finish(uint64_t now) {
        account_queue(now);
        admit_arrivals(now);
    }

  private:
    template <size_t... I>
    static void prefetch_lines(const char* p, std::index_sequence<I...>) {
        (__builtin_prefetch(p + 64 * I), ...);
    }
    /// A queued request, kept small: the queues are scanned and shifted on every command.
    struct Entry {
        uint64_t id = 0;
        uint64_t arrival = 0;
        uint32_t row = 0;
        uint32_t bursts = 0;          ///< bursts of access_bytes in the request
        uint32_t bursts_left = 0;     ///< still to issue
        uint8_t bank = 0;             ///< flat bank index
        uint8_t first = kNotStarted;  ///< the request's first command: its row-buffer outcome
    };
    /// A request's first command; still kNotStarted at its first RD/WR means a row hit.
    static constexpr uint8_t kNotStarted = 0, kFirstAct = 1, kFirstPre = 2;
    /// What issue_row learnt from its last scan of a queue that found nothing to issue: its
    /// first `scanned` entries allow no row command before `until`, `tried` holds the banks
    /// they decide and `waiting_pre` those whose PRE waits for its time. Valid while `epoch` is
    /// the channel's row epoch, bumped by every ACT, PRE and REF; the last queued hit of a
    /// tried bank leaving (its PRE may go sooner), a column command to a bank of waiting_pre
    /// (which moves that PRE later) or a new hit to one (which holds it back) void it, so that
    /// `until` stays the exact next cycle and the channel wakes when it did with a full scan. The
    /// next scan starts after the entries already scanned instead of at the oldest.
    struct RowScan {
        uint64_t epoch = ~0ULL;
        size_t scanned = 0;
        uint64_t tried = 0;
        uint64_t waiting_pre = 0;
        uint64_t until = 0;
    };
    /// One request queue in arrival order: the first `arrived` entries have arrived, the rest
    /// are on their way (sent, not arrived; the scheduler does not see them), and advance(now)
    /// admits those that arrived before now. Requests become schedulable frontend_cycles after
    /// arrival, so the schedulable ones are a prefix. Per bank it counts the arrived requests
    /// that hit the open row, so that the scheduler knows without a scan whether any request
    /// needs a row command and which open rows still have hits queued.
    struct Queue {
        uint64_t newest_arrival = 0;  ///< of the last arrived entry (valid when arrived > 0)
        SlidingVector<Entry> entries;
        /// keys[i] is key_of(entries[i]): the scans for a row or column command read only
        /// these, 16 to a host cache line instead of 2.
        SlidingVector<uint32_t> keys;
        /// Bit i: entries[i] has arrived and hits its bank's open row (so positions from
        /// `arrived` up are clear); the scans for a column or a row command visit only the
        /// entries with or without it.
        PositionMask hit_at;
        size_t arrived = 0;
        size_t on_the_way() const { return entries.size() - arrived; }
        std::array<uint16_t, 64> hits{};  ///< per bank: requests to its open row
        uint64_t hit_banks = 0;           ///< bit per bank: hits[bank] > 0
        uint32_t hit_total = 0;
        std::array<uint16_t, 64> arrived_at{};  ///< per bank: arrived requests
        /// Bit per bank: arrived_at[bank] > hits[bank], some arrived request of the bank needs
        /// a row command.
        uint64_t miss_banks = 0;
        RowScan row_scan;
    };

    void account_queue(uint64_t now);
    size_t arrived() const { return reads_.arrived + writes_.arrived; }
    Entry entry_of(const MemRequest& r, uint64_t arrival) const;
    /// entry_of(r, arrival) written into e, field by field.
    void fill_entry(Entry& e, const MemRequest& r, uint64_t arrival) const;
    /// A request's bank and row in one word: row << kBankBits | bank.
    static uint32_t key_of(uint32_t bank, uint32_t row) { return row << kBankBits | bank; }
    static uint32_t key_of(const Entry& e) { return key_of(e.bank, e.row); }
    static uint32_t bank_of(uint32_t key) { return key & ((1u << kBankBits) - 1); }
    /// Puts e at index at (at least q.arrived) of q, entries and keys alike (hit_at holds no
    /// bits there).
    static void insert(Queue& q, size_t at, const Entry& e);
    /// Admits q's first request on its way (entries[arrived]), which has arrived: moves it into
    /// the arrived ones in arrival order and counts it if it hits the open row.
    void admit_next(Queue& q);
    /// Admits the requests sent ahead that arrived before cycle now.
    void admit_arrivals(uint64_t now);
    uint64_t ready_at(const Entry& e) const { return e.arrival + params_.frontend_cycles; }
    bool hits_open_row(const Entry& e) const {
        return timing_.open_row(e.bank) == static_cast<int64_t>(e.row);
    }
    void count_hit(Queue& q, uint32_t bank);
    /// Sets bank's bit of q.miss_banks from its counts.
    static void update_miss_bank(Queue& q, uint32_t bank) {
        const uint64_t bit = uint64_t{1} << bank;
        q.miss_banks = q.arrived_at[bank] > q.hits[bank] ? q.miss_banks | bit : q.miss_banks & ~bit;
    }
    /// issue_row's first scan of q's schedulable requests (0 .. ready), bank by bank: the
    /// earliest row command of the banks of q.miss_banks with a miss among them, as the
    /// request-by-request scan would bound it. True (with the scan's state set as that scan sets
    /// it) when no row command may go at now; false when one may, and the scan must find the oldest
    /// request it serves. With per-bank refresh, the refreshed bank's requests wait for their ACT
    /// at the head of the queue and the full scans visited each of them after every ACT.
    bool no_row_command_yet(Queue& q, size_t ready, uint64_t act_floor, uint64_t now);
    void activate(uint32_t bank, uint32_t row, uint64_t now);
    void precharge(uint32_t bank, uint64_t now);
    /// Issues the oldest schedulable row hit of q whose column command is legal at now.
    /// ready drops by one when that completes a request.
    void issue_column(Queue& q,
                      bool write,
                      size_t& ready,
                      uint64_t now,
                      std::vector<Completion>& done,
                      uint64_t& next);
    /// A lower bound on q's next column command after now: the earliest cycle a bank with
    /// queued row hits may take one (hits not yet schedulable included), kNever without hits.
    /// Inline for its usual answer in a stream, the pseudo-channel's next column slot.
    uint64_t next_column_at(const Queue& q, bool write, uint64_t now) const {
        // No bank goes before the pseudo-channel's next column slot: a bank free by then ends
        // the search (in a stream, usually the first).
        uint64_t floor = std::max(timing_.earliest_any_column(write), now + 1);
        if (bus_) floor = std::max(floor, bus_->column_free);
        // With many banks holding hits one is almost surely free by then; looking at each cost
        // a stream (BM_HbmTraffic/0) 2% of its instructions for no wake-up saved.
        constexpr int kMostBanksLooked = 4;
        uint64_t many = q.hit_banks;
        for (int n = 0; n < kMostBanksLooked && many != 0; ++n)
            many &= many - 1;
        if (many != 0) return floor;
        return earliest_hit_bank_column(q, write, floor);
    }
    /// The earliest cycle a bank with hits in q may take a column command, or floor if one may
    /// by then.
    uint64_t earliest_hit_bank_column(const Queue& q, bool write, uint64_t floor) const;
    /// FR-FCFS row command: the ACT or PRE of the oldest schedulable request that needs one
    /// and may have it now (a PRE waits while the open row still has hits queued).
    bool issue_row(Queue& q, size_t ready, uint64_t now, uint64_t& next);
    /// The earliest cycle bank's row command may go: its ACT when closed (no earlier than the
    /// pseudo-channel's ACT floor), its PRE when open.
    uint64_t row_command_at(uint32_t bank, bool closed, uint64_t act_floor, uint64_t now) const {
        if (!closed) return timing_.earliest_precharge(bank);
        if (act_floor > now) return act_floor;
        uint64_t at = timing_.earliest_activate(bank);
        // An ACT may need the row bus for longer than a PRE (from its rising edge).
        if (at <= now && bus_ && !bus_->row_free_at(true, now)) at = bus_->row_wake(true);
        return at;
    }
    /// row_command_at for one of q's banks, or kNever while its open row still has hits queued
    /// in q (FR-FCFS: they go first; a hit's own bank is such a bank).
    uint64_t queued_row_command_at(const Queue& q,
                                   uint32_t bank,
                                   uint64_t act_floor,
                                   uint64_t now) const {
        const int64_t open = timing_.open_row(bank);
        if (open != BankTiming::kClosed && (q.hit_banks & (uint64_t{1} << bank))) return kNever;
        return row_command_at(bank, open == BankTiming::kClosed, act_floor, now);
    }
    /// The earliest row command of the banks of q's requests from..ready, other than the banks
    /// in skip, given the pseudo-channel's ACT floor (a bound on the next wake-up).
    uint64_t row_commands_at(const Queue& q,
                             size_t from,
                             size_t ready,
                             uint64_t skip,
                             uint64_t act_floor,
                             uint64_t now) const;
    void close_idle_rows(uint64_t now, uint64_t& next);
    /// How many of q's requests are schedulable at now (a prefix); tail_hits counts the row
    /// hits among the rest, and next takes the cycle the first of the rest becomes schedulable.
    /// Inline for its usual answer, every arrived request (two calls per wake-up).
    size_t schedulable(const Queue& q, uint64_t now, uint32_t& tail_hits, uint64_t& next) const {
        tail_hits = 0;
        if (q.arrived == 0 || q.newest_arrival + params_.frontend_cycles <= now) return q.arrived;
        return schedulable_prefix(q, now, tail_hits, next);
    }
    /// schedulable() when the newest arrived request is not schedulable yet.
    size_t schedulable_prefix(const Queue& q,
                              uint64_t now,
                              uint32_t& tail_hits,
                              uint64_t& next) const;
    bool refresh_step(uint64_t now, uint64_t& next);
    /// Per-bank refresh: closes the bank due, then REFpb; true once the REFpb has issued.
    bool refresh_bank_step(uint64_t now, uint64_t& next);
    /// Whether the row bus may take a row command at now; when not, next takes its wake-up.
    bool row_bus_free(bool act, uint64_t now, uint64_t& next) const {
        if (!bus_ || bus_->row_free_at(act, now)) return true;
        next = std::min(next, bus_->row_wake(act));
        return false;
    }
    void take_row_bus(bool act, uint64_t now) {
        if (bus_) bus_->take_row(act, now);
    }
    /// Starts draining writes at the high watermark, or above the low one when no read is
    /// queued; stops at the low watermark.
    void update_write_drain();
    void update_shared_write_drain();  ///< the same with queues shared per channel
    bool drain_should_start() const;
    bool draining() const { return shared_ ? shared_->draining : draining_; }
    void set_draining(bool on) {
        if (!shared_) {
            draining_ = on;
        } else if (shared_->draining != on) {
            shared_->draining = on;
            ++shared_->drain_changes;
        }
    }
    /// Counts a request of q entering (by) or leaving the channel's shared queue.
    void count_shared(const Queue& q, bool arrived, int by) {
        if (!shared_) return;
        const bool w = &q == &writes_;
        (arrived ? (w ? shared_->arrived_writes : shared_->arrived_reads)
                 : (w ? shared_->writes : shared_->reads)) += by;
    }
    /// The cycle after the next write on its way arrives, when that may start a drain (from
    /// the next cycle, as a write queued by enqueue does); kNever when it cannot.
    uint64_t drain_wake() const;  ///< defined below, inline: it runs on every send and wake-up

    BankTiming timing_;
    PseudoChannelShape shape_;
    ControllerParams params_;
    CommandBus* bus_ = nullptr;
    SharedQueues* shared_ = nullptr;
    uint64_t refresh_step_;  ///< cycles between refreshes: tREFI, or tREFI / banks per bank
    /// With per-bank refresh, the bank whose REFpb is due (or kNoBank): its row hits wait.
    static constexpr uint32_t kNoBank = ~0u;
    uint32_t refresh_bank_ = 0;
    uint32_t refresh_hold_ = kNoBank;
    Queue reads_, writes_;
    bool draining_ = false;
    uint64_t refresh_due_;
    uint64_t next_event_;
    uint64_t queue_since_ = 0;
    uint64_t row_epoch_ = 0;  ///< see RowScan
    ChannelCounters counters_;
};

inline uint64_t PseudoChannel::drain_wake() const {
    // Arrivals start a drain by raising the queued writes above the low watermark (when no read
    // is queued) or to the high one: the first write on its way that can is the one that makes
    // the count pass the watermark it has not reached. Whether it does depends on what
    // completes and arrives meanwhile, which advance() decides; a wake-up that finds no drain
    // to start changes nothing. Writes sent later arrive no earlier than now, and this is
    // computed again after every send and advance, so the wake-up never lies in the past.
    if (draining() || writes_.on_the_way() == 0) return kNever;
    // Shared queues: any arriving write may start the channel's drain.
    if (shared_) return writes_.entries[writes_.arrived].arrival + 1;
    const size_t queued = writes_.arrived;
    const size_t low = params_.write_low_watermark, high = params_.write_high_watermark;
    const size_t k = queued > low ? (queued + 1 >= high ? 0 : high - 1 - queued) : low - queued;
    if (k >= writes_.on_the_way()) return kNever;
    return writes_.entries[queued + k].arrival + 1;
}

}  // namespace sim::hbm
