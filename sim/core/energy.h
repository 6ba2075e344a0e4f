// SPDX-License-Identifier: MIT
// Energy one operator (or a whole run) spent, split by where it went. Models fill it from the
// per-event tables of models/energy; the engine sums it into stats.json and ops.csv.
#pragma once

namespace sim {

struct EnergyBreakdown {
    double compute = 0;  ///< arithmetic and operand delivery from the register file, J
    double sram = 0;     ///< L1 / shared memory traffic, J
    double l2 = 0;       ///< L2 traffic, J
    double dram = 0;     ///< device memory (HBM): activations, data bits, refresh, J
    double link = 0;     ///< bits sent on NVLink-class links, J
    double host = 0;     ///< bits over the host link (PCIe), J

    /// Moving data rather than computing on it: SRAM, L2, DRAM, links, host.
    double data_movement() const { return sram + l2 + dram + link + host; }
    /// Everything the operator caused (static power is charged over time, separately).
    double dynamic() const { return compute + data_movement(); }

    EnergyBreakdown& operator+=(const EnergyBreakdown& o) {
        compute += o.compute;
        sram += o.sram;
        l2 += o.l2;
        dram += o.dram;
        link += o.link;
        host += o.host;
        return *this;
    }
};

}  // namespace sim
