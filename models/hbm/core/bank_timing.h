// SPDX-License-Identifier: MIT
// The timing state of one HBM pseudo-channel: per bank the open row and the earliest cycle of
// each command, per bank group and per pseudo-channel the shared constraints (tCCD, tRRD,
// tWTR, tFAW, bus turnaround, tPPD, tRREFD), and between stack IDs tCCD_R. issue() records a
// command; earliest() answers when a command may legally go. Pure C++, O(1) per query (O(bank
// groups) per column command with several stack IDs), no per-cycle work (Ramulator-style probes
// test it). Next-ACT cycles are kept as the cycle the ACT would be complete (act_extra later
// than it starts) and reported back as start cycles.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "models/hbm/core/dram_timing.h"
#include "sim/core/error.h"
#include "sim/core/prefetch.h"

namespace sim::hbm {

enum class Command { ACT, PRE, RD, WR, REF, REFPB };

class BankTiming {
  public:
    static constexpr int64_t kClosed = -1;

    BankTiming(const DramTiming& t, const PseudoChannelShape& shape);

    /// Records cmd at cycle now on bank (bank = group * banks_per_group + index; ignored for
    /// REF); for ACT, row is the row opened. The caller must respect earliest(). REFPB
    /// refreshes one closed bank (per-bank refresh).
    void issue(Command cmd, uint32_t bank, uint64_t now, uint64_t row = 0);
    /// The earliest cycle cmd may be issued to bank.
    uint64_t earliest(Command cmd, uint32_t bank) const;

    /// Books an all-bank refresh of an idle pseudo-channel at its due cycle: rows close and the
    /// banks stay locked until at + tRFC. Used when a simulation skips idle time.
    void idle_refresh(uint64_t at);
    /// The same for a per-bank refresh of bank at cycle at: the bank closes and stays locked
    /// until at + tRFCpb.
    void idle_refresh_bank(uint32_t bank, uint64_t at);

