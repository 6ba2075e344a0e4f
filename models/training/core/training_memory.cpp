// SPDX-License-Identifier: MIT
#include "models/training/core/training_memory.h"

#include <cmath>
#include <stdexcept>

namespace sim::training {

namespace {

constexpr double kMaskBytes = 1;       // a dropout mask element (Korthikanti §4.1)
constexpr double kLogsumexpBytes = 4;  // FlashAttention's fp32 softmax statistic per row

double d(uint64_t v) {
    return static_cast<double>(v);
}

double element_bytes(Precision p) {
    return p == Precision::Fp32 ? 4 : 2;
}

}  // namespace

double activation_bytes_per_layer(const TransformerShape& shape, const MemoryOptions& options) {
    const double e = element_bytes(options.precision);
    const double tokens = d(options.seq) * d(options.batch);  // s·b
    const double h = d(shape.hidden);
    const double kv = d(shape.kv_width());
    const double f = d(shape.ffn_hidden);
    const double heads = d(shape.heads);

    // Attention block: its norm's input, the QKV input, Q, K and V (for the score and value
    // products), the output projection's input, and the dropout mask after it.
    double attention = e * tokens * (h + h + h + 2 * kv + h) + kMaskBytes * tokens * h;
    if (options.attention == AttentionImpl::Naive) {
        // Softmax output and its dropout output (both e bytes) and the dropout mask, per head:
        // the paper's 5·a·s²·b in 16 bits.
        attention += (2 * e + kMaskBytes) * heads * d(options.seq) * tokens;
    } else {
        attention += kLogsumexpBytes * heads * tokens;
    }
    // MLP block: its norm's input, the first projection's input, the f-wide tensors (GELU: its
    // input and output; fused SwiGLU: gate, up and their product), the dropout mask.
    const double wide_tensors = shape.mlp == MlpKind::SwiGlu ? 3 : 2;
    const double mlp = e * tokens * (h + h + wide_tensors * f) + kMaskBytes * tokens * h;
    return attention + mlp;
}

MemoryBreakdown model_state_memory(double parameters, Precision precision) {
    if (!(parameters > 0 && std::isfinite(parameters)))
        throw std::invalid_argument("parameters must be positive");
    MemoryBreakdown m;
    const double p = parameters;
    const bool amp = precision == Precision::Amp;
    m.parameters = p;
    m.weights = (amp ? 2 : 4) * p;
    m.gradients = (amp ? 2 : 4) * p;
    m.master_weights = amp ? 4 * p : 0;
    m.adam_m = 4 * p;
    m.adam_v = 4 * p;
    m.activation_element_bytes = element_bytes(precision);
    m.chapter_activations = m.activation_element_bytes * p;
    return m;
}

MemoryBreakdown training_memory(const TransformerShape& shape, const MemoryOptions& options) {
    shape.validate();
    if (options.batch < 1) throw std::invalid_argument("batch must be at least 1");
    if (options.seq < 1) throw std::invalid_argument("seq must be at least 1");

    MemoryBreakdown m = model_state_memory(shape.parameters(), options.precision);
    m.activations_per_layer = activation_bytes_per_layer(shape, options);
    if (options.checkpointing == Checkpointing::None) {
        m.activations = d(shape.layers) * m.activations_per_layer;
    } else {
        // Each layer's input stays; while one layer is recomputed and differentiated, its full
        // working set exists once.
        const double layer_input =
            m.activation_element_bytes * d(options.seq) * d(options.batch) * d(shape.hidden);
        m.activations = d(shape.layers) * layer_input + m.activations_per_layer;
    }
    return m;
}

Precision parse_precision(const std::string& text) {
    if (text == "fp32") return Precision::Fp32;
    if (text == "amp") return Precision::Amp;
    throw std::invalid_argument("'" + text + "' is not a precision; expected one of: fp32, amp");
}

Checkpointing parse_checkpointing(const std::string& text) {
    if (text == "none") return Checkpointing::None;
    if (text == "full") return Checkpointing::Full;
    throw std::invalid_argument("'" + text +
                                "' is not a checkpointing mode; expected one of: none, full");
}

AttentionImpl parse_attention(const std::string& text) {
    if (text == "naive") return AttentionImpl::Naive;
    if (text == "fused") return AttentionImpl::Fused;
    throw std::invalid_argument("'" + text +
                                "' is not an attention kind; expected one of: naive, fused");
}

std::string to_string(Precision p) {
    return p == Precision::Fp32 ? "fp32" : "amp";
}
std::string to_string(Checkpointing c) {
    return c == Checkpointing::None ? "none" : "full";
}
std::string to_string(AttentionImpl a) {
    return a == AttentionImpl::Naive ? "naive" : "fused";
}

}  // namespace sim::training
