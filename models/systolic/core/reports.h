// SPDX-License-Identifier: MIT
// Per-layer reports: SCALE-Sim v2's COMPUTE_REPORT.csv, BANDWIDTH_REPORT.csv and
// DETAILED_ACCESS_REPORT.csv as simulator.py writes them (its header lines, ", " between
// cells, a trailing comma, integers as integers and floats as Python's str() prints them),
// from SCALE-Sim's own rules (scalesim_replay.h); and wallsim's layers.csv with everything
// wallsim's timing model computed (folds, time, energy, bound).
#pragma once

#include <string>
#include <vector>

#include "models/systolic/core/fold_timing.h"
#include "models/systolic/core/scalesim_replay.h"

namespace sim::systolic {

struct LayerRun {
    Layer layer;
    LayerTiming timing;
};

/// A double as Python's repr() and str() print it: the shortest digits that read back the
/// same, "1.0" for whole numbers, exponent form below 1e-4 and from 1e16 on, inf and nan.
std::string python_float(double v);

/// LayerID, Total Cycles, Stall Cycles, Overall Util %, Mapping Efficiency %, Compute Util %
std::string compute_report_csv(const std::vector<ScaleSimLayerReport>& layers);
/// LayerID and the average SRAM (words over total cycles) and DRAM (words over the DRAM
/// trace's first to last cycle) bandwidth of each operand, words per cycle.
std::string bandwidth_report_csv(const std::vector<ScaleSimLayerReport>& layers);
/// LayerID and, for ifmap, filter and ofmap SRAM then DRAM: start cycle, stop cycle, words.
std::string detailed_access_report_csv(const std::vector<ScaleSimLayerReport>& layers);
/// Everything per layer, one row each: shape, mapping, folds, cycles, time, utilisation, DRAM
/// bytes, intensity, bound, energy.
std::string layers_csv(const std::vector<LayerRun>& runs, const ArrayParams& p);

}  // namespace sim::systolic
