// SPDX-License-Identifier: MIT
#include "models/hbm/core/bank_timing.h"

#include <algorithm>

#include "sim/core/error.h"

namespace sim::hbm {

BankTiming::BankTiming(const DramTiming& t, const PseudoChannelShape& shape)
    : t_(t),
      banks_per_group_(shape.banks_per_group),
      group_shift_((shape.banks_per_group & (shape.banks_per_group - 1)) == 0
                       ? __builtin_ctz(shape.banks_per_group)
                       : -1),
      stack_ids_(std::max(shape.stack_ids, 1u)),
      groups_per_stack_id_(shape.bank_groups / std::max(shape.stack_ids, 1u)),
      bank_act_(shape.banks()),
      bank_pre_(shape.banks()),
      bank_rd_(shape.banks()),
      bank_wr_(shape.banks()),
      open_rows_(shape.banks(), kClosed),
      groups_(shape.bank_groups) {
    SIM_ASSERT(shape.bank_groups % stack_ids_ == 0, "bank groups split unevenly over stack IDs");
    if (t_.ccd_r == 0) t_.ccd_r = t_.ccd_s;
}

void BankTiming::column_across_stack_ids(bool write, uint32_t group, uint64_t now) {
    const uint32_t sid = group / groups_per_stack_id_;
    const uint64_t same = now + t_.ccd_s;
    const uint64_t other = now + std::max(write ? t_.burst : t_.ccd_r, t_.burst);
    for (uint32_t g = 0; g < groups_.size(); ++g) {
        const uint64_t at = g / groups_per_stack_id_ == sid ? same : other;
        raise(write ? groups_[g].next_wr : groups_[g].next_rd, at);
    }
    raise(write ? next_wr_ : next_rd_, std::min(same, other));
}

bool BankTiming::all_closed() const {
    return std::all_of(open_rows_.begin(), open_rows_.end(),
                       [](int64_t row) { return row == kClosed; });
}

uint64_t BankTiming::earliest(Command cmd, uint32_t bank) const {
    switch (cmd) {
        case Command::ACT: return earliest_activate(bank);
        case Command::PRE: return earliest_precharge(bank);
        case Command::RD: {
            const Group& g = groups_[group_of(bank)];
            return std::max({bank_rd_[bank], g.next_rd, next_rd_});
        }
        case Command::WR: {
            const Group& g = groups_[group_of(bank)];
            return std::max({bank_wr_[bank], g.next_wr, next_wr_});
        }
        case Command::REF: {
            return *std::max_element(bank_act_.begin(), bank_act_.end());
        }
        case Command::REFPB:
            // Next-ACT cycles are complete-ACT cycles, which is what a one-cycle REFpb waits
            // for (tRP, tRC, tRFCpb of the bank; tRRD_S after any ACT; tRREFD).
            return std::max({bank_act_[bank], next_act_, next_refpb_});
    }
    return 0;
}

void BankTiming::idle_refresh(uint64_t at) {
    std::fill(open_rows_.begin(), open_rows_.end(), kClosed);
    for (uint64_t& act : bank_act_)
        raise(act, at + t_.rfc);
}

void BankTiming::idle_refresh_bank(uint32_t bank, uint64_t at) {
    open_rows_[bank] = kClosed;
    raise(bank_act_[bank], at + t_.rfc_pb);
    raise(next_act_, at + t_.rrefd);
    raise(next_refpb_, at + t_.rrefd);
}

void BankTiming::issue(Command cmd, uint32_t bank, uint64_t now, uint64_t row) {
    SIM_ASSERT(now >= earliest(cmd, bank), "command issued before it is legal");
    switch (cmd) {
        case Command::ACT: activate(bank, now, row); break;
        case Command::PRE: precharge(bank, now); break;
        case Command::RD:
        case Command::WR:
            SIM_ASSERT(open_rows_[bank] != kClosed, "column command to a closed bank");
            issue_column(cmd == Command::WR, bank, now);
            break;
        case Command::REF: {
            SIM_ASSERT(all_closed(), "REF with an open row");
            for (uint64_t& act : bank_act_)
                raise(act, now + t_.rfc);
            break;
        }
        case Command::REFPB: {
            SIM_ASSERT(open_rows_[bank] == kClosed, "REFpb to a bank with an open row");
            raise(bank_act_[bank], now + t_.rfc_pb);
            raise(next_act_, now + t_.rrefd);
            raise(next_refpb_, now + t_.rrefd);
            break;
        }
    }
}

}  // namespace sim::hbm
