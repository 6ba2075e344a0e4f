// SPDX-License-Identifier: MIT
#include "models/systolic/core/tpu_pipeline.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "sim/core/error.h"

namespace sim::systolic {

namespace {

uint64_t ceil_div(uint64_t a, uint64_t b) {
    return (a + b - 1) / b;
}

}  // namespace

void TpuParams::validate() const {
    const auto fail = [](const char* key, const std::string& what) {
        throw ConfigError({}, key, what);
    };
    if (weight_fifo_tiles < 1) fail("weight_fifo_tiles", "must be >= 1");
    if (accumulator_rows < 2) fail("accumulator_rows", "must be >= 2 (two halves)");
    if (vector_width < 1) fail("vector_width", "must be >= 1");
    if (!(host_bytes_per_cycle >= 0) || !std::isfinite(host_bytes_per_cycle))
        fail("host_bandwidth", "must be >= 0");
    if (enabled && !(host_bytes_per_cycle > 0)) fail("host_bandwidth", "must be > 0");
}

TpuTiming tpu_matrix_layer(const ArrayParams& a, const TpuParams& t, const Layer& layer) {
    layer.validate();
    const uint64_t R = a.rows, C = a.cols;
    const uint64_t M = layer.m(), K = layer.k(), N = layer.n();
    const uint64_t pass_rows = t.accumulator_rows / 2;
    const uint64_t passes = ceil_div(M, pass_rows);
    const uint64_t row_folds = ceil_div(K, R), col_folds = ceil_div(N, C);
    const uint64_t tile_bytes = R * C * a.word_bytes;
    const double bw = a.dram_bytes_per_cycle;
    const uint64_t fetch = bw > 0 ? static_cast<uint64_t>(std::ceil(double(tile_bytes) / bw)) : 0;

    TpuTiming out;
    out.macs = layer.macs();
    // When each of the last weight_fifo_tiles tiles started shifting out of the FIFO.
    std::vector<uint64_t> left_fifo(t.weight_fifo_tiles, 0);
    uint64_t fetch_end = 0, shift_end = 0, compute_start = 0, compute_end = 0;
    uint64_t j = 0, last_rows = 0, last_cols = 0;
    for (uint64_t p = 0; p < passes; ++p) {
        const uint64_t rows = std::min(pass_rows, M - p * pass_rows);
        for (uint64_t fc = 0; fc < col_folds; ++fc) {
            const uint64_t cu = std::min(C, N - fc * C);
            for (uint64_t fr = 0; fr < row_folds; ++fr, ++j) {
                const uint64_t ru = std::min(R, K - fr * R);
                uint64_t& slot = left_fifo[j % t.weight_fifo_tiles];
                const uint64_t slot_free = j >= t.weight_fifo_tiles ? slot : 0;
                fetch_end = std::max(fetch_end, slot_free) + fetch;
                // The second weight register is free once the previous tile computes.
                const uint64_t shift_start =
                    std::max({fetch_end, shift_end, j > 0 ? compute_start : 0});
                slot = shift_start;
                shift_end = shift_start + R;
                const uint64_t start = std::max(shift_end, compute_end);
                const uint64_t gap = start - compute_end;
                const uint64_t stall =
                    std::min(gap, fetch_end > compute_end ? fetch_end - compute_end : 0);
                out.weight_stall_cycles += stall;
                out.weight_shift_cycles += gap - stall;
                compute_start = start;
                compute_end = start + rows;
                out.active_cycles += rows;
                out.useful_mac_cycles += double(rows) * double(ru * cu) / double(R * C);
                last_rows = rows;
                last_cols = cu;
            }
        }
    }
    out.tiles = j;
    out.weight_bytes = j * tile_bytes;
    // The last results cross the array, then the activation unit moves the last output block
    // to the Unified Buffer; the next layer reads them, so none of this overlaps.
    out.non_matrix_cycles = (R + C - 2) + ceil_div(last_rows * last_cols, t.vector_width);
    out.cycles = compute_end + out.non_matrix_cycles;
    return out;
}

TpuTiming tpu_vector_layer(const TpuParams& t, uint64_t elements) {
    TpuTiming out;
    out.non_matrix_cycles = ceil_div(elements, t.vector_width);
    out.cycles = out.non_matrix_cycles;
    return out;
}

TpuTiming tpu_host_transfer(const TpuParams& t, uint64_t bytes) {
    SIM_ASSERT(t.host_bytes_per_cycle > 0, "a host link to transfer over");
    TpuTiming out;
    out.non_matrix_cycles =
        static_cast<uint64_t>(std::ceil(double(bytes) / t.host_bytes_per_cycle));
    out.cycles = out.non_matrix_cycles;
    return out;
}

}  // namespace sim::systolic
