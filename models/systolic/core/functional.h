// SPDX-License-Identifier: MIT
// Functional mode: moves actual integer values through the R x C PE grid cycle by cycle in the
// chosen dataflow, folds included, and returns the product and the cycles it took. For small
// problems (teaching, and checking the closed-form timing of fold_timing.h): it steps every PE
// every cycle, which the timing mode never does.
//   ws: weights shift in from the top edge one row per cycle (R cycles), then input row t
//       enters array row i at cycle t + i from the left edge and moves right one PE per cycle;
//       partial sums move down one PE per cycle and leave the bottom edge.
//   os: A enters row i from the left at cycle k + i, B enters column j from the top at cycle
//       k + j; each PE accumulates its own output. Outputs are read as each PE finishes (the
//       drain overlaps the wavefront, as SCALE-Sim assumes).
//   is: ws on the transposed problem C^T = B^T A^T: the ifmap tile is stationary.
#pragma once

#include <cstdint>
#include <ostream>
#include <vector>

#include "models/systolic/core/array_params.h"

namespace sim::systolic {

/// Row-major integer matrix.
struct IntMatrix {
    uint64_t rows = 0, cols = 0;
    std::vector<int64_t> v;
    IntMatrix() = default;
    IntMatrix(uint64_t r, uint64_t c) : rows(r), cols(c), v(r * c, 0) {}
    int64_t& at(uint64_t r, uint64_t c) { return v[r * cols + c]; }
    int64_t at(uint64_t r, uint64_t c) const { return v[r * cols + c]; }
    bool operator==(const IntMatrix& o) const {
        return rows == o.rows && cols == o.cols && v == o.v;
    }
};

/// Plain triple loop: the reference the dataflows are checked against.
IntMatrix reference_gemm(const IntMatrix& a, const IntMatrix& b);

struct FunctionalResult {
    IntMatrix c;          ///< the product, M x N
    uint64_t cycles = 0;  ///< cycles counted while stepping the grid (all folds)
    uint64_t folds = 0;
};

/// Largest problem side functional mode accepts (it steps every PE every cycle).
constexpr uint64_t kFunctionalMaxSide = 256;

/// Computes a (M x K) times b (K x N) on the array. wavefront: when not null, prints every
/// cycle's grid (which input index each PE works on). Throws ConfigError when a side exceeds
/// kFunctionalMaxSide or the shapes do not match.
FunctionalResult run_functional(const ArrayParams& p,
                                const IntMatrix& a,
                                const IntMatrix& b,
                                std::ostream* wavefront = nullptr);

}  // namespace sim::systolic
