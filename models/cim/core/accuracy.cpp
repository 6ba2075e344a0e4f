// SPDX-License-Identifier: MIT
#include "models/cim/core/accuracy.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

#include "models/cim/core/analog_matrix.h"

namespace sim::cim {

double ErrorStats::normalised_rms_error() const {
    return reference_rms > 0 ? rms_error / reference_rms : 0;
}

double ErrorStats::effective_bits() const {
    if (rms_error <= 0) return kExactBits;
    return std::min(kExactBits, std::log2(reference_range / (rms_error * std::sqrt(12.0))));
}

ErrorStats compare(const std::vector<double>& reference, const std::vector<double>& result) {
    if (reference.size() != result.size() || reference.empty())
        throw std::invalid_argument("compare: sizes differ or are empty");
    ErrorStats e;
    e.count = reference.size();
    double sq = 0, ref_sq = 0;
    double lo = reference[0], hi = reference[0];
    for (size_t i = 0; i < reference.size(); ++i) {
        const double d = result[i] - reference[i];
        sq += d * d;
        ref_sq += reference[i] * reference[i];
        e.max_abs_error = std::max(e.max_abs_error, std::abs(d));
        lo = std::min(lo, reference[i]);
        hi = std::max(hi, reference[i]);
    }
    e.rms_error = std::sqrt(sq / e.count);
    e.reference_rms = std::sqrt(ref_sq / e.count);
    e.reference_range = hi - lo;
    return e;
}

namespace {

struct LayerOutputs {
    std::vector<double> cim;      // pre-activation, batch x outputs
    std::vector<double> integer;  // exact product of the quantised operands, rescaled
    std::vector<double> exact;    // float product of the same (CIM-chain) input
    LayerAccuracy accuracy;
};

// Runs one layer on the CIM chain's input x (batch x inputs).
LayerOutputs run_layer(const CimConfig& cfg,
                       const DenseLayer& layer,
                       const std::vector<double>& x,
                       uint32_t batch,
                       uint64_t seed) {
    const int64_t max_weight = (int64_t{1} << (cfg.data.weight_bits - 1)) - 1;
    const double max_input = std::ldexp(1.0, static_cast<int>(cfg.data.input_bits)) - 1;
    double w_abs = 0, x_abs = 0;
    for (double w : layer.weights)
        w_abs = std::max(w_abs, std::abs(w));
    for (double v : x)
        x_abs = std::max(x_abs, std::abs(v));
    const double w_scale = w_abs > 0 ? w_abs / max_weight : 1.0;
    const double x_scale = x_abs > 0 ? x_abs / max_input : 1.0;
    std::vector<int64_t> qw(layer.weights.size());
    for (size_t i = 0; i < qw.size(); ++i)
        qw[i] = std::llround(layer.weights[i] / w_scale);
    const AnalogMatrix matrix(cfg, layer.inputs, layer.outputs, qw, seed);

    LayerOutputs o;
    o.accuracy.crossbars = matrix.crossbar_count();
    const bool signed_input = std::any_of(x.begin(), x.end(), [](double v) { return v < 0; });
    o.accuracy.input_passes = signed_input ? 2 : 1;
    const size_t outs = layer.outputs;
    o.cim.assign(size_t{batch} * outs, 0.0);
    o.integer.assign(size_t{batch} * outs, 0.0);
    o.exact.assign(size_t{batch} * outs, 0.0);
    std::vector<uint64_t> pos(layer.inputs), neg(layer.inputs);
    std::vector<double> y_pos, y_neg;
    for (uint32_t b = 0; b < batch; ++b) {
        const double* row = &x[size_t{b} * layer.inputs];
        for (uint32_t i = 0; i < layer.inputs; ++i) {
            const auto q = static_cast<int64_t>(std::llround(row[i] / x_scale));
            pos[i] = q > 0 ? static_cast<uint64_t>(q) : 0;
            neg[i] = q < 0 ? static_cast<uint64_t>(-q) : 0;
        }
        matrix.multiply(pos, y_pos);
        if (signed_input) matrix.multiply(neg, y_neg);
        for (uint32_t j = 0; j < layer.outputs; ++j) {
            double cim = y_pos[j] - (signed_input ? y_neg[j] : 0.0);
            double integer = 0, exact = 0;
            for (uint32_t i = 0; i < layer.inputs; ++i) {
                const double q = static_cast<double>(pos[i]) - static_cast<double>(neg[i]);
                integer += q * static_cast<double>(qw[size_t{i} * outs + j]);
                exact += row[i] * layer.weights[size_t{i} * outs + j];
            }
            const double bias = layer.bias.empty() ? 0.0 : layer.bias[j];
            o.cim[size_t{b} * outs + j] = cim * w_scale * x_scale + bias;
            o.integer[size_t{b} * outs + j] = integer * w_scale * x_scale + bias;
            o.exact[size_t{b} * outs + j] = exact + bias;
        }
    }
    o.accuracy.vs_integer = compare(o.integer, o.cim);
    o.accuracy.quantisation = compare(o.exact, o.integer);
    return o;
}

void check_layer(const DenseLayer& l, uint32_t inputs) {
    if (l.inputs != inputs || l.outputs == 0 || l.weights.size() != size_t{l.inputs} * l.outputs ||
        (!l.bias.empty() && l.bias.size() != l.outputs)) {
        throw std::invalid_argument("run_mlp: layer shapes do not chain");
    }
}

std::vector<double> float_layer(const DenseLayer& l, const std::vector<double>& x, uint32_t batch) {
    std::vector<double> y(size_t{batch} * l.outputs, 0.0);
    for (uint32_t b = 0; b < batch; ++b) {
        for (uint32_t j = 0; j < l.outputs; ++j) {
            double s = l.bias.empty() ? 0.0 : l.bias[j];
            for (uint32_t i = 0; i < l.inputs; ++i)
                s += x[size_t{b} * l.inputs + i] * l.weights[size_t{i} * l.outputs + j];
            y[size_t{b} * l.outputs + j] = s;
        }
    }
    return y;
}

void apply_activation(const DenseLayer& l, std::vector<double>& y) {
    if (!l.relu) return;
    for (double& v : y)
        v = std::max(v, 0.0);
}

}  // namespace

MlpAccuracy run_mlp(const CimConfig& cfg,
                    const std::vector<DenseLayer>& layers,
                    const Batch& input,
                    uint64_t seed) {
    if (layers.empty() || input.rows == 0 ||
        input.values.size() != size_t{input.rows} * input.columns) {
        throw std::invalid_argument("run_mlp: no layers or a malformed input batch");
    }
    MlpAccuracy result;
    std::vector<double> cim_x = input.values;
    std::vector<double> float_x = input.values;
    uint32_t width = input.columns;
    for (size_t l = 0; l < layers.size(); ++l) {
        const DenseLayer& layer = layers[l];
        check_layer(layer, width);
        LayerOutputs o = run_layer(cfg, layer, cim_x, input.rows, seed + l);
        std::vector<double> float_y = float_layer(layer, float_x, input.rows);
        // The layer's error against the float network: what a user of the chip sees there.
        o.accuracy.vs_float = compare(float_y, o.cim);
        result.layers.push_back(o.accuracy);
        apply_activation(layer, o.cim);
        apply_activation(layer, float_y);
        cim_x = std::move(o.cim);
        float_x = std::move(float_y);
        width = layer.outputs;
    }
    result.end_to_end = compare(float_x, cim_x);
    return result;
}

LayerAccuracy random_gemm_accuracy(
    const CimConfig& cfg, uint32_t m, uint32_t k, uint32_t n, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> weight(-1.0, 1.0), input(0.0, 1.0);
    DenseLayer layer;
    layer.inputs = k;
    layer.outputs = n;
    layer.weights.resize(size_t{k} * n);
    for (double& w : layer.weights)
        w = weight(rng);
    std::vector<double> x(size_t{m} * k);
    for (double& v : x)
        v = input(rng);
    LayerOutputs o = run_layer(cfg, layer, x, m, rng());
    o.accuracy.vs_float = compare(o.exact, o.cim);
    return o.accuracy;
}

}  // namespace sim::cim
