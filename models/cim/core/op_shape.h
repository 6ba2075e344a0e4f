// SPDX-License-Identifier: MIT
// The GEMM a trace operator puts on the crossbars: a gemm as it is, a conv2d lowered by im2col
// (M = batch x output pixels, K = kernel_h x kernel_w x in_channels, N = out_channels).
#pragma once

#include "models/cim/core/layer_mapping.h"
#include "sim/trace/op.h"

namespace sim::cim {

/// Throws std::invalid_argument, saying why, for other kinds, batched GEMMs (both operands are
/// activations: the "weights" would change every batch) and grouped convolutions.
GemmShape gemm_shape_of(const Op& op);

}  // namespace sim::cim
