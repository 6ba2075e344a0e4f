// SPDX-License-Identifier: MIT
#include "models/hbm/core/pseudo_channel.h"

#include <algorithm>

#include "sim/core/error.h"

namespace sim::hbm {

PseudoChannel::PseudoChannel(const DramTiming& t,
                             const PseudoChannelShape& shape,
                             const ControllerParams& params,
                             uint64_t refresh_phase,
                             CommandBus* bus,
                             SharedQueues* shared)
    : timing_(t, shape),
      shape_(shape),
      params_(params),
      bus_(bus),
      shared_(params.queues_per_channel ? shared : nullptr),
      refresh_step_(params.per_bank_refresh ? std::max<uint64_t>(t.refi / shape.banks(), 1)
                                            : t.refi),
      refresh_due_(refresh_phase * refresh_step_ / std::max<uint64_t>(t.refi, 1) + refresh_step_),
      next_event_(refresh_due_) {
    SIM_ASSERT(shape.banks() <= kMaxBanks, "at most " << kMaxBanks << " banks per pseudo-channel");
    SIM_ASSERT(shape.rows <= kMaxRows, "at most " << kMaxRows << " rows per bank");
    SIM_ASSERT(params.read_queue <= kMaxQueueEntries && params.write_queue <= kMaxQueueEntries,
               "queue larger than " << kMaxQueueEntries);
    for (Queue* q : {&reads_, &writes_}) {
        const uint32_t size = q == &reads_ ? params.read_queue : params.write_queue;
        q->entries.reserve(size);
        q->keys.reserve(size);
        q->hit_at.resize(size);
    }
}

void PseudoChannel::skip_idle_refreshes(uint64_t now) {
    if (queued() != 0 || refresh_due_ > now) return;
    const uint64_t refi = refresh_step_;
    const uint64_t missed = (now - refresh_due_) / refi + 1;
    const uint64_t last = refresh_due_ + (missed - 1) * refi;
    if (params_.per_bank_refresh) {
        // Each of the last refreshes (one a bank at most) closed its bank and locks it until
        // its tRFCpb is over; earlier ones are over.
        const uint32_t banks = shape_.banks();
        const uint64_t booked = std::min<uint64_t>(missed, banks);
        for (uint64_t k = booked; k-- > 0;) {
            const auto bank = static_cast<uint32_t>((refresh_bank_ + missed - 1 - k) % banks);
            if (timing_.open_row(bank) != BankTiming::kClosed) ++counters_.precharges;
            timing_.idle_refresh_bank(bank, last - k * refi);
        }
        refresh_bank_ = static_cast<uint32_t>((refresh_bank_ + missed) % banks);
        ++row_epoch_;
        counters_.bank_refreshes += missed;
        counters_.bank_refresh_cycles += missed * timing_.timing().rfc_pb;
        account_queue(now);
        refresh_due_ = last + refi;
        next_event_ = refresh_due_;
        return;
    }
    for (uint32_t b = 0; b < shape_.banks(); ++b) {
        if (timing_.open_row(b) != BankTiming::kClosed) ++counters_.precharges;
    }
    timing_.idle_refresh(last);  // the queues are empty: no hit counts to update
    ++row_epoch_;
    counters_.refreshes += missed;
    counters_.refresh_cycles += missed * timing_.timing().rfc;
    account_queue(now);
    refresh_due_ = last + refi;
    next_event_ = refresh_due_;
}

bool PseudoChannel::can_accept(bool write) const {
    if (shared_) {
        return write ? shared_->writes < params_.write_queue : shared_->reads < params_.read_queue;
    }
    return write ? writes_.entries.size() < params_.write_queue
                 : reads_.entries.size() < params_.read_queue;
}

void PseudoChannel::account_queue(uint64_t now) {
    if (now > queue_since_) {
        counters_.queue_integral += arrived() * (now - queue_since_);
        queue_since_ = now;
    }
}

void PseudoChannel::count_hit(Queue& q, uint32_t bank) {
    ++q.hits[bank];
    q.hit_banks |= uint64_t{1} << bank;
    ++q.hit_total;
}

void PseudoChannel::fill_entry(Entry& e, const MemRequest& r, uint64_t arrival) const {
    e.id = r.id;
    e.arrival = arrival;
    e.row = r.row;
    e.bursts = e.bursts_left = r.bursts;
    e.bank = static_cast<uint8_t>(r.bank_group * shape_.banks_per_group + r.bank);
    e.first = kNotStarted;
}

PseudoChannel::Entry PseudoChannel::entry_of(const MemRequest& r, uint64_t arrival) const {
    Entry e;
    fill_entry(e, r, arrival);
    return e;
}

void PseudoChannel::insert(Queue& q, size_t at, const Entry& e) {
    SIM_ASSERT(at >= q.arrived, "a request inserted among the arrived ones");
    q.entries.insert(at, e);
    q.keys.insert(at, key_of(e));
}

void PseudoChannel::admit_next(Queue& q) {
    const Entry e = q.entries[q.arrived];
    size_t position = q.arrived;
    if (q.arrived > 0 && e.arrival < q.newest_arrival) {
        const auto first = q.entries.begin();
        const auto last = first + static_cast<std::ptrdiff_t>(q.arrived);
        const auto at = std::upper_bound(first, last, e.arrival,
                                         [](uint64_t t, const Entry& x) { return t < x.arrival; });
        // Only a request dated before ones already scanned lands among them (none does when
        // arrivals are never dated before the latest advance()); rescan then.
        const size_t index = static_cast<size_t>(at - first);
        if (index < q.row_scan.scanned) q.row_scan.epoch = ~0ULL;
        std::rotate(at, last, last + 1);
        uint32_t* keys = q.keys.begin();
        std::rotate(keys + index, keys + q.arrived, keys + q.arrived + 1);
        q.hit_at.insert(index, false);
        position = index;
    } else {
        q.newest_arrival = e.arrival;
    }
    ++q.arrived;
    ++q.arrived_at[e.bank];
    count_shared(q, true, 1);
    if (hits_open_row(e)) {
        count_hit(q, e.bank);
        q.hit_at.set(position);
        // The bank's PRE now waits for this hit: a scan that counted on it is stale.
        if (q.row_scan.waiting_pre & (uint64_t{1} << e.bank)) q.row_scan.epoch = ~0ULL;
    }
    update_miss_bank(q, e.bank);
}

void PseudoChannel::enqueue(const MemRequest& r, uint64_t now) {
    SIM_ASSERT(can_accept(r.write), "enqueue into a full queue");
    account_queue(now);
    const Entry e = entry_of(r, now);
    Queue& q = r.write ? writes_ : reads_;
    insert(q, q.arrived, e);
    count_shared(q, false, 1);
    admit_next(q);
    next_event_ = std::min(next_event_, ready_at(e));
    // A write that starts a drain switches the scheduler to writes from the next cycle.
    if (r.write && !draining() && drain_should_start())
        next_event_ = std::min(next_event_, now + 1);
}

void PseudoChannel::send(const MemRequest& r, uint64_t arrival) {
    SIM_ASSERT(can_accept(r.write), "send into a full queue");
    Queue& q = r.write ? writes_ : reads_;
    count_shared(q, false, 1);
    if (q.on_the_way() == 0 || q.entries.back().arrival <= arrival) {
        // Filled in place: copying an entry just built here would read it with wide loads
        // from the narrow stores that wrote it (see AddressMapping::decode_into).
        Entry& e = q.entries.emplace_back();
        fill_entry(e, r, arrival);
        q.keys.push_back(key_of(e));
        next_event_ = std::min(next_event_, ready_at(e));
    } else {
        const Entry e = entry_of(r, arrival);
        const auto first = q.entries.begin() + q.arrived;
        const auto at = std::upper_bound(first, q.entries.end(), arrival,
                                         [](uint64_t t, const Entry& x) { return t < x.arrival; });
        insert(q, static_cast<size_t>(at - q.entries.begin()), e);
        next_event_ = std::min(next_event_, ready_at(e));
    }
    if (r.write) next_event_ = std::min(next_event_, drain_wake());
}

void PseudoChannel::admit_arrivals(uint64_t now) {
    for (Queue* q : {&reads_, &writes_}) {
        while (q->on_the_way() > 0 && q->entries[q->arrived].arrival < now) {
            // Queued from its arrival on: the occupancy integral counts it from then.
            counters_.queue_integral += now - q->entries[q->arrived].arrival;
            admit_next(*q);
        }
    }
}

void PseudoChannel::activate(uint32_t bank, uint32_t row, uint64_t now) {
    take_row_bus(true, now);
    timing_.activate(bank, now, row);
    ++counters_.activates;
    ++row_epoch_;
    const uint32_t key = key_of(bank, row);
    for (Queue* q : {&reads_, &writes_}) {
        for (size_t i = 0; i < q->arrived; ++i) {
            if (q->keys[i] != key) continue;
            count_hit(*q, bank);
            q->hit_at.set(i);
        }
        update_miss_bank(*q, bank);
    }
}

void PseudoChannel::precharge(uint32_t bank, uint64_t now) {
    take_row_bus(false, now);
    timing_.precharge(bank, now);
    ++counters_.precharges;
    ++row_epoch_;
    for (Queue* q : {&reads_, &writes_}) {
        if (q->hits[bank] == 0) continue;
        for (size_t i = 0; i < q->arrived; ++i) {
            if (bank_of(q->keys[i]) == bank) q->hit_at.clear(i);
        }
        q->hit_total -= q->hits[bank];
        q->hits[bank] = 0;
        q->hit_banks &= ~(uint64_t{1} << bank);
        update_miss_bank(*q, bank);
    }
}

bool PseudoChannel::refresh_step(uint64_t now, uint64_t& next) {
    // Refresh owns the row bus until it is done: close every bank, then REF.
    if (timing_.all_closed()) {
        const uint64_t at = timing_.earliest(Command::REF, 0);
        if (at <= now) {
            if (!row_bus_free(false, now, next)) return false;
            take_row_bus(false, now);
            timing_.issue(Command::REF, 0, now);
            ++row_epoch_;
            ++counters_.refreshes;
            counters_.refresh_cycles += timing_.timing().rfc;
            refresh_due_ += timing_.timing().refi;
            return true;
        }
        next = std::min(next, at);
        return false;
    }
    for (uint32_t b = 0; b < shape_.banks(); ++b) {
        if (timing_.open_row(b) == BankTiming::kClosed) continue;
        const uint64_t at = timing_.earliest_precharge(b);
        if (at <= now) {
            if (!row_bus_free(false, now, next)) return false;
            precharge(b, now);
            next = std::min(next, now + 1);
            return false;
        }
        next = std::min(next, at);
    }
    return false;
}

bool PseudoChannel::refresh_bank_step(uint64_t now, uint64_t& next) {
    const uint32_t bank = refresh_bank_;
    refresh_hold_ = bank;
    const bool open = timing_.open_row(bank) != BankTiming::kClosed;
    const uint64_t at = timing_.earliest(open ? Command::PRE : Command::REFPB, bank);
    if (at > now) {
        next = std::min(next, at);
        return false;
    }
    if (!row_bus_free(false, now, next)) return false;
    if (open) {
        precharge(bank, now);
        next = std::min(next, now + 1);
        return false;
    }
    take_row_bus(false, now);
    timing_.issue(Command::REFPB, bank, now);
    ++row_epoch_;
    ++counters_.bank_refreshes;
    counters_.bank_refresh_cycles += timing_.timing().rfc_pb;
    refresh_due_ += refresh_step_;
    refresh_bank_ = (bank + 1) % shape_.banks();
    refresh_hold_ = kNoBank;
    return true;
}

void PseudoChannel::issue_column(Queue& q,
                                 bool write,
                                 size_t& ready,
                                 uint64_t now,
                                 std::vector<Completion>& done,
                                 uint64_t& next) {
    if (q.hit_total == 0) return;
    // No column command of any bank goes before the pseudo-channel's next column slot.
    uint64_t slot = timing_.earliest_any_column(write);
    if (bus_) slot = std::max(slot, bus_->column_free);
    if (slot > now) {
        next = std::min(next, next_column_at(q, write, now));
        return;
    }
    // earliest() per bank, computed once per scan (entries share banks).
    std::array<uint64_t, 64> cas_at;
    uint64_t cached = 0;
    if (refresh_hold_ != kNoBank) {
        // The bank due for per-bank refresh takes no more column commands: they would push
        // its PRE back for ever.
        cas_at[refresh_hold_] = kNever;
        cached = uint64_t{1} << refresh_hold_;
    }
    // Only the row hits can take a column command.
    for (size_t i = q.hit_at.next_set(0, ready); i < ready; i = q.hit_at.next_set(i + 1, ready)) {
        const uint32_t bank = bank_of(q.keys[i]);
        const uint64_t bit = uint64_t{1} << bank;
        if (!(cached & bit)) {
            cas_at[bank] = timing_.earliest_column(write, bank);
            cached |= bit;
        }
        const uint64_t at = cas_at[bank];
        if (at > now) {
            next = std::min(next, at);
            continue;
        }
        Entry& e = q.entries[i];
        timing_.issue_column(write, bank, now);
        if (bus_) bus_->column_free = now + 1;
        // A column command delays its bank's PRE (tRTP, tWR): a scan that counted on it is stale.
        for (Queue* other : {&reads_, &writes_}) {
            if (other->row_scan.waiting_pre & bit) other->row_scan.epoch = ~0ULL;
        }
        // The request's first column command settles its row-buffer outcome. Counted without
        // a branch: with two bursts per request, whether this is the first command is a coin
        // toss to the host's branch predictor (1 M mispredictions in BM_HbmTraffic/0, in
        // callgrind's model).
        const uint64_t first_command = e.bursts_left == e.bursts;
        counters_.row_conflicts += first_command & (e.first == kFirstPre);
        counters_.row_misses += first_command & (e.first == kFirstAct);
        counters_.row_hits += first_command & (e.first == kNotStarted);
        ++(write ? counters_.write_bursts : counters_.read_bursts);
        // Not just the next column slot: woken there with every queued hit's bank still busy
        // (tCCD_L in its group, tRCD), a wake-up found nothing to do (2.4 M of the 9.2 M
        // wake-ups of BM_GemmKernel/1). Hits that arrive later come with their own wake-up.
        next = std::min(next, next_column_at(q, write, now));
        if (--e.bursts_left == 0) {
            const uint64_t data_done = write ? timing_.write_done(now) : timing_.read_done(now);
            ++(write ? counters_.writes : counters_.reads);
            // Filled in place, not copied from a temporary (see fill_entry).
            Completion& c = done.emplace_back();
            c.id = e.id;
            c.write = write;
            c.arrival = e.arrival;
            c.done = data_done;
            c.bytes = e.bursts * shape_.access_bytes;
            --q.arrived_at[bank];  // a hit left: miss_banks stays
            if (--q.hits[bank] == 0) {
                q.hit_banks &= ~bit;
                // The bank's PRE may now go: a scan of q that passed it over is stale.
                if (q.row_scan.tried & bit) q.row_scan.epoch = ~0ULL;
            }
            --q.hit_total;
            q.entries.erase(i);
            q.keys.erase(i);
            q.hit_at.erase(i);
            --q.arrived;
            count_shared(q, false, -1);
            count_shared(q, true, -1);
            if (i < q.row_scan.scanned) --q.row_scan.scanned;
            --ready;
        }
        return;
    }
}

uint64_t PseudoChannel::earliest_hit_bank_column(const Queue& q, bool write, uint64_t floor) const {
    uint64_t at = kNever;
    for (uint64_t banks = q.hit_banks; banks != 0; banks &= banks - 1) {
        at = std::min(at, timing_.earliest_column(write, __builtin_ctzll(banks)));
        if (at <= floor) return floor;
    }
    return at;
}

uint64_t PseudoChannel::row_commands_at(const Queue& q,
                                        size_t from,
                                        size_t ready,
                                        uint64_t skip,
                                        uint64_t act_floor,
                                        uint64_t now) const {
    uint64_t banks = 0;
    for (size_t k = from; k < ready; ++k)
        banks |= uint64_t{1} << bank_of(q.keys[k]);
    uint64_t at = kNever;
    for (banks &= ~skip; banks != 0; banks &= banks - 1) {
        const auto bank = static_cast<uint32_t>(__builtin_ctzll(banks));
        at = std::min(at, queued_row_command_at(q, bank, act_floor, now));
    }
    return at;
}

bool PseudoChannel::issue_row(Queue& q, size_t ready, uint64_t now, uint64_t& next) {
    // The oldest request of a bank decides its row command; younger ones would ask for the
    // same command at the same earliest cycle, so each bank is tried once. No ACT at all may
    // go before the pseudo-channel's own ACT constraints (tRRD_S, tFAW) allow.
    RowScan& scan = q.row_scan;
    if (scan.epoch != row_epoch_ || now >= scan.until || scan.scanned > ready ||
        params_.full_row_scan)
        scan = {row_epoch_, 0, 0, 0, kNever};
    if (!row_bus_free(false, now, next)) return false;
    uint64_t act_floor = timing_.earliest_any_activate();
    if (scan.scanned == 0 && !params_.full_row_scan &&
        no_row_command_yet(q, ready, act_floor, now)) {
        next = std::min(next, scan.until);
        return false;
    }
    // A hit waits for its CAS: only the others need a row command.
    for (size_t i = q.hit_at.next_clear(scan.scanned, ready); i < ready;
         i = q.hit_at.next_clear(i + 1, ready)) {
        const uint32_t key = q.keys[i];
        const uint32_t bank = bank_of(key);
        const uint64_t bit = uint64_t{1} << bank;
        if (scan.tried & bit) continue;
        const int64_t open = timing_.open_row(bank);
        scan.tried |= bit;
        // FR-FCFS: while the open row still has queued hits, they go first.
        if (open != BankTiming::kClosed && (q.hit_banks & bit)) continue;
        const uint64_t at = row_command_at(bank, open == BankTiming::kClosed, act_floor, now);
        if (at > now) {
            if (open != BankTiming::kClosed) scan.waiting_pre |= bit;
            scan.until = std::min(scan.until, at);
            continue;
        }
        // Once a command has issued, the rest of the queue only bounds the next one: waking
        // at now + 1 instead found nothing to do after most row commands (0.7 M of the 9.2 M
        // wake-ups of BM_GemmKernel/1). Commands only ever move others' earliest cycles
        // later, so the bounds the scan took before the command hold.
        uint64_t after;
        Entry& e = q.entries[i];
        if (open == BankTiming::kClosed) {
            if (e.first == kNotStarted) e.first = kFirstAct;
            activate(bank, key >> kBankBits, now);
            act_floor = timing_.earliest_any_activate();
            // The bank's next commands: a column command to its new hits, a PRE.
            after =
                std::min({timing_.earliest_precharge(bank), timing_.earliest_column(false, bank),
                          timing_.earliest_column(true, bank)});
        } else {
            if (e.first == kNotStarted) e.first = kFirstPre;
            precharge(bank, now);
            after = timing_.earliest_activate(bank);
        }
        after = std::min(after, scan.until);
        // The requests past this one only bound the next command, and each bank decides
        // alike for all of its requests: taken bank by bank, not request by request (with
        // random traffic, nearly every request waits for an ACT, and the scan of the rest of
        // the queue was most of issue_row's time).
        if (after > now + 1)
            after = std::min(after, row_commands_at(q, i + 1, ready, scan.tried, act_floor, now));
        next = std::min(next, std::max(after, now + 1));
        return true;
    }
    scan.scanned = ready;
    next = std::min(next, scan.until);
    return false;
}

bool PseudoChannel::no_row_command_yet(Queue& q, size_t ready, uint64_t act_floor, uint64_t now) {
    uint64_t scanned_banks = q.miss_banks;
    if (ready < q.arrived) {
        // The requests not schedulable yet (the last few to arrive) are not the scan's: a bank
        // whose only misses are among them drops out.
        std::array<uint8_t, kMaxBanks> tail_misses{};
        for (size_t k = q.hit_at.next_clear(ready, q.arrived); k < q.arrived;
             k = q.hit_at.next_clear(k + 1, q.arrived))
            ++tail_misses[bank_of(q.keys[k])];
        for (uint64_t banks = q.miss_banks; banks != 0; banks &= banks - 1) {
            const auto bank = static_cast<uint32_t>(__builtin_ctzll(banks));
            if (q.arrived_at[bank] - q.hits[bank] == tail_misses[bank])
                scanned_banks &= ~(uint64_t{1} << bank);
        }
    }
    uint64_t until = kNever, waiting_pre = 0;
    for (uint64_t banks = scanned_banks; banks != 0; banks &= banks - 1) {
        const auto bank = static_cast<uint32_t>(__builtin_ctzll(banks));
        const uint64_t at = queued_row_command_at(q, bank, act_floor, now);
        if (at == kNever) continue;
        if (at <= now) return false;
        if (timing_.open_row(bank) != BankTiming::kClosed) waiting_pre |= uint64_t{1} << bank;
        until = std::min(until, at);
    }
    q.row_scan.scanned = ready;
    q.row_scan.tried = scanned_banks;
    q.row_scan.waiting_pre = waiting_pre;
    q.row_scan.until = until;
    return true;
}

void PseudoChannel::close_idle_rows(uint64_t now, uint64_t& next) {
    const uint64_t hits = reads_.hit_banks | writes_.hit_banks;
    for (uint32_t b = 0; b < shape_.banks(); ++b) {
        if (timing_.open_row(b) == BankTiming::kClosed || (hits & (uint64_t{1} << b))) continue;
        const uint64_t at = timing_.earliest_precharge(b);
        if (at <= now) {
            if (!row_bus_free(false, now, next)) return;
            precharge(b, now);
            next = std::min(next, now + 1);
            return;
        }
        next = std::min(next, at);
    }
}

size_t PseudoChannel::schedulable_prefix(const Queue& q,
                                         uint64_t now,
                                         uint32_t& tail_hits,
                                         uint64_t& next) const {
    size_t ready = q.arrived;
    while (ready > 0 && ready_at(q.entries[ready - 1]) > now) {
        --ready;
        if (q.hit_at.test(ready)) ++tail_hits;
    }
    // Keep the next request's arrival in view: it may need a row command before anything
    // else happens.
    if (ready < q.arrived) next = std::min(next, ready_at(q.entries[ready]));
    return ready;
}

void PseudoChannel::advance(uint64_t now, std::vector<Completion>& done) {
    ++counters_.wakeups;
    account_queue(now);
    if (reads_.on_the_way() > 0 || writes_.on_the_way() > 0) admit_arrivals(now);
    uint64_t next = now + 1;
    if (refresh_due_ > now) {
        next = refresh_due_;
    } else if (params_.per_bank_refresh) {
        // A due REFpb names its own next step (its PRE's or its own earliest cycle); now + 1
        // polled the pseudo-channel every cycle while it waited for tRP or tRREFD.
        next = kNever;
    }
    // Per-bank refresh holds the row bus while it is due (its PRE and REFpb go first, as a
    // controller's priority queue would send them) but not the column bus.
    bool row_held = false;
    if (now >= refresh_due_ && params_.per_bank_refresh) {
        row_held = true;
        if (refresh_bank_step(now, next)) next = std::min(next, std::min(refresh_due_, now + 1));
    } else if (now >= refresh_due_) {
        if (!refresh_step(now, next)) {
            // Requests keep arriving while refresh waits; they are served afterwards.
            next_event_ = params_.tick_every_cycle ? now + 1 : std::max(next, now + 1);
            return;
        }
        next = std::min(next, refresh_due_);
    }
    update_write_drain();
    uint32_t read_tail_hits = 0, write_tail_hits = 0;
    size_t ready_reads = schedulable(reads_, now, read_tail_hits, next);
    size_t ready_writes = schedulable(writes_, now, write_tail_hits, next);
    // Reads go first unless writes must drain; writes also go when no read is schedulable.
    const bool serve_writes = draining() || (ready_reads == 0 && ready_writes > 0);
    Queue& q = serve_writes ? writes_ : reads_;
    size_t& ready = serve_writes ? ready_writes : ready_reads;
    // Some schedulable request needs an ACT or PRE when not all of them are row hits.
    const bool need_row = ready > q.hit_total - (serve_writes ? write_tail_hits : read_tail_hits);
    issue_column(q, serve_writes, ready, now, done, next);
    bool row = false;
    if (need_row && !row_held) {
        const RowScan& scan = q.row_scan;
        if (scan.epoch == row_epoch_ && now < scan.until && scan.scanned == ready &&
            !params_.full_row_scan) {
            // The last scan still holds and nothing became schedulable since: no row command
            // before scan.until (what issue_row would conclude, without its set-up).
            next = std::min(next, scan.until);
        } else {
            row = issue_row(q, ready, now, next);
        }
    }
    if (!params_.open_row && !row_held) {
        // issue_row's bound leaves out the rows to close; the next cycle looks for them.
        if (row)
            next = std::min(next, now + 1);
        else
            close_idle_rows(now, next);
    }
    // A completed write may end the drain, or the last schedulable read may have gone: the
    // next cycle then serves the other queue, whose commands next does not cover yet.
    update_write_drain();
    if (serve_writes != (draining() || (ready_reads == 0 && ready_writes > 0)))
        next = std::min(next, now + 1);
    // Requests on their way: the first of each queue becomes schedulable at its ready_at.
    for (const Queue* w : {&reads_, &writes_}) {
        if (w->on_the_way() > 0) next = std::min(next, ready_at(w->entries[w->arrived]));
    }
    next = std::min(next, drain_wake());
    next_event_ = params_.tick_every_cycle ? now + 1 : std::max(next, now + 1);
}

bool PseudoChannel::drain_should_start() const {
    const size_t writes = shared_ ? shared_->arrived_writes : writes_.arrived;
    const size_t reads = shared_ ? shared_->arrived_reads : reads_.arrived;
    // Besides the high watermark, a drain also starts when no read is queued at all, and then
    // runs to the low watermark like any other. Without that, writes below the high watermark
    // went only while the read queue happened to be empty and gave way to the next read at
    // once: a bus turnaround every one or two writes, and read-mode PREs closing rows just
    // opened for writes (once measured at 3 requests per turnaround and 1.26 ACTs per request).
    // Ramulator 2 and DRAMSys also enter write mode on an empty read queue.
    return writes >= params_.write_high_watermark ||
           (reads == 0 && writes > params_.write_low_watermark);
}

void PseudoChannel::update_write_drain() {
    // Small enough to be inlined into advance(), as before shared queues existed.
    if (shared_) return update_shared_write_drain();
    if (drain_should_start()) draining_ = true;
    if (writes_.arrived <= params_.write_low_watermark) draining_ = false;
}

void PseudoChannel::update_shared_write_drain() {
    if (drain_should_start()) set_draining(true);
    if (shared_->arrived_writes <= params_.write_low_watermark) set_draining(false);
}

}  // namespace sim::hbm