    int64_t open_row(uint32_t bank) const { return open_rows_[bank]; }
    /// The earliest any RD (or WR) may go on this pseudo-channel: a lower bound for every bank.
    uint64_t earliest_any_column(bool write) const { return write ? next_wr_ : next_rd_; }
    /// earliest(WR or RD, bank), inline for the scheduler's hot loop.
    uint64_t earliest_column(bool write, uint32_t bank) const {
        const Group& g = groups_[group_of(bank)];
        const uint64_t own =
            write ? std::max(bank_wr_[bank], g.next_wr) : std::max(bank_rd_[bank], g.next_rd);
        return std::max(own, write ? next_wr_ : next_rd_);
    }
    /// earliest(ACT, bank) and earliest(PRE, bank) without the switch on the command, for the
    /// row scheduler: its indirect jump was mispredicted 1.2 M times in BM_HbmTraffic/5.
    uint64_t earliest_activate(uint32_t bank) const {
        const uint64_t done = std::max(bank_act_[bank], groups_[group_of(bank)].next_act);
        return std::max(done > t_.act_extra ? done - t_.act_extra : 0, earliest_any_activate());
    }
    uint64_t earliest_precharge(uint32_t bank) const {
        return std::max(bank_pre_[bank], next_pre_);
    }
    /// The earliest any ACT may go on this pseudo-channel (tRRD_S, tFAW): a lower bound for
    /// every bank.
    uint64_t earliest_any_activate() const {
        const uint64_t done =
            acts_seen_ >= 4 ? std::max(next_act_, act_window_[0] + t_.faw) : next_act_;
        return done > t_.act_extra ? done - t_.act_extra : 0;
    }
    /// issue(RD or WR), inline for the scheduler's hot loop; its checks are SIM_HOT_ASSERTs
    /// (issue() checks always).
    void issue_column(bool write, uint32_t bank, uint64_t now) {
        SIM_HOT_ASSERT(now >= earliest_column(write, bank),
                       "column command issued before it is legal");
        SIM_HOT_ASSERT(open_rows_[bank] != kClosed, "column command to a closed bank");
        const uint32_t group = group_of(bank);
        Group& g = groups_[group];
        if (write) {
            const uint64_t data_end = now + t_.cwl + t_.burst;
            raise(g.next_wr, now + t_.ccd_l);
            raise(g.next_rd, data_end + t_.wtr_l);
            if (stack_ids_ == 1)
                raise(next_wr_, now + t_.ccd_s);
            else
                column_across_stack_ids(true, group, now);
            raise(next_rd_, data_end + t_.wtr_s);
            raise(bank_pre_[bank], data_end + t_.wr);
        } else {
            raise(g.next_rd, now + t_.ccd_l);
            raise(g.next_wr, now + t_.ccd_l);
            if (stack_ids_ == 1)
                raise(next_rd_, now + t_.ccd_s);
            else
                column_across_stack_ids(false, group, now);
            raise(next_wr_, now + t_.read_to_write());
            raise(bank_pre_[bank], now + t_.rtp);
        }
    }
    /// issue(ACT, bank, now, row) and issue(PRE, bank, now) without the switch.
    void activate(uint32_t bank, uint64_t now, uint64_t row) {
        SIM_ASSERT(now >= earliest_activate(bank), "ACT issued before it is legal");
        SIM_ASSERT(open_rows_[bank] == kClosed, "ACT to a bank with an open row");
        open_rows_[bank] = static_cast<int64_t>(row);
        const uint64_t done = now + t_.act_extra;  // JEDEC counts from here
        raise(bank_rd_[bank], done + t_.rcd);
        raise(bank_wr_[bank], done + t_.rcd_write());
        raise(bank_pre_[bank], done + t_.ras);
        raise(bank_act_[bank], done + t_.rc);
        raise(groups_[group_of(bank)].next_act, done + t_.rrd_l);
        raise(next_act_, done + t_.rrd_s);
        // Slide the four-activate window.
        std::rotate(act_window_.begin(), act_window_.begin() + 1, act_window_.end());
        act_window_[3] = done;
        ++acts_seen_;
    }
    void precharge(uint32_t bank, uint64_t now) {
        SIM_ASSERT(now >= earliest_precharge(bank), "PRE issued before it is legal");
        open_rows_[bank] = kClosed;
        raise(bank_act_[bank], now + t_.rp);
        raise(next_pre_, now + t_.ppd);
    }
    bool all_closed() const;
    /// Hints the host to fetch the open rows, the per-group state and the banks' next RD (or
    /// WR) cycles, the state a wake-up serving reads (or writes) reads (see
    /// sim/core/prefetch.h). Not the banks' next ACT and PRE: a wake-up reads one or two of
    /// them, and hinting all the per-bank state (eight host cache lines for 16 banks) only
    /// queued fetches ahead of the ones needed.
    void prefetch(bool writes) const {
        prefetch_bytes(open_rows_.data(), open_rows_.size() * sizeof(int64_t));
        prefetch_bytes(groups_.data(), groups_.size() * sizeof(Group));
        const std::vector<uint64_t>& column = writes ? bank_wr_ : bank_rd_;
        prefetch_bytes(column.data(), column.size() * sizeof(uint64_t));
    }
    /// Cycle the data of a RD (or WR) issued at now has fully moved.
    uint64_t read_done(uint64_t now) const { return now + t_.cl + t_.burst; }
    uint64_t write_done(uint64_t now) const { return now + t_.cwl + t_.burst; }
    const DramTiming& timing() const { return t_; }

  private:
    struct Group {
        uint64_t next_act = 0, next_rd = 0, next_wr = 0;
    };
    /// bank / banks_per_group_, by a shift where that is a power of two (every JEDEC part):
    /// the division was the longest step of the scheduler's column scan.
    uint32_t group_of(uint32_t bank) const {
        return group_shift_ >= 0 ? bank >> group_shift_ : bank / banks_per_group_;
    }
    static void raise(uint64_t& slot, uint64_t v) {
        if (v > slot) slot = v;
    }
    /// With several stack IDs: a RD (WR) at now holds the next RD (WR) tCCD_S in the same
    /// stack ID and tCCD_R (the data bus, one burst) in the others.
    void column_across_stack_ids(bool write, uint32_t group, uint64_t now);

    DramTiming t_;
    uint32_t banks_per_group_;
    int group_shift_;  ///< log2(banks_per_group_), or -1 when it is not a power of two
    uint32_t stack_ids_;
    uint32_t groups_per_stack_id_;
    /// Per bank, the earliest cycle of each command, one array per command: a column scan
    /// reads only one of them (two host cache lines for 16 banks instead of eight).
    std::vector<uint64_t> bank_act_, bank_pre_, bank_rd_, bank_wr_;
    /// Per bank the open row or kClosed, apart from the rest: the scheduler's scans read
    /// only these (two cache lines for 16 banks instead of ten).
    std::vector<int64_t> open_rows_;
    std::vector<Group> groups_;
    uint64_t next_act_ = 0, next_rd_ = 0, next_wr_ = 0;
    uint64_t next_pre_ = 0;                 ///< tPPD
    uint64_t next_refpb_ = 0;               ///< tRREFD
    std::array<uint64_t, 4> act_window_{};  ///< the last four ACT cycles, oldest first
    uint32_t acts_seen_ = 0;
};

}  // namespace sim::hbm
