// SPDX-License-Identifier: MIT
// Timing of one layer on the array in closed form per fold: no PE is stepped. A layer's
// operand matrices (layer.h) are mapped on the R x C array the way SCALE-Sim v2 maps them:
//   ws: Sr = K (window) on rows, Sc = N (filters) on columns, T = M (output pixels) in time;
//   os: Sr = M, Sc = N, T = K;        is: Sr = K, Sc = M, T = N.
// It is folded into ceil(Sr/R) x ceil(Sc/C) folds (column folds outer, row folds inner).
// Cycles of one fold (what SCALE-Sim's demand matrices add up to):
//   ws/is: R (preload the stationary tile, one row per cycle) + T (stream) + R-1 (input skew
//          across the rows) + C-1 (the last partial sum crosses the columns) = 2R + C + T - 2;
//          with preload_overlap only the first fold pays the R preload cycles.
//   os:    T (stream) + R-1 + C-1 (skew of both edges), outputs drained as PEs finish
//          = R + C + T - 2.
// Memory: SRAM reads/writes per operand are counted per fold (SCALE-Sim's counts). DRAM bytes
// follow from the buffer sizes: an operand that fits the working half of its buffer is fetched
// once, otherwise it is re-fetched for every fold that needs it; partial sums that do not fit
// the ofmap buffer are written out and read back per row fold. With double buffering the
// fetch of fold i+1 overlaps the compute of fold i and the write-back of fold i overlaps fold
// i+1; the array stalls when DRAM has not delivered (one DRAM channel, a fixed bandwidth).
// With a finite SRAM port width, a fold that needs more words from one buffer than its port
// delivers in the fold's cycles is stretched to the port's time.
#pragma once

#include <cstdint>
#include <string>

#include "models/systolic/core/array_params.h"
#include "models/systolic/core/layer.h"

namespace sim::systolic {

/// Where a layer sits on the array for a dataflow.
struct Mapping {
    uint64_t sr = 0;  ///< spatial extent mapped on the rows
    uint64_t sc = 0;  ///< spatial extent mapped on the columns
    uint64_t t = 0;   ///< temporal extent streamed through
};
Mapping map_layer(const Layer& layer, Dataflow df);

/// Cycles of one fold in isolation (fill + stream + drain), the closed form above.
uint64_t fold_cycles(const ArrayParams& p, const Mapping& m, bool pays_preload);

struct LayerTiming {
    Mapping map;
    uint64_t row_folds = 0, col_folds = 0, folds = 0;
    uint64_t macs = 0;               ///< useful multiply-accumulates M x N x K
    uint64_t compute_cycles = 0;     ///< sum of the folds' cycles, no memory stalls
    uint64_t stall_cycles = 0;       ///< cycles the array waited for DRAM or an SRAM port
    uint64_t sram_stall_cycles = 0;  ///< of which: folds stretched by a too-narrow SRAM port
    uint64_t total_cycles = 0;       ///< compute + stall
    double mapping_efficiency = 0;   ///< mean over folds of used PEs / R x C
    double compute_utilisation = 0;  ///< mean over folds of MACs / (R x C x fold cycles)
    double overall_utilisation = 0;  ///< MACs / (R x C x total cycles)
    // SRAM accesses by the array, words (SCALE-Sim's SRAM reads and writes).
    uint64_t ifmap_sram_reads = 0, filter_sram_reads = 0, ofmap_sram_writes = 0;
    // DRAM traffic, words: operand fetches, partial sums read back, outputs written.
    uint64_t ifmap_dram_reads = 0, filter_dram_reads = 0, ofmap_dram_reads = 0,
             ofmap_dram_writes = 0;
    uint64_t dram_bytes = 0;    ///< all DRAM traffic, bytes
    uint64_t dram_cycles = 0;   ///< DRAM busy time at its bandwidth, cycles (0 if unlimited)
    bool memory_bound = false;  ///< DRAM busy time exceeds the compute cycles
    double mac_energy = 0, sram_energy = 0, dram_energy = 0;  ///< J

    double seconds(double clock_hz) const { return double(total_cycles) / clock_hz; }
};

/// Times one layer; throws ConfigError on an invalid layer.
LayerTiming time_layer(const ArrayParams& p, const Layer& layer);

}  // namespace sim::systolic
