// SPDX-License-Identifier: MIT
// Operators built in code, for tests that time or charge them without a trace file.
#pragma once

#include <cstdint>

#include "sim/trace/op.h"

namespace sim::testing {

/// C[m,n] = A[m,k] × B[k,n] in dtype.
inline Op gemm(uint64_t m, uint64_t n, uint64_t k, DType dtype) {
    Op op;
    op.kind = OpKind::Gemm;
    op.dtype = dtype;
    GemmParams p;
    p.m = m;
    p.n = n;
    p.k = k;
    p.out_dtype = dtype;
    op.params = p;
    return op;
}

inline Op square_gemm(uint64_t n, DType dtype) {
    return gemm(n, n, n, dtype);
}

/// c = a + b over elements (two inputs, one output, one FLOP per element).
inline Op vector_add(uint64_t elements, DType dtype = DType::FP32) {
    Op op;
    op.kind = OpKind::Elementwise;
    op.dtype = dtype;
    ElementwiseParams p;
    p.elements = elements;
    op.params = p;
    return op;
}

}  // namespace sim::testing
