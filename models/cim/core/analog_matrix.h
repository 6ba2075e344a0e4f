// SPDX-License-Identifier: MIT
// A signed integer weight matrix (K x N) programmed onto as many crossbars as it needs: K in
// chunks of `rows` word lines, N in chunks of the weights whose slice columns fit a crossbar.
// multiply() runs an unsigned integer input vector bit-serially through the DACs (dac_bits
// per read cycle), reads every crossbar each cycle, and recombines the ADC outputs by
// shift-and-add over input chunks and cell slices, then across crossbars (partial sums).
// With flip_columns, a column whose levels add up to more than half the range is stored
// complemented and its sum recovered digitally (ISAAC).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "models/cim/core/cim_config.h"
#include "models/cim/core/crossbar_array.h"
#include "models/cim/core/weight_encoding.h"

namespace sim::cim {

class AnalogMatrix {
  public:
    /// weights: k x n, row-major, each |w| <= 2^(weight_bits-1) - 1. The seed fixes every
    /// device draw. Throws InvalidParam on an invalid cfg, std::invalid_argument on a bad
    /// shape or weight.
    AnalogMatrix(const CimConfig& cfg,
                 uint32_t k,
                 uint32_t n,
                 const std::vector<int64_t>& weights,
                 uint64_t seed);

    /// y[j] ~ sum_i weights[i][j] x[i] for x[i] in [0, 2^input_bits). y is resized to n.
    void multiply(const std::vector<uint64_t>& x, std::vector<double>& y) const;

    uint32_t k() const { return k_; }
    uint32_t n() const { return n_; }
    size_t crossbar_count() const { return crossbars_.size(); }
    const WeightLayout& layout() const { return layout_; }

  private:
    struct Placed {
        uint32_t row_begin;         // first input row
        uint32_t weight_begin;      // first output column (weight index)
        uint32_t weights;           // weights held
        std::vector<bool> flipped;  // per used column: holds complemented levels
        CrossbarArray array;
    };
    CrossbarConfig xb_;
    DataConfig data_;
    WeightLayout layout_;
    uint32_t k_;
    uint32_t n_;
    std::vector<Placed> crossbars_;
};

}  // namespace sim::cim
