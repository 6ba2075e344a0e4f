// SPDX-License-Identifier: MIT
// A small CIM configuration for tests: 32 x 32 crossbars, 2-bit cells, 1-bit DACs, 8-bit
// weights and inputs, an ADC that resolves every column sum, an ideal device.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "models/cim/core/cim_config.h"

namespace sim::cim::testing {

inline CimConfig small_config() {
    CimConfig c;
    c.name = "test";
    c.crossbar.rows = 32;
    c.crossbar.columns = 32;
    c.crossbar.cell_bits = 2;
    c.crossbar.dac_bits = 1;
    c.crossbar.adc_bits = 7;  // 32 x 3 x 1 = 96 < 128
    c.crossbar.columns_per_adc = 8;
    c.crossbar.adc_sample_rate_hz = 1.28e9;
    c.crossbar.read_time_s = 100e-9;
    c.crossbar.sign = SignEncoding::Differential;
    c.data.weight_bits = 8;
    c.data.input_bits = 8;
    c.data.output_bits = 8;
    c.data.partial_sum_bits = 16;
    c.organisation.crossbars_per_ima = 4;
    c.organisation.imas_per_tile = 1;
    c.organisation.tiles = 1;
    c.organisation.tile_buffer_bandwidth = 1e10;
    c.organisation.network_bandwidth = 1e10;
    c.validate();
    return c;
}

/// Random signed weights within the weight range and unsigned inputs, from seed.
struct RandomOperands {
    std::vector<int64_t> weights;  // k x n
    std::vector<std::vector<uint64_t>> inputs;
    RandomOperands(const CimConfig& c, uint32_t m, uint32_t k, uint32_t n, uint64_t seed) {
        std::mt19937_64 rng(seed);
        const int64_t w_max = (int64_t{1} << (c.data.weight_bits - 1)) - 1;
        std::uniform_int_distribution<int64_t> w(-w_max, w_max);
        std::uniform_int_distribution<uint64_t> x(0, (uint64_t{1} << c.data.input_bits) - 1);
        weights.resize(size_t{k} * n);
        for (auto& v : weights)
            v = w(rng);
        inputs.resize(m, std::vector<uint64_t>(k));
        for (auto& row : inputs)
            for (auto& v : row)
                v = x(rng);
    }
};

/// The exact integer product x W.
inline std::vector<double> exact_product(const std::vector<int64_t>& w,
                                         const std::vector<uint64_t>& x,
                                         uint32_t n) {
    std::vector<double> y(n, 0.0);
    for (size_t i = 0; i < x.size(); ++i)
        for (uint32_t j = 0; j < n; ++j)
            y[j] += double(w[i * n + j]) * double(x[i]);
    return y;
}

}  // namespace sim::cim::testing
