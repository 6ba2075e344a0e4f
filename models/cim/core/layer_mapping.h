// SPDX-License-Identifier: MIT
// Mapping a GEMM layer (M x K x N: M input vectors of K, N outputs; a convolution lowered by
// im2col has M = output pixels x batch, K = kernel_h x kernel_w x in_channels, N = out
// channels) onto weight-stationary crossbars: K in chunks of `rows`, N in chunks of the
// weights whose slice columns fit one crossbar. Crossbars group into IMAs and tiles. A layer
// larger than the chip runs in passes, each reprogramming the crossbars; a small layer is
// replicated over spare crossbars so several input vectors run at once (ISAAC does this to
// balance its pipeline).
#pragma once

#include <cstdint>

#include "models/cim/core/cim_config.h"
#include "models/cim/core/weight_encoding.h"

namespace sim::cim {

struct GemmShape {
    uint64_t m = 0;  ///< input vectors
    uint64_t k = 0;  ///< reduction length (crossbar rows)
    uint64_t n = 0;  ///< outputs (weights per input)
};

/// im2col: a convolution as a GEMM. Throws std::invalid_argument on a kernel larger than the
/// padded input or a zero stride.
GemmShape conv_as_gemm(uint64_t batch,
                       uint64_t in_channels,
                       uint64_t height,
                       uint64_t width,
                       uint64_t out_channels,
                       uint64_t kernel,
                       uint64_t stride,
                       uint64_t padding);

struct LayerMapping {
    WeightLayout layout;
    uint64_t row_chunks = 0;       ///< crossbars along K
    uint64_t column_chunks = 0;    ///< crossbars along N
    uint64_t crossbars = 0;        ///< one copy of the weights
    uint64_t used_cells = 0;       ///< K x N x columns per weight
    uint64_t allocated_cells = 0;  ///< crossbars x rows x columns
    double utilisation = 0;        ///< used / allocated cells
    uint64_t passes = 1;           ///< weight loads when the layer is larger than the chip
    uint64_t replicas = 1;         ///< copies of the weights working on different vectors
    uint64_t imas_used = 0;
    uint64_t tiles_used = 0;
    uint64_t max_columns_per_crossbar = 0;  ///< used columns of the fullest crossbar
};

/// Throws std::invalid_argument on a zero dimension or a layer too large to count in 64 bits.
LayerMapping map_gemm(const CimConfig& cfg, const GemmShape& g);

/// Event counts and time of one layer. Times are computed from counts, not by stepping cells:
/// each input vector takes ceil(input_bits / dac_bits) read cycles; a cycle lasts the longer of
/// the crossbar read time and the ADC conversions of the busiest ADC (used columns / ADCs, each
/// 1 / sample rate). Crossbars and tiles work in parallel and are pipelined, so the layer takes
/// the longest of compute, buffer traffic and network traffic.
struct LayerTiming {
    uint64_t cycles_per_vector = 0;   ///< DAC read cycles per input vector
    double cycle_time_s = 0;          ///< one read cycle
    double adc_time_per_cycle_s = 0;  ///< conversions of the busiest ADC in one cycle
    uint64_t vector_rounds = 0;       ///< sequential input vectors per pass (M / replicas)
    double compute_time_s = 0;
    double buffer_bytes = 0;  ///< inputs read, outputs and partial sums written, all tiles
    double buffer_time_s = 0;
    double network_bytes = 0;  ///< activations in and out of the tiles, cross-tile partial sums
    double network_time_s = 0;
    double reprogram_time_s = 0;  ///< weight loads between passes (0 when the layer fits)
    double time_s = 0;
    const char* bound = "";  ///< adc, crossbar_read, buffer or network
    double ops = 0;          ///< 2 M K N
    // Events, all passes and replicas:
    double adc_conversions = 0;
    double dac_conversions = 0;
    double cell_reads = 0;
    double shift_adds = 0;  ///< one per ADC output
};

LayerTiming time_gemm(const CimConfig& cfg, const GemmShape& g, const LayerMapping& map);

/// Programming one copy of a layer's weights by write-verify.
struct ProgrammingCost {
    double cells = 0;
    double pulses = 0;  ///< write pulses (each followed by a verify read)
    double time_s = 0;  ///< crossbars in parallel, cells_per_write cells at a time
    double energy_j = 0;
    double reprograms_to_wearout = 0;  ///< full rewrites before the endurance is used up
};

ProgrammingCost program_gemm(const CimConfig& cfg, const LayerMapping& map);

}  // namespace sim::cim
