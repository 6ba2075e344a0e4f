// SPDX-License-Identifier: MIT
#include "models/hbm/core/bank_timing.h"

#include <algorithm>

#include "sim/core/error.h"

namespace sim::hbm {

BankTiming::BankTiming(const DramTiming& t, const PseudoChannelShape& shape)
    : t_(t),
      banks_per_group_(shape.banks_per_group),
      banks_(shape.banks()),
      open_rows_(shape.banks(), kClosed),
      groups_(shape.bank_groups) {}

bool BankTiming::all_closed() const {
    return std::all_of(open_rows_.begin(), open_rows_.end(),
                       [](int64_t row) { return row == kClosed; });
}

uint64_t BankTiming::earliest(Command cmd, uint32_t bank) const {
    switch (cmd) {
        case Command::ACT: {
            const Bank& b = banks_[bank];
            const Group& g = groups_[bank / banks_per_group_];
            return std::max({b.next_act, g.next_act, earliest_any_activate()});
        }
        case Command::PRE: return banks_[bank].next_pre;
        case Command::RD: {
            const Group& g = groups_[bank / banks_per_group_];
            return std::max({banks_[bank].next_rd, g.next_rd, next_rd_});
        }
        case Command::WR: {
            const Group& g = groups_[bank / banks_per_group_];
            return std::max({banks_[bank].next_wr, g.next_wr, next_wr_});
        }
        case Command::REF: {
            uint64_t e = 0;
            for (const Bank& b : banks_)
                e = std::max(e, b.next_act);
            return e;
        }
    }
    return 0;
}

void BankTiming::idle_refresh(uint64_t at) {
    std::fill(open_rows_.begin(), open_rows_.end(), kClosed);
    for (Bank& b : banks_)
        raise(b.next_act, at + t_.rfc);
}

void BankTiming::issue(Command cmd, uint32_t bank, uint64_t now, uint64_t row) {
    SIM_ASSERT(now >= earliest(cmd, bank), "command issued before it is legal");
    switch (cmd) {
        case Command::ACT: {
            Bank& b = banks_[bank];
            SIM_ASSERT(open_rows_[bank] == kClosed, "ACT to a bank with an open row");
            open_rows_[bank] = static_cast<int64_t>(row);
            raise(b.next_rd, now + t_.rcd);
            raise(b.next_wr, now + t_.rcd);
            raise(b.next_pre, now + t_.ras);
            raise(b.next_act, now + t_.rc);
            raise(groups_[bank / banks_per_group_].next_act, now + t_.rrd_l);
            raise(next_act_, now + t_.rrd_s);
            // Slide the four-activate window.
            std::rotate(act_window_.begin(), act_window_.begin() + 1, act_window_.end());
            act_window_[3] = now;
            ++acts_seen_;
            break;
        }
        case Command::PRE: {
            open_rows_[bank] = kClosed;
            raise(banks_[bank].next_act, now + t_.rp);
            break;
        }
        case Command::RD:
        case Command::WR: issue_column(cmd == Command::WR, bank, now); break;
        case Command::REF: {
            SIM_ASSERT(all_closed(), "REF with an open row");
            for (Bank& b : banks_)
                raise(b.next_act, now + t_.rfc);
            break;
        }
    }
}

}  // namespace sim::hbm
