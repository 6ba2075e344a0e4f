// SPDX-License-Identifier: MIT
// A wallsim trace operator as the systolic array sees it: gemm and conv2d lowered to a Layer,
// and an operator's cycles on TPU v1's pipeline (tpu_pipeline.h). Pure C++; no SystemC.
#pragma once

#include <cstdint>

#include "models/systolic/core/layer.h"
#include "models/systolic/core/tpu_pipeline.h"
#include "sim/trace/op.h"

namespace sim::systolic {

/// The layer an operator is on the array; batch is how many times it repeats (gemm batch).
struct OpLayer {
    Layer layer;
    uint64_t repeat = 1;
};
/// Lowers a gemm or conv2d operator (padding becomes part of the input; groups must be 1).
OpLayer layer_of(const Op& op);

/// An operator's cycles on TPU v1's pipeline: gemm and conv2d on the matrix unit (times their
/// batch), elementwise and reduction on the activation unit, h2d/d2h memcpy over the host link.
TpuTiming tpu_op_timing(const Op& op, const ArrayParams& a, const TpuParams& t);

}  // namespace sim::systolic
