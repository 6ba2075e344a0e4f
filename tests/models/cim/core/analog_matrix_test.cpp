// SPDX-License-Identifier: MIT
// The functional crossbar MVM: exact on an ideal device with enough ADC bits, every
// non-ideality raising the error monotonically with its magnitude, and determinism.
#include "models/cim/core/analog_matrix.h"

#include <gtest/gtest.h>

#include <functional>

#include "models/cim/core/accuracy.h"
#include "tests/models/cim/cim_test_config.h"

namespace sim::cim {
namespace {

using testing::exact_product;
using testing::RandomOperands;
using testing::small_config;

// All outputs of an M x K x N product, CIM and exact.
struct Product {
    std::vector<double> cim, exact;
};

Product run(const CimConfig& c, uint32_t m, uint32_t k, uint32_t n, uint64_t seed) {
    const RandomOperands ops(c, m, k, n, seed);
    const AnalogMatrix matrix(c, k, n, ops.weights, seed + 1000);
    Product r;
    std::vector<double> y;
    for (const auto& x : ops.inputs) {
        matrix.multiply(x, y);
        const auto e = exact_product(ops.weights, x, n);
        r.cim.insert(r.cim.end(), y.begin(), y.end());
        r.exact.insert(r.exact.end(), e.begin(), e.end());
    }
    return r;
}

// Normalised RMS error against the exact product, averaged over a fixed set of seeds.
double mean_error(const CimConfig& c) {
    double sum = 0;
    const uint64_t seeds[] = {1, 2, 3, 4, 5};
    for (uint64_t s : seeds) {
        const Product r = run(c, 6, 64, 12, s);
        sum += compare(r.exact, r.cim).normalised_rms_error();
    }
    return sum / std::size(seeds);
}

TEST(AnalogMatrix, IdealDeviceWithEnoughAdcBitsIsExact) {
    struct Case {
        SignEncoding sign;
        bool flip;
        uint32_t cell_bits, dac_bits, adc_bits;
    };
    // ADC bits: ceil(log2(rows x (2^b - 1) x (2^d - 1) [/ 2 when flipped] + 1)) for 32 rows.
    const Case cases[] = {{SignEncoding::Differential, false, 2, 1, 7},
                          {SignEncoding::Offset, false, 2, 1, 7},
                          {SignEncoding::Offset, true, 2, 1, 6},
                          {SignEncoding::Differential, false, 1, 2, 7},
                          {SignEncoding::Differential, false, 4, 2, 11},
                          {SignEncoding::Offset, true, 3, 3, 10}};  // 32 x 7 x 7 / 2 = 784
    for (const Case& k : cases) {
        CimConfig c = small_config();
        c.crossbar.sign = k.sign;
        c.crossbar.flip_columns = k.flip;
        c.crossbar.cell_bits = k.cell_bits;
        c.crossbar.dac_bits = k.dac_bits;
        c.crossbar.adc_bits = k.adc_bits;
        c.crossbar.on_off_ratio = 20;           // the reference column removes G_off exactly
        const Product r = run(c, 4, 70, 9, 7);  // 70 rows: three row chunks, the last partial
        EXPECT_EQ(r.cim, r.exact) << "cell " << k.cell_bits << " dac " << k.dac_bits;
        // One ADC bit fewer loses information.
        c.crossbar.adc_bits = k.adc_bits - 1;
        EXPECT_NE(run(c, 4, 70, 9, 7).cim, r.exact) << "cell " << k.cell_bits;
    }
}

TEST(AnalogMatrix, FlippedColumnsSaveOneAdcBit) {
    CimConfig c = small_config();
    c.crossbar.sign = SignEncoding::Offset;
    c.crossbar.adc_bits = 6;
    EXPECT_GT(mean_error(c), 0);
    c.crossbar.flip_columns = true;
    EXPECT_EQ(mean_error(c), 0);
}

// Sets one non-ideality to each magnitude in turn; the error must rise at every step. An
// analogue error below half an ADC step is rounded away, so each sweep starts (after 0) at a
// magnitude that moves some column sums of this 32-row crossbar by half a level.
void expect_monotonic(const char* what,
                      const std::function<void(CimConfig&, double)>& set,
                      const std::vector<double>& magnitudes,
                      CimConfig base = small_config()) {
    double previous = -1;
    for (double v : magnitudes) {
        CimConfig c = base;
        set(c, v);
        c.validate();
        const double e = mean_error(c);
        EXPECT_GT(e, previous) << what << " = " << v;
        previous = e;
    }
}

TEST(AnalogMatrix, EachNonIdealityRaisesTheErrorWithItsMagnitude) {
    expect_monotonic("variation_sigma",
                     [](CimConfig& c, double v) { c.nonideality.variation_sigma = v; },
                     {0, 0.02, 0.05, 0.1, 0.2});
    expect_monotonic("write_noise_sigma",
                     [](CimConfig& c, double v) { c.nonideality.write_noise_sigma = v; },
                     {0, 0.1, 0.2, 0.4, 0.8});
    expect_monotonic("drift time",
                     [](CimConfig& c, double v) {
                         c.nonideality.drift_nu = 0.02;
                         c.nonideality.time_since_programming_s = v;
                     },
                     {1, 10, 1e3, 1e5, 1e7});
    expect_monotonic("drift_nu",
                     [](CimConfig& c, double v) {
                         c.nonideality.drift_nu = v;
                         c.nonideality.time_since_programming_s = 86400;
                     },
                     {0, 0.005, 0.01, 0.02, 0.05});
    expect_monotonic("wire_resistance_ohm",
                     [](CimConfig& c, double v) { c.nonideality.wire_resistance_ohm = v; },
                     {0, 4, 8, 16, 32});
    expect_monotonic("nonlinearity", [](CimConfig& c, double v) { c.nonideality.nonlinearity = v; },
                     {0, 0.4, 0.6, 0.8, 1.2});
    expect_monotonic("fewer ADC bits",
                     [](CimConfig& c, double v) { c.crossbar.adc_bits = uint32_t(v); },
                     {7, 6, 5, 4});
    // A lower on/off ratio matters through the variation of the off cells.
    CimConfig varied = small_config();
    varied.nonideality.variation_sigma = 0.05;
    expect_monotonic(
        "lower on_off_ratio", [](CimConfig& c, double v) { c.crossbar.on_off_ratio = v; },
        {1000, 100, 30, 10, 3}, varied);
}

TEST(AnalogMatrix, SameSeedGivesIdenticalResultsAndAnotherSeedDoesNot) {
    CimConfig c = small_config();
    c.nonideality.variation_sigma = 0.05;
    c.nonideality.write_noise_sigma = 0.1;
    const RandomOperands ops(c, 1, 64, 12, 3);
    std::vector<double> a, b, other;
    AnalogMatrix(c, 64, 12, ops.weights, 42).multiply(ops.inputs[0], a);
    AnalogMatrix(c, 64, 12, ops.weights, 42).multiply(ops.inputs[0], b);
    AnalogMatrix(c, 64, 12, ops.weights, 43).multiply(ops.inputs[0], other);
    EXPECT_EQ(a, b);
    EXPECT_NE(a, other);
}

TEST(AnalogMatrix, RejectsWeightsOutsideTheRangeAndBadShapes) {
    const CimConfig c = small_config();
    EXPECT_THROW(AnalogMatrix(c, 2, 1, {128, 0}, 1), std::invalid_argument);
    EXPECT_THROW(AnalogMatrix(c, 2, 2, {1, 0}, 1), std::invalid_argument);
    const AnalogMatrix m(c, 2, 1, {127, -127}, 1);
    std::vector<double> y;
    EXPECT_THROW(m.multiply({256, 0}, y), std::invalid_argument);
    m.multiply({255, 1}, y);
    EXPECT_EQ(y, std::vector<double>{127.0 * 255 - 127});
}

}  // namespace
}  // namespace sim::cim
