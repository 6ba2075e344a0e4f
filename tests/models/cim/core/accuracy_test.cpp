// SPDX-License-Identifier: MIT
// Error metrics and the float-vs-CIM MLP run.
#include "models/cim/core/accuracy.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "tests/models/cim/cim_test_config.h"

namespace sim::cim {
namespace {

TEST(ErrorStats, EffectiveBitsOfAUniformQuantiser) {
    // Quantising a ramp over [0, 1) to 6 bits gives an RMS error of 2^-6 / sqrt(12).
    std::vector<double> ref, q;
    for (int i = 0; i < 1 << 16; ++i) {
        const double v = (i + 0.5) / (1 << 16);
        ref.push_back(v);
        q.push_back((std::floor(v * 64) + 0.5) / 64);
    }
    const ErrorStats e = compare(ref, q);
    EXPECT_NEAR(e.effective_bits(), 6.0, 0.01);
    EXPECT_DOUBLE_EQ(compare(ref, ref).effective_bits(), ErrorStats::kExactBits);
}

// A random dense layer, weights uniform in [-1, 1].
DenseLayer random_layer(uint32_t inputs, uint32_t outputs, bool relu, std::mt19937_64& rng) {
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    DenseLayer l{inputs, outputs, {}, {}, relu};
    for (size_t i = 0; i < size_t{inputs} * outputs; ++i)
        l.weights.push_back(u(rng));
    for (uint32_t j = 0; j < outputs; ++j)
        l.bias.push_back(0.1 * u(rng));
    return l;
}

TEST(RunMlp, IdealChipOnlyCarriesTheQuantisationError) {
    CimConfig c = testing::small_config();
    std::mt19937_64 rng(5);
    const std::vector<DenseLayer> layers = {random_layer(64, 32, true, rng),
                                            random_layer(32, 8, false, rng)};
    Batch in{8, 64, {}};
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (int i = 0; i < 8 * 64; ++i)
        in.values.push_back(u(rng));
    const MlpAccuracy a = run_mlp(c, layers, in, 1);
    ASSERT_EQ(a.layers.size(), 2u);
    EXPECT_EQ(a.layers[0].input_passes, 2u);  // signed inputs
    EXPECT_EQ(a.layers[1].input_passes, 1u);  // after ReLU
    EXPECT_DOUBLE_EQ(a.layers[0].vs_integer.rms_error, 0.0);
    EXPECT_DOUBLE_EQ(a.layers[1].vs_integer.rms_error, 0.0);
    EXPECT_GT(a.layers[0].quantisation.rms_error, 0.0);
    // 8-bit operands: a handful of effective bits survive two layers.
    EXPECT_GT(a.end_to_end.effective_bits(), 5.0);
    EXPECT_LT(a.end_to_end.effective_bits(), 10.0);
    // Non-idealities make it worse, deterministically.
    c.nonideality.variation_sigma = 0.1;
    const MlpAccuracy noisy = run_mlp(c, layers, in, 1);
    EXPECT_GT(noisy.layers[0].vs_integer.rms_error, 0.0);
    EXPECT_GT(noisy.end_to_end.rms_error, a.end_to_end.rms_error);
    EXPECT_EQ(run_mlp(c, layers, in, 1).end_to_end.rms_error, noisy.end_to_end.rms_error);
    EXPECT_THROW(run_mlp(c, {layers[1]}, in, 1), std::invalid_argument);  // 64 inputs into 32
}

}  // namespace
}  // namespace sim::cim
