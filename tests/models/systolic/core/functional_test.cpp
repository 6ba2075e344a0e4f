// SPDX-License-Identifier: MIT
// Functional mode: real values through the PE grid equal a reference GEMM for several shapes
// and all three dataflows, and the cycles counted while stepping equal the closed form.
#include "models/systolic/core/functional.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>
#include <sstream>
#include <tuple>

#include "models/systolic/core/fold_timing.h"
#include "sim/core/error.h"

namespace sim::systolic {
namespace {

IntMatrix random_matrix(uint64_t r, uint64_t c, std::mt19937_64& rng) {
    IntMatrix m(r, c);
    std::uniform_int_distribution<int> d(-128, 127);
    for (auto& x : m.v)
        x = d(rng);
    return m;
}

class Functional
    : public ::testing::TestWithParam<
          std::tuple<Dataflow, uint32_t, uint32_t, uint64_t, uint64_t, uint64_t, bool>> {};

TEST_P(Functional, EqualsReferenceGemmAndClosedFormCycles) {
    const auto [df, r, c, m, n, k, overlap] = GetParam();
    ArrayParams p;
    p.rows = r;
    p.cols = c;
    p.dataflow = df;
    p.preload_overlap = overlap;
    std::mt19937_64 rng(m * 1000003 + n * 1009 + k);
    const IntMatrix a = random_matrix(m, k, rng);
    const IntMatrix b = random_matrix(k, n, rng);
    const FunctionalResult f = run_functional(p, a, b);
    EXPECT_EQ(f.c, reference_gemm(a, b));
    const LayerTiming t = time_layer(p, Layer::gemm("g", m, n, k));
    EXPECT_EQ(f.folds, t.folds);
    EXPECT_EQ(f.cycles, t.compute_cycles);
}

INSTANTIATE_TEST_SUITE_P(Shapes,
                         Functional,
                         ::testing::Values(
                             // one fold, the hand-worked 4x4 cases of fold_timing_test.cpp
                             std::tuple{Dataflow::WeightStationary, 4u, 4u, 5u, 4u, 4u, false},
                             std::tuple{Dataflow::OutputStationary, 4u, 4u, 4u, 4u, 5u, false},
                             std::tuple{Dataflow::InputStationary, 4u, 4u, 4u, 3u, 4u, false},
                             // folds in both directions, ragged edges, non-square arrays
                             std::tuple{Dataflow::WeightStationary, 4u, 4u, 3u, 5u, 6u, false},
                             std::tuple{Dataflow::WeightStationary, 4u, 4u, 3u, 5u, 6u, true},
                             std::tuple{Dataflow::WeightStationary, 8u, 4u, 17u, 9u, 23u, false},
                             std::tuple{Dataflow::OutputStationary, 8u, 4u, 17u, 9u, 23u, false},
                             std::tuple{Dataflow::InputStationary, 8u, 4u, 17u, 9u, 23u, false},
                             std::tuple{Dataflow::InputStationary, 4u, 8u, 17u, 9u, 23u, true},
                             // a 64x64 problem on a 16x16 array, and a single PE
                             std::tuple{Dataflow::WeightStationary, 16u, 16u, 64u, 64u, 64u, false},
                             std::tuple{Dataflow::OutputStationary, 16u, 16u, 64u, 64u, 64u, false},
                             std::tuple{Dataflow::InputStationary, 16u, 16u, 64u, 64u, 64u, false},
                             std::tuple{Dataflow::WeightStationary, 1u, 1u, 3u, 2u, 5u, false},
                             std::tuple{Dataflow::OutputStationary, 1u, 1u, 3u, 2u, 5u, false}));

TEST(FunctionalWavefront, PrintsEveryCycle) {
    // 2x2 ws, A 2x2 times B 2x2: 2 preload cycles + 2 + 2 + 2 - 2 = 6 cycles, 6 headers.
    ArrayParams p;
    p.rows = p.cols = 2;
    IntMatrix a(2, 2), b(2, 2);
    a.v = {1, 2, 3, 4};
    b.v = {5, 6, 7, 8};
    std::ostringstream os;
    const FunctionalResult f = run_functional(p, a, b, &os);
    EXPECT_EQ(f.c.v, (std::vector<int64_t>{19, 22, 43, 50}));
    EXPECT_EQ(f.cycles, 6u);
    const std::string s = os.str();
    EXPECT_NE(s.find("cycle 0 (preload"), std::string::npos);
    EXPECT_NE(s.find("cycle 5 (stream"), std::string::npos);
    EXPECT_EQ(s.find("cycle 6 "), std::string::npos);
}

TEST(FunctionalLimits, RejectsLargeProblemsAndMismatchedShapes) {
    ArrayParams p;
    EXPECT_THROW(run_functional(p, IntMatrix(300, 2), IntMatrix(2, 2)), ConfigError);
    EXPECT_THROW(run_functional(p, IntMatrix(2, 3), IntMatrix(2, 2)), ConfigError);
}

}  // namespace
}  // namespace sim::systolic
