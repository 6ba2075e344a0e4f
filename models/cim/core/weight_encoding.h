// SPDX-License-Identifier: MIT
// How a signed integer weight becomes cell levels: its magnitude (differential) or its biased
// value (offset) is cut into slices of cell_bits, least significant slice first, each slice
// in its own column. The outputs of a weight's columns are recombined by shift-and-add.
#pragma once

#include <cstdint>

#include "models/cim/core/cim_config.h"

namespace sim::cim {

struct WeightLayout {
    uint32_t slices = 0;                ///< cells per stored value
    uint32_t columns_per_weight = 0;    ///< slices, or 2 x slices for a differential pair
    uint32_t weights_per_crossbar = 0;  ///< whole weights in one crossbar's columns
    int64_t max_weight = 0;             ///< largest magnitude: 2^(weight_bits-1) - 1
    int64_t offset = 0;                 ///< bias added before storing (offset encoding), else 0
};

/// Throws InvalidParam when not even one weight fits in a crossbar's columns.
WeightLayout weight_layout(const CrossbarConfig& xb, const DataConfig& data);

/// Level of slice s of the value a column stores for weight w; polarity 0 is the positive
/// column (or the only one), 1 the negative column of a differential pair.
uint32_t slice_level(
    const WeightLayout& layout, const CrossbarConfig& xb, int64_t w, uint32_t polarity, uint32_t s);

}  // namespace sim::cim
