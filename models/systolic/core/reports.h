// SPDX-License-Identifier: MIT
// Per-layer reports with SCALE-Sim v2's file names, column names and meanings
// (COMPUTE_REPORT.csv, BANDWIDTH_REPORT.csv, DETAILED_ACCESS_REPORT.csv), plus wallsim's own
// layers.csv with everything the timing model computed (folds, time, energy, bound).
#pragma once

#include <string>
#include <vector>

#include "models/systolic/core/fold_timing.h"

namespace sim::systolic {

struct LayerRun {
    Layer layer;
    LayerTiming timing;
};

/// LayerID, Total Cycles, Stall Cycles, Overall Util %, Mapping Efficiency %, Compute Util %
std::string compute_report_csv(const std::vector<LayerRun>& runs);
/// LayerID, Avg IFMAP SRAM BW, Avg FILTER SRAM BW, Avg OFMAP SRAM BW, Avg IFMAP DRAM BW,
/// Avg FILTER DRAM BW, Avg OFMAP DRAM BW (words per cycle over the layer's total cycles)
std::string bandwidth_report_csv(const std::vector<LayerRun>& runs);
/// LayerID and the SRAM and DRAM access counts per operand (words). SCALE-Sim's start and stop
/// cycles of each trace are not reported: there is no per-access trace here.
std::string detailed_access_report_csv(const std::vector<LayerRun>& runs);
/// Everything per layer, one row each: shape, mapping, folds, cycles, time, utilisation, DRAM
/// bytes, intensity, bound, energy.
std::string layers_csv(const std::vector<LayerRun>& runs, const ArrayParams& p);

}  // namespace sim::systolic
