// SPDX-License-Identifier: MIT
#include "models/cim/core/layer_mapping.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace sim::cim {

namespace {

uint64_t ceil_div(uint64_t a, uint64_t b) {
    return (a + b - 1) / b;
}

}  // namespace

GemmShape conv_as_gemm(uint64_t batch,
                       uint64_t in_channels,
                       uint64_t height,
                       uint64_t width,
                       uint64_t out_channels,
                       uint64_t kernel,
                       uint64_t stride,
                       uint64_t padding) {
    if (stride == 0 || kernel == 0 || kernel > height + 2 * padding ||
        kernel > width + 2 * padding) {
        throw std::invalid_argument("conv_as_gemm: kernel larger than the padded input");
    }
    const uint64_t out_h = (height + 2 * padding - kernel) / stride + 1;
    const uint64_t out_w = (width + 2 * padding - kernel) / stride + 1;
    return {batch * out_h * out_w, kernel * kernel * in_channels, out_channels};
}

LayerMapping map_gemm(const CimConfig& cfg, const GemmShape& g) {
    if (g.m == 0 || g.k == 0 || g.n == 0) throw std::invalid_argument("map_gemm: zero dimension");
    // Keeps cell counts (K x N x columns per weight) well inside 64 bits.
    constexpr uint64_t kMostDimension = uint64_t{1} << 32;
    if (g.m > kMostDimension || g.k > kMostDimension || g.n > kMostDimension ||
        g.k * g.n > (uint64_t{1} << 52)) {
        throw std::invalid_argument("map_gemm: layer too large to map (K x N above 2^52)");
    }
    const CrossbarConfig& xb = cfg.crossbar;
    const OrganisationConfig& org = cfg.organisation;
    LayerMapping m;
    m.layout = weight_layout(xb, cfg.data);
    m.row_chunks = ceil_div(g.k, xb.rows);
    m.column_chunks = ceil_div(g.n, m.layout.weights_per_crossbar);
    m.crossbars = m.row_chunks * m.column_chunks;
    m.used_cells = g.k * g.n * m.layout.columns_per_weight;
    m.allocated_cells = m.crossbars * xb.rows * xb.columns;
    m.utilisation = double(m.used_cells) / double(m.allocated_cells);
    const uint64_t chip = org.crossbars();
    m.passes = ceil_div(m.crossbars, chip);
    m.replicas = m.passes == 1 ? std::min<uint64_t>(g.m, chip / m.crossbars) : 1;
    const uint64_t placed = std::min(chip, m.crossbars * m.replicas);
    m.imas_used = ceil_div(placed, org.crossbars_per_ima);
    m.tiles_used = ceil_div(m.imas_used, org.imas_per_tile);
    m.max_columns_per_crossbar =
        std::min<uint64_t>(g.n, m.layout.weights_per_crossbar) * m.layout.columns_per_weight;
    return m;
}

LayerTiming time_gemm(const CimConfig& cfg, const GemmShape& g, const LayerMapping& map) {
    const CrossbarConfig& xb = cfg.crossbar;
    const DataConfig& data = cfg.data;
    const OrganisationConfig& org = cfg.organisation;
    LayerTiming t;
    t.cycles_per_vector = ceil_div(data.input_bits, xb.dac_bits);
    // The used columns are spread over the crossbar's ADCs; the busiest converts the most.
    const uint64_t conversions = ceil_div(map.max_columns_per_crossbar, xb.adcs());
    t.adc_time_per_cycle_s = double(conversions) / xb.adc_sample_rate_hz;
    t.cycle_time_s = std::max(xb.read_time_s, t.adc_time_per_cycle_s);
    t.vector_rounds = ceil_div(g.m, map.replicas);
    t.compute_time_s =
        double(map.passes) * double(t.vector_rounds) * double(t.cycles_per_vector) * t.cycle_time_s;

    const double m = double(g.m), k = double(g.k), n = double(g.n);
    const double in_bytes = std::ceil(data.input_bits / 8.0);
    const double out_bytes = std::ceil(data.output_bits / 8.0);
    const double psum_bytes = std::ceil(data.partial_sum_bits / 8.0);
    // Each column chunk reads its own copy of the inputs; partial sums of the K chunks go to
    // the adders once per chunk beyond the first.
    const double inputs = m * k * in_bytes * double(map.column_chunks);
    const double outputs = m * n * out_bytes;
    const double psums = m * n * psum_bytes * double(map.row_chunks - 1);
    t.buffer_bytes = inputs + outputs + psums;
    t.buffer_time_s = t.buffer_bytes / (org.tile_buffer_bandwidth * double(map.tiles_used));
    // ASSUMPTION: the mapper keeps the K chunks of a column chunk within a tile when they fit;
    // only chunks spread over several tiles send partial sums over the network.
    const uint64_t per_tile = uint64_t{org.crossbars_per_ima} * org.imas_per_tile;
    const double tiles_per_column = double(ceil_div(map.row_chunks, per_tile));
    t.network_bytes = m * k * in_bytes + outputs + m * n * psum_bytes * (tiles_per_column - 1);
    t.network_time_s = t.network_bytes / (org.network_bandwidth * double(map.tiles_used));

    t.time_s = t.compute_time_s;
    t.bound = t.adc_time_per_cycle_s >= xb.read_time_s ? "adc" : "crossbar_read";
    if (t.buffer_time_s > t.time_s) {
        t.time_s = t.buffer_time_s;
        t.bound = "buffer";
    }
    if (t.network_time_s > t.time_s) {
        t.time_s = t.network_time_s;
        t.bound = "network";
    }
    if (map.passes > 1) {
        // Weights cannot stay resident: every pass writes its share of the crossbars.
        t.reprogram_time_s = program_gemm(cfg, map).time_s;
        t.time_s += t.reprogram_time_s;
    }
    t.ops = 2 * m * k * n;
    const double cycles = m * double(t.cycles_per_vector);
    const double columns = k > 0 ? double(map.used_cells) / k : 0;  // N x columns per weight
    t.adc_conversions = cycles * double(map.row_chunks) * columns;
    t.dac_conversions = cycles * k * double(map.column_chunks);
    t.cell_reads = cycles * double(map.used_cells);
    t.shift_adds = t.adc_conversions;
    return t;
}

ProgrammingCost program_gemm(const CimConfig& cfg, const LayerMapping& map) {
    const ProgrammingConfig& p = cfg.programming;
    const CrossbarConfig& xb = cfg.crossbar;
    ProgrammingCost c;
    c.cells = double(map.used_cells);
    c.pulses = c.cells * p.pulses_per_write;
    // All crossbars of a pass program in parallel, each cells_per_write cells at a time; the
    // fullest crossbar sets the time.
    const double fullest = double(
        std::min<uint64_t>(map.used_cells, uint64_t{xb.rows} * map.max_columns_per_crossbar));
    const double batches = std::ceil(fullest / p.cells_per_write);
    c.time_s =
        double(map.passes) * batches * p.pulses_per_write * (p.pulse_time_s + p.verify_time_s);
    c.energy_j = c.pulses * (p.pulse_energy_j + p.verify_energy_j);
    c.reprograms_to_wearout = p.endurance_cycles / p.pulses_per_write;
    return c;
}

}  // namespace sim::cim
