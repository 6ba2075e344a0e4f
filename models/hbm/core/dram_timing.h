// SPDX-License-Identifier: MIT
// JEDEC timing constraints of one HBM pseudo-channel, in memory-clock cycles (nCK), and the
// organisation they apply to. Values come from HbmParams (ns converted with the clock).
// Sources: JESD235 (HBM/HBM2/HBM2E) and JESD238 (HBM3/HBM3E) timing tables; the HBM3-only
// constraints (tCCD_R between stack IDs, tPPD, per-bank refresh) as Ramulator 2 lists them
// (python/ramulator/dram/hbm3.py), docs/references.md [jesd238] [ramulator2].
#pragma once

#include <cstdint>

namespace sim::hbm {

struct DramTiming {
    uint32_t burst = 2;    ///< data-bus cycles per burst: burst length / beats per clock
    uint32_t rcd = 14;     ///< ACT -> RD, same bank (tRCDRD)
    uint32_t rcd_wr = 0;   ///< ACT -> WR, same bank (tRCDWR); 0: rcd
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
    uint32_t rtw = 0;      ///< RD -> WR, same pseudo-channel; 0: cl + burst + 2 - cwl
    uint32_t ccd_r = 0;    ///< RD -> RD, different stack IDs (HBM3 tCCD_R); 0: ccd_s
    uint32_t ppd = 0;      ///< PRE -> PRE, same pseudo-channel (HBM3 tPPD)
    /// Command-bus cycles of an ACT beyond its first (HBM2: 1, an ACT takes two). JEDEC counts
    /// a timing from the cycle a command is complete and the model records a command at its
    /// first cycle, so ACT -> X constraints grow by this and X -> ACT ones shrink by it (as
    /// Ramulator 2 adjusts multi-cycle commands, python/ramulator/dram/spec.py).
    uint32_t act_extra = 0;
    uint32_t rfc_pb = 0;  ///< per-bank REFpb -> ACT, same bank (tRFCpb / tRFCSB)
    uint32_t rrefd = 0;   ///< REFpb -> REFpb or ACT of another bank (tRREFD)

    /// RD -> WR on the same pseudo-channel: read data must clear the bus first (one cycle
    /// of preamble each way), unless the part gives tRTW.
    uint32_t read_to_write() const {
        if (rtw != 0) return rtw;
        return cl + burst + 2 > cwl ? cl + burst + 2 - cwl : 1;
    }
    uint32_t rcd_write() const { return rcd_wr != 0 ? rcd_wr : rcd; }
};

/// The shape of one pseudo-channel.
struct PseudoChannelShape {
    uint32_t stack_ids = 1;    ///< HBM3 SIDs (8-high: 2); bank groups are split evenly among them
    uint32_t bank_groups = 4;  ///< of the whole pseudo-channel, all stack IDs together
    uint32_t banks_per_group = 4;
    uint64_t rows = 32768;       ///< rows per bank
    uint32_t columns = 32;       ///< bursts per row (row bytes / access bytes)
    uint32_t access_bytes = 32;  ///< bytes moved by one burst
    uint32_t banks() const { return bank_groups * banks_per_group; }
};

}  // namespace sim::hbm
