// SPDX-License-Identifier: MIT
// What bounds TPU v1 beyond its matrix unit (docs/references.md [jouppi2017], Sec. 2 and
// Table 3), tile by tile:
//  - the Weight FIFO: weights stream from DRAM one 256 x 256 tile at a time, whole tiles (a
//    partial tile still moves 64 KiB: "9 steps to tile 600x600, 18 us"), at most
//    `weight_fifo_tiles` ahead of the array;
//  - weight shifting: a tile takes R cycles to shift into the array's second weight register,
//    which is possible only once the previous tile has started computing (double buffering);
//  - the accumulators: a pass holds `accumulator_rows / 2` output rows (the other half is the
//    double buffer), so a layer with more rows streams every weight tile once per pass;
//  - the matrix unit: a tile multiplies the pass's rows, one row per cycle, pipelined across
//    tiles; at the end of a layer its results trail by R + C - 2 cycles;
//  - the activation unit: `vector_width` results per cycle from the accumulators to the
//    Unified Buffer, overlapped with the matrix unit except for the layer's last pass, which
//    the next layer must wait for (the paper's "delay slot"); vector layers (LSTM gates) and
//    pooling run on it alone;
//  - the host: inputs and outputs cross PCIe at `host_bandwidth` while the array waits.
// Cycles are array cycles. Pure C++; no SystemC.
#pragma once

#include <cstdint>

#include "models/systolic/core/array_params.h"
#include "models/systolic/core/layer.h"

namespace sim::systolic {

struct TpuParams {
    bool enabled = false;              ///< use this pipeline for matrix operators
    uint32_t weight_fifo_tiles = 4;    ///< tiles the Weight FIFO holds, >= 1
    uint64_t accumulator_rows = 4096;  ///< 256-wide accumulator rows, >= 2 (halves)
    uint32_t vector_width = 256;       ///< activation-unit results per cycle, >= 1
    double host_bandwidth = 0;         ///< PCIe, B/s, as the file gives it
    double host_bytes_per_cycle = 0;   ///< the same per array cycle; > 0 when enabled
    /// Throws ConfigError (key = field) when out of range.
    void validate() const;
};

/// Where a TPU layer's cycles went, Table 3's rows.
struct TpuTiming {
    uint64_t cycles = 0;               ///< the layer, start to last result in the Unified Buffer
    uint64_t active_cycles = 0;        ///< matrix unit multiplying (row 1)
    uint64_t weight_stall_cycles = 0;  ///< waiting for a tile from DRAM (row 4)
    uint64_t weight_shift_cycles = 0;  ///< waiting for a tile to shift in (row 5)
    uint64_t non_matrix_cycles = 0;    ///< the rest: drain, activation, vector, host (row 6)
    double useful_mac_cycles = 0;      ///< active cycles x used fraction of the R x C MACs
    uint64_t macs = 0;                 ///< useful multiply-accumulates
    uint64_t weight_bytes = 0;         ///< moved from DRAM, whole tiles
    uint64_t tiles = 0;                ///< weight tiles streamed (passes x folds)
};

/// A gemm or convolution layer on the matrix unit.
TpuTiming tpu_matrix_layer(const ArrayParams& a, const TpuParams& t, const Layer& layer);
/// A vector layer (elementwise or pooling) of `elements` inputs on the activation unit.
TpuTiming tpu_vector_layer(const TpuParams& t, uint64_t elements);
/// Moving `bytes` between host memory and the Unified Buffer over PCIe.
TpuTiming tpu_host_transfer(const TpuParams& t, uint64_t bytes);

}  // namespace sim::systolic
