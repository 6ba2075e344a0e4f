// SPDX-License-Identifier: MIT
#include "models/hbm/core/pseudo_channel.h"

#include <algorithm>
#include <array>

#include "sim/core/error.h"

namespace sim::hbm {

PseudoChannel::PseudoChannel(const DramTiming& t,
                             const PseudoChannelShape& shape,
                             const ControllerParams& params,
                             uint64_t refresh_phase)
    : timing_(t, shape),
      shape_(shape),
      params_(params),
      refresh_due_(refresh_phase + t.refi),
      next_event_(refresh_phase + t.refi) {
    reads_.reserve(params.read_queue);
    writes_.reserve(params.write_queue);
}

void PseudoChannel::skip_idle_refreshes(uint64_t now) {
    if (queued() != 0 || refresh_due_ > now) return;
    const uint64_t refi = timing_.timing().refi;
    const uint64_t missed = (now - refresh_due_) / refi + 1;
    const uint64_t last = refresh_due_ + (missed - 1) * refi;
    for (uint32_t b = 0; b < shape_.banks(); ++b) {
        if (timing_.open_row(b) != BankTiming::kClosed) ++counters_.precharges;
    }
    timing_.idle_refresh(last);
    counters_.refreshes += missed;
    counters_.refresh_cycles += missed * timing_.timing().rfc;
    account_queue(now);
    refresh_due_ = last + refi;
    next_event_ = refresh_due_;
}

bool PseudoChannel::can_accept(bool write) const {
    return write ? writes_.size() < params_.write_queue : reads_.size() < params_.read_queue;
}

void PseudoChannel::account_queue(uint64_t now) {
    if (now > queue_since_) {
        counters_.queue_integral += queued() * (now - queue_since_);
        queue_since_ = now;
    }
}

void PseudoChannel::enqueue(const MemRequest& r, uint64_t now) {
    SIM_ASSERT(can_accept(r.write), "enqueue into a full queue");
    account_queue(now);
    Entry e;
    e.req = r;
    e.bank = r.at.bank_group * shape_.banks_per_group + r.at.bank;
    e.arrival = now;
    e.ready_at = now + params_.frontend_cycles;
    e.bursts_left = r.bursts;
    (r.write ? writes_ : reads_).push_back(e);
    next_event_ = std::min(next_event_, e.ready_at);
}

uint64_t PseudoChannel::hit_mask(const std::vector<Entry>& q) const {
    uint64_t mask = 0;
    for (const Entry& e : q) {
        if (timing_.open_row(e.bank) == static_cast<int64_t>(e.req.at.row))
            mask |= uint64_t{1} << e.bank;
    }
    return mask;
}

bool PseudoChannel::refresh_step(uint64_t now, uint64_t& next) {
    // Refresh owns the row bus until it is done: close every bank, then REF.
    if (timing_.all_closed()) {
        const uint64_t at = timing_.earliest(Command::REF, 0);
        if (at <= now) {
            timing_.issue(Command::REF, 0, now);
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
        const uint64_t at = timing_.earliest(Command::PRE, b);
        if (at <= now) {
            timing_.issue(Command::PRE, b, now);
            ++counters_.precharges;
            next = std::min(next, now + 1);
            return false;
        }
        next = std::min(next, at);
    }
    return false;
}

bool PseudoChannel::issue_column(std::vector<Entry>& q,
                                 uint64_t now,
                                 std::vector<Completion>& done,
                                 uint64_t& next) {
    // One pass: issue the oldest ready row hit; entries scanned without a legal command leave
    // the cycle they could go in next.
    size_t issued = q.size();
    bool need_row = false;
    // earliest() per bank, computed once per scan (entries share banks); an issue changes
    // every bank's column timing, so it clears the cache.
    std::array<uint64_t, 64> cas_at;
    uint64_t cached = 0;
    for (size_t i = 0; i < q.size(); ++i) {
        Entry& e = q[i];
        if (e.ready_at > now) {
            next = std::min(next, e.ready_at);
            continue;
        }
        if (timing_.open_row(e.bank) != static_cast<int64_t>(e.req.at.row)) {
            need_row = true;
            continue;
        }
        const uint64_t bit = uint64_t{1} << e.bank;
        if (!(cached & bit)) {
            cas_at[e.bank] = timing_.earliest_column(e.req.write, e.bank);
            cached |= bit;
        }
        const uint64_t at = cas_at[e.bank];
        if (at > now) {
            next = std::min(next, std::max(at, now + 1));
            continue;
        }
        timing_.issue(e.req.write ? Command::WR : Command::RD, e.bank, now);
        cached = 0;
        issued = i;
        if (!e.started) {
            e.started = true;
            if (e.saw_conflict)
                ++counters_.row_conflicts;
            else if (e.saw_closed)
                ++counters_.row_misses;
            else
                ++counters_.row_hits;
        }
        ++(e.req.write ? counters_.write_bursts : counters_.read_bursts);
        // No column command of any bank can go before the pseudo-channel's next column slot:
        // wake then and look again. The rest of the queue only needs checking for row work.
        next = std::min(next, std::max(timing_.earliest_any_column(e.req.write), now + 1));
        for (size_t j = i + 1; j < q.size() && !need_row; ++j) {
            const Entry& r = q[j];
            need_row =
                r.ready_at <= now && timing_.open_row(r.bank) != static_cast<int64_t>(r.req.at.row);
        }
        break;
    }
    if (issued != q.size()) {
        Entry& e = q[issued];
        if (--e.bursts_left == 0) {
            const uint64_t data_done =
                e.req.write ? timing_.write_done(now) : timing_.read_done(now);
            ++(e.req.write ? counters_.writes : counters_.reads);
            done.push_back(
                {e.req.id, e.req.write, e.arrival, data_done, e.req.bursts * shape_.access_bytes});
            q.erase(q.begin() + static_cast<std::ptrdiff_t>(issued));
        }
    }
    return need_row;
}

bool PseudoChannel::issue_row(std::vector<Entry>& q, uint64_t now, uint64_t& next) {
    const uint64_t hits = hit_mask(q);
    for (Entry& e : q) {
        if (e.ready_at > now) continue;
        const int64_t open = timing_.open_row(e.bank);
        if (open == static_cast<int64_t>(e.req.at.row)) continue;  // a hit waits for its CAS
        if (open == BankTiming::kClosed) {
            e.saw_closed = true;
            const uint64_t at = timing_.earliest(Command::ACT, e.bank);
            if (at <= now) {
                timing_.issue(Command::ACT, e.bank, now, e.req.at.row);
                ++counters_.activates;
                next = std::min(next, now + 1);
                return true;
            }
            next = std::min(next, at);
        } else {
            e.saw_conflict = true;
            // FR-FCFS: the open row still has queued hits; let them go first.
            if (hits & (uint64_t{1} << e.bank)) continue;
            const uint64_t at = timing_.earliest(Command::PRE, e.bank);
            if (at <= now) {
                timing_.issue(Command::PRE, e.bank, now);
                ++counters_.precharges;
                next = std::min(next, now + 1);
                return true;
            }
            next = std::min(next, at);
        }
    }
    return false;
}

void PseudoChannel::close_idle_rows(uint64_t now, uint64_t& next) {
    const uint64_t hits = hit_mask(reads_) | hit_mask(writes_);
    for (uint32_t b = 0; b < shape_.banks(); ++b) {
        if (timing_.open_row(b) == BankTiming::kClosed || (hits & (uint64_t{1} << b))) continue;
        const uint64_t at = timing_.earliest(Command::PRE, b);
        if (at <= now) {
            timing_.issue(Command::PRE, b, now);
            ++counters_.precharges;
            next = std::min(next, now + 1);
            return;
        }
        next = std::min(next, at);
    }
}

void PseudoChannel::advance(uint64_t now, std::vector<Completion>& done) {
    account_queue(now);
    uint64_t next = refresh_due_ > now ? refresh_due_ : now + 1;
    if (now >= refresh_due_) {
        if (!refresh_step(now, next)) {
            // Requests keep arriving while refresh waits; they are served afterwards.
            next_event_ = std::max(next, now + 1);
            return;
        }
        next = std::min(next, refresh_due_);
    }
    if (writes_.size() >= params_.write_high_watermark) draining_ = true;
    if (writes_.size() <= params_.write_low_watermark) draining_ = false;
    const bool serve_writes = draining_ || (reads_.empty() && !writes_.empty());
    std::vector<Entry>& q = serve_writes ? writes_ : reads_;
    // Requests that become schedulable later (either queue): keep their arrival in view.
    for (const Entry& e : reads_) {
        if (e.ready_at > now) next = std::min(next, e.ready_at);
    }
    for (const Entry& e : writes_) {
        if (e.ready_at > now) next = std::min(next, e.ready_at);
    }
    const bool need_row = issue_column(q, now, done, next);
    const bool row = need_row && issue_row(q, now, next);
    if (!params_.open_row && !row) close_idle_rows(now, next);
    next_event_ = std::max(next, now + 1);
}

}  // namespace sim::hbm
