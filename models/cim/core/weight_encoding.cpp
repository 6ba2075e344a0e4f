// SPDX-License-Identifier: MIT
#include "models/cim/core/weight_encoding.h"

namespace sim::cim {

WeightLayout weight_layout(const CrossbarConfig& xb, const DataConfig& data) {
    WeightLayout l;
    l.max_weight = (int64_t{1} << (data.weight_bits - 1)) - 1;
    const bool differential = xb.sign == SignEncoding::Differential;
    // A differential pair stores magnitudes (weight_bits - 1 bits); offset stores all bits.
    const uint32_t stored_bits = differential ? data.weight_bits - 1 : data.weight_bits;
    l.slices = (stored_bits + xb.cell_bits - 1) / xb.cell_bits;
    l.columns_per_weight = differential ? 2 * l.slices : l.slices;
    l.offset = differential ? 0 : int64_t{1} << (data.weight_bits - 1);
    l.weights_per_crossbar = xb.columns / l.columns_per_weight;
    if (l.weights_per_crossbar == 0) {
        throw InvalidParam("crossbar.columns",
                           "= " + std::to_string(xb.columns) + " cannot hold one weight of " +
                               std::to_string(data.weight_bits) + " bits (" +
                               std::to_string(l.columns_per_weight) + " columns)");
    }
    return l;
}

uint32_t slice_level(const WeightLayout& layout,
                     const CrossbarConfig& xb,
                     int64_t w,
                     uint32_t polarity,
                     uint32_t s) {
    uint64_t stored = 0;
    if (layout.offset != 0) {
        stored = static_cast<uint64_t>(w + layout.offset);
    } else if (polarity == 0) {
        stored = w > 0 ? static_cast<uint64_t>(w) : 0;
    } else {
        stored = w < 0 ? static_cast<uint64_t>(-w) : 0;
    }
    return static_cast<uint32_t>((stored >> (s * xb.cell_bits)) & xb.levels());
}

}  // namespace sim::cim
