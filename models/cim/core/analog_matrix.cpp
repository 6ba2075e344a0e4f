// SPDX-License-Identifier: MIT
#include "models/cim/core/analog_matrix.h"

#include <random>
#include <stdexcept>

namespace sim::cim {

AnalogMatrix::AnalogMatrix(const CimConfig& cfg,
                           uint32_t k,
                           uint32_t n,
                           const std::vector<int64_t>& weights,
                           uint64_t seed)
    : xb_(cfg.crossbar),
      data_(cfg.data),
      layout_(weight_layout(cfg.crossbar, cfg.data)),
      k_(k),
      n_(n) {
    cfg.validate();
    if (k == 0 || n == 0 || weights.size() != size_t{k} * n)
        throw std::invalid_argument("AnalogMatrix: weights are not k x n");
    for (int64_t w : weights) {
        if (w > layout_.max_weight || w < -layout_.max_weight)
            throw std::invalid_argument("AnalogMatrix: weight outside the signed range");
    }
    std::mt19937_64 rng(seed);
    const uint32_t per = layout_.weights_per_crossbar;
    const uint32_t polarities = layout_.offset != 0 ? 1 : 2;
    for (uint32_t r0 = 0; r0 < k; r0 += xb_.rows) {
        const uint32_t rows = std::min(xb_.rows, k - r0);
        for (uint32_t n0 = 0; n0 < n; n0 += per) {
            const uint32_t held = std::min(per, n - n0);
            const uint32_t cols = held * layout_.columns_per_weight;
            std::vector<uint32_t> levels(size_t{rows} * cols);
            for (uint32_t i = 0; i < rows; ++i) {
                for (uint32_t w = 0; w < held; ++w) {
                    const int64_t value = weights[size_t{r0 + i} * n + n0 + w];
                    for (uint32_t p = 0; p < polarities; ++p) {
                        for (uint32_t s = 0; s < layout_.slices; ++s) {
                            const uint32_t col =
                                w * layout_.columns_per_weight + p * layout_.slices + s;
                            levels[size_t{i} * cols + col] = slice_level(layout_, xb_, value, p, s);
                        }
                    }
                }
            }
            std::vector<bool> flipped(cols, false);
            if (xb_.flip_columns) {
                // The bound is over the crossbar's full height, as the ADC range is.
                const uint64_t half = uint64_t{xb_.rows} * xb_.levels() / 2;
                for (uint32_t j = 0; j < cols; ++j) {
                    uint64_t sum = 0;
                    for (uint32_t i = 0; i < rows; ++i)
                        sum += levels[size_t{i} * cols + j];
                    if (sum <= half) continue;
                    flipped[j] = true;
                    for (uint32_t i = 0; i < rows; ++i)
                        levels[size_t{i} * cols + j] = xb_.levels() - levels[size_t{i} * cols + j];
                }
            }
            crossbars_.push_back({r0, n0, held, std::move(flipped),
                                  CrossbarArray(xb_, cfg.nonideality, rows, cols, levels, rng)});
        }
    }
}

void AnalogMatrix::multiply(const std::vector<uint64_t>& x, std::vector<double>& y) const {
    if (x.size() != k_) throw std::invalid_argument("AnalogMatrix: input is not k long");
    const uint64_t limit = uint64_t{1} << data_.input_bits;
    double input_sum = 0;
    for (uint64_t v : x) {
        if (v >= limit) throw std::invalid_argument("AnalogMatrix: input above input_bits");
        input_sum += static_cast<double>(v);
    }
    y.assign(n_, 0.0);
    const uint32_t cycles = (data_.input_bits + xb_.dac_bits - 1) / xb_.dac_bits;
    const uint32_t polarities = layout_.offset != 0 ? 1 : 2;
    std::vector<uint32_t> codes;
    std::vector<double> out;
    for (const Placed& p : crossbars_) {
        const uint32_t rows = p.array.used_rows();
        codes.resize(rows);
        out.resize(p.array.used_columns());
        for (uint32_t c = 0; c < cycles; ++c) {
            bool any = false;
            for (uint32_t i = 0; i < rows; ++i) {
                codes[i] = static_cast<uint32_t>((x[p.row_begin + i] >> (c * xb_.dac_bits)) &
                                                 xb_.dac_max());
                any = any || codes[i] != 0;
            }
            // A cycle of all-zero inputs draws no current: every ADC reads code 0.
            if (!any) continue;
            p.array.read(codes.data(), out.data());
            if (xb_.flip_columns) {
                double code_sum = 0;
                for (uint32_t i = 0; i < rows; ++i)
                    code_sum += codes[i];
                for (size_t j = 0; j < out.size(); ++j) {
                    if (p.flipped[j]) out[j] = xb_.levels() * code_sum - out[j];
                }
            }
            const double input_weight = std::ldexp(1.0, static_cast<int>(c * xb_.dac_bits));
            for (uint32_t w = 0; w < p.weights; ++w) {
                double sum = 0;
                for (uint32_t s = 0; s < layout_.slices; ++s) {
                    const double slice_weight =
                        std::ldexp(1.0, static_cast<int>(s * xb_.cell_bits));
                    const size_t col = size_t{w} * layout_.columns_per_weight + s;
                    double v = out[col];
                    if (polarities == 2) v -= out[col + layout_.slices];
                    sum += slice_weight * v;
                }
                y[p.weight_begin + w] += input_weight * sum;
            }
        }
    }
    if (layout_.offset != 0) {
        for (double& v : y)
            v -= static_cast<double>(layout_.offset) * input_sum;
    }
}

}  // namespace sim::cim
