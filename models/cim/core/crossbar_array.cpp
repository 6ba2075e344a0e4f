// SPDX-License-Identifier: MIT
#include "models/cim/core/crossbar_array.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace sim::cim {

CrossbarArray::CrossbarArray(const CrossbarConfig& xb,
                             const NonidealityConfig& nonideality,
                             uint32_t used_rows,
                             uint32_t used_columns,
                             const std::vector<uint32_t>& levels,
                             std::mt19937_64& rng)
    : rows_(used_rows), columns_(used_columns) {
    if (used_rows == 0 || used_rows > xb.rows || used_columns == 0 || used_columns > xb.columns ||
        levels.size() != size_t{used_rows} * used_columns) {
        throw std::invalid_argument("CrossbarArray: used block does not fit the crossbar");
    }
    const double g_on = xb.on_conductance_us * 1e-6;
    const double g_off = g_on / xb.on_off_ratio;
    const double level_step = (g_on - g_off) / xb.levels();
    g_off_ref_ = g_off / level_step;
    const double drift =
        nonideality.time_since_programming_s > nonideality.drift_t0_s
            ? std::pow(nonideality.time_since_programming_s / nonideality.drift_t0_s,
                       -nonideality.drift_nu)
            : 1.0;
    std::normal_distribution<double> normal(0.0, 1.0);
    g_.assign(size_t{rows_} * columns_, 0.0);
    for (uint32_t i = 0; i < rows_; ++i) {
        for (uint32_t j = 0; j < columns_; ++j) {
            const uint32_t level = levels[size_t{i} * columns_ + j];
            if (level > xb.levels())
                throw std::invalid_argument("CrossbarArray: level above 2^cell_bits - 1");
            const double z_variation = normal(rng);
            const double z_write = normal(rng);
            double g = g_off + level * level_step;
            g *= std::exp(nonideality.variation_sigma * z_variation);
            g += nonideality.write_noise_sigma * z_write * level_step;
            g = std::max(g, 0.0) * drift;
            const double series = nonideality.wire_resistance_ohm * ((j + 1.0) + (xb.rows - i));
            g /= 1.0 + g * series;
            g_[size_t{j} * rows_ + i] = g / level_step;
        }
    }
    // drive_[c]: the cell current of input code c per unit conductance, in input steps
    // (V_r / dac_max); equal to c for an Ohmic cell.
    const double dac_max = xb.dac_max();
    drive_.resize(xb.dac_max() + 1);
    for (uint32_t c = 0; c <= xb.dac_max(); ++c) {
        const double v = c / dac_max;  // in units of V_read
        const double k = nonideality.nonlinearity;
        drive_[c] = (k > 0 ? std::sinh(k * v) / k : v) * dac_max;
    }
    const double largest_sum =
        xb.rows * double(xb.levels()) * xb.dac_max() / (xb.flip_columns ? 2.0 : 1.0);
    const double full_scale = xb.adc_full_scale * largest_sum;
    const int needed_bits = static_cast<int>(std::ceil(std::log2(full_scale + 1.0)));
    step_ = std::ldexp(1.0, std::max(0, needed_bits - static_cast<int>(xb.adc_bits)));
    max_code_ = std::ldexp(1.0, static_cast<int>(xb.adc_bits)) - 1;
    drive_row_.assign(rows_, 0.0);
}

void CrossbarArray::read(const uint32_t* codes, double* out) const {
    double reference = 0;
    for (uint32_t i = 0; i < rows_; ++i) {
        reference += codes[i];
        drive_row_[i] = drive_[codes[i]];
    }
    reference *= g_off_ref_;
    for (uint32_t j = 0; j < columns_; ++j) {
        const double* g = &g_[size_t{j} * rows_];
        // Four partial sums let the compiler keep several multiply-adds in flight.
        double acc[4] = {0, 0, 0, 0};
        uint32_t i = 0;
        for (; i + 4 <= rows_; i += 4) {
            acc[0] += g[i] * drive_row_[i];
            acc[1] += g[i + 1] * drive_row_[i + 1];
            acc[2] += g[i + 2] * drive_row_[i + 2];
            acc[3] += g[i + 3] * drive_row_[i + 3];
        }
        for (; i < rows_; ++i)
            acc[0] += g[i] * drive_row_[i];
        const double current = (acc[0] + acc[1]) + (acc[2] + acc[3]);
        // Summation leaves ~1e-15 of floating-point noise on an ideal integer sum. Snap it, so
        // that a sum exactly between two codes rounds to even (unbiased) instead of following
        // the sign of that noise, which would bias every conversion the same way.
        double sum = current - reference;
        const double nearest = std::nearbyint(sum);
        if (std::abs(sum - nearest) < 1e-9 * (1.0 + std::abs(nearest))) sum = nearest;
        const double code = std::nearbyint(sum / step_);
        out[j] = std::clamp(code, 0.0, max_code_) * step_;
    }
}

}  // namespace sim::cim
