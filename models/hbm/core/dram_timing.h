// SPDX-License-Identifier: MIT
// JEDEC timing constraints of one HBM pseudo-channel, in memory-clock cycles (nCK), and the
// organisation they apply to. Values come from HbmParams (ns converted with the clock).
// Sources: JESD235 (HBM/HBM2/HBM2E) and JESD238 (HBM3/HBM3E) timing tables.
#pragma once

#include <cstdint>

namespace sim::hbm {

struct DramTiming {
    uint32_t burst = 2;    ///< data-bus cycles per burst: burst length / beats per clock
    uint32_t rcd = 14;     ///< ACT -> RD/WR, same bank
    uint32_t rp = 14;      ///< PRE -> ACT, same bank
    uint32_t ras = 33;     ///< ACT -> PRE, same bank
    uint32_t rc = 47;      ///< ACT -> ACT, same bank (>= ras + rp)
    uint32_t cl = 14;      ///< RD -> first data
    uint32_t cwl = 4;      ///< WR -> first data
    uint32_t ccd_s = 2;    ///< column -> column, different bank groups
    uint32_t ccd_l = 4;    ///< column -> column, same bank group
    uint32_t rrd_s = 4;    ///< ACT -> ACT, different bank groups
    uint32_t rrd_l = 6;    ///< ACT -> ACT, same bank group
    uint32_t faw = 16;     ///< window holding at most four ACTs
    uint32_t wtr_s = 3;    ///< end of write data -> RD, different bank groups
    uint32_t wtr_l = 9;    ///< end of write data -> RD, same bank group
    uint32_t rtp = 5;      ///< RD -> PRE, same bank
    uint32_t wr = 16;      ///< end of write data -> PRE (write recovery)
    uint32_t rfc = 350;    ///< all-bank REF -> ACT
    uint32_t refi = 3900;  ///< average interval between REF commands

    /// RD -> WR on the same pseudo-channel: read data must clear the bus first (one cycle
    /// of preamble each way).
    uint32_t read_to_write() const { return cl + burst + 2 > cwl ? cl + burst + 2 - cwl : 1; }
};

/// The shape of one pseudo-channel.
struct PseudoChannelShape {
    uint32_t bank_groups = 4;
    uint32_t banks_per_group = 4;
    uint64_t rows = 32768;       ///< rows per bank
    uint32_t columns = 32;       ///< bursts per row (row bytes / access bytes)
    uint32_t access_bytes = 32;  ///< bytes moved by one burst
    uint32_t banks() const { return bank_groups * banks_per_group; }
};

}  // namespace sim::hbm
