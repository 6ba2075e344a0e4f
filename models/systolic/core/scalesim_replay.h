// SPDX-License-Identifier: MIT
// One layer run the way SCALE-Sim v2 (2.0.x, docs/references.md [scalesim]) runs it, for
// its three reports: single_layer_sim.py and double_buffered_scratchpad_mem.py at commit
// 22f88b1. Every demand line of every fold goes through the ifmap and filter read buffers and
// the ofmap write buffer (scalesim_buffers.h); the array stalls by the largest of the three
// waits. What comes out is what SCALE-Sim writes, with its conventions:
//  - total cycles: the serve cycle of the last ofmap demand line (a 0-based index);
//  - compute utilisation per fold over the fold's lines plus C - 1 for ws and is;
//  - os ofmap SRAM writes: R + C more per fold than the outputs;
//  - the ofmap size of strided convolutions rounded up (ceil((H - R + S) / S));
//  - DRAM words as its buffers count them (whole lines in USER mode, first-seen addresses in
//    CALC mode), with the first and last cycle of each DRAM trace;
//  - stalls only in USER mode's read buffers, and in the write buffer in both modes.
// wallsim's own timing of the same layer (fold_timing.h) keeps wallsim's conventions.
#pragma once

#include <cstdint>
#include <string>

#include "models/systolic/core/scalesim_buffers.h"
#include "models/systolic/core/scalesim_io.h"

namespace sim::systolic {

/// First and last serve cycle of the demand lines that read or write an operand's SRAM.
struct SramActivity {
    bool any = false;
    int64_t first = 0, last = 0;
};

/// What SCALE-Sim v2's COMPUTE_REPORT, BANDWIDTH_REPORT and DETAILED_ACCESS_REPORT say about
/// one layer.
struct ScaleSimLayerReport {
    uint64_t total_cycles = 0;  ///< last ofmap demand line's serve cycle
    uint64_t stall_cycles = 0;
    double overall_util = 0;        ///< %: MACs x 100 / (total cycles x R x C)
    double mapping_efficiency = 0;  ///< %: mean over folds of used PEs / (R x C)
    double compute_util = 0;        ///< %: mean over folds of MACs / (R x C x fold cycles)
    uint64_t ifmap_sram_reads = 0, filter_sram_reads = 0, ofmap_sram_writes = 0;  ///< words
    SramActivity ifmap_sram, filter_sram, ofmap_sram;
    DramActivity ifmap_dram, filter_dram, ofmap_dram;
};

/// Runs one layer; throws ConfigError where SCALE-Sim itself would fail on it.
ScaleSimLayerReport replay_scalesim_layer(const ScaleSimConfig& cfg, const Layer& layer);

}  // namespace sim::systolic
