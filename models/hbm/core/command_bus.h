// SPDX-License-Identifier: MIT
// The row-command and column-command buses of an HBM channel. JESD235 (HBM2) and JESD238
// (HBM3) give each channel one row-address bus and one column-address bus, shared by its two
// pseudo-channels: at most one row command (ACT, PRE, REF) and one column command (RD, WR) per
// clock for both. An ACT takes two clocks of the row bus on HBM2 and one and a half on HBM3
// (rising-falling-rising edges); a PRE or REF one clock on HBM2 and half a clock on HBM3, so on
// HBM3 it may go on the falling edge. The row bus is therefore kept in half clocks. Ramulator
// 2 models the same (python/ramulator/dram/hbm2.py, hbm3.py: command_cycles; controller
// hbm34_controller.cpp); docs/references.md [jesd235] [jesd238] [ramulator2]. Not modelled:
// HBM3's rule on which PRE may pair with a rising-edge row command of the same pseudo-channel.
// Pure C++.
#pragma once

#include <algorithm>
#include <cstdint>

namespace sim::hbm {

struct CommandBus {
    uint32_t act_halves = 2;   ///< half clocks an ACT holds the row bus (HBM2: 4, HBM3: 3)
    uint32_t pre_halves = 2;   ///< half clocks a PRE or REF holds it (HBM2: 2, HBM3: 1)
    uint64_t row_free = 0;     ///< the first half clock the row bus is free
    uint64_t column_free = 0;  ///< the first clock the column bus is free

    /// Whether a row command may start within clock now: on its rising edge, or on the falling
    /// edge for a command of an odd number of half clocks other than an ACT.
    bool row_free_at(bool act, uint64_t now) const {
        return row_free <= 2 * now || (!act && (pre_halves & 1) && row_free <= 2 * now + 1);
    }
    /// The first clock at which row_free_at(act, ...) holds.
    uint64_t row_wake(bool act) const {
        return (!act && (pre_halves & 1)) ? row_free / 2 : (row_free + 1) / 2;
    }
    void take_row(bool act, uint64_t now) {
        row_free = std::max(row_free, 2 * now) + (act ? act_halves : pre_halves);
    }
};

}  // namespace sim::hbm
