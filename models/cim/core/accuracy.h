// SPDX-License-Identifier: MIT
// Functional accuracy of a CIM accelerator against floating point. Floating-point weights and
// inputs are quantised symmetrically (weights to signed weight_bits, inputs to input_bits
// magnitudes per layer and batch; negative inputs take a second pass), multiplied on
// AnalogMatrix crossbars, and rescaled. Errors are reported against the float result and,
// separately, against the exact integer product (the error the analogue part adds).
//
// Effective bits: a uniform quantiser of n bits over a range R has an RMS error of
// R / (2^n sqrt(12)), so n_eff = log2(R / (rms_error sqrt(12))), R being the range (max - min)
// of the float reference. An exact result reports kExactBits.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/cim/core/cim_config.h"

namespace sim::cim {

/// Error of a result against a reference.
struct ErrorStats {
    static constexpr double kExactBits = 53;  ///< reported when the RMS error is zero
    uint64_t count = 0;
    double rms_error = 0;
    double max_abs_error = 0;
    double reference_rms = 0;
    double reference_range = 0;  ///< max - min of the reference

    /// rms_error / reference_rms (0 when the reference is all zero).
    double normalised_rms_error() const;
    double effective_bits() const;
};

ErrorStats compare(const std::vector<double>& reference, const std::vector<double>& result);

/// A fully connected layer: y = x W + b, optionally followed by ReLU.
struct DenseLayer {
    uint32_t inputs = 0;
    uint32_t outputs = 0;
    std::vector<double> weights;  ///< inputs x outputs, row-major
    std::vector<double> bias;     ///< outputs values, or empty
    bool relu = false;
};

/// A batch of row vectors.
struct Batch {
    uint32_t rows = 0;
    uint32_t columns = 0;
    std::vector<double> values;  ///< rows x columns, row-major
};

struct LayerAccuracy {
    ErrorStats vs_float;        ///< CIM pre-activation output vs the float network at this layer
    ErrorStats vs_integer;      ///< CIM vs the exact integer product of the quantised operands
    ErrorStats quantisation;    ///< exact integer product vs float: the quantisation error alone
    uint32_t input_passes = 1;  ///< 2 when the layer input has negative values
    size_t crossbars = 0;
};

struct MlpAccuracy {
    std::vector<LayerAccuracy> layers;
    ErrorStats end_to_end;  ///< final CIM output vs the float network's output
};

/// Runs the batch through every layer on CIM and in float (each on its own chain). Layer l's
/// devices are drawn from seed + l. Throws std::invalid_argument on mismatched shapes.
MlpAccuracy run_mlp(const CimConfig& cfg,
                    const std::vector<DenseLayer>& layers,
                    const Batch& input,
                    uint64_t seed);

/// One random layer of shape M x K x N: weights uniform in [-1, 1], inputs uniform in [0, 1]
/// (post-ReLU activations), both from seed.
LayerAccuracy random_gemm_accuracy(
    const CimConfig& cfg, uint32_t m, uint32_t k, uint32_t n, uint64_t seed);

}  // namespace sim::cim
