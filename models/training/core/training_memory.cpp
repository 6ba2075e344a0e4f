// SPDX-License-Identifier: MIT
#include "models/training/core/training_memory.h"

#include <algorithm>
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
    const double t = d(options.parallel.tp);

    // Attention block. Whole on every tensor-parallel GPU: its norm's input, the QKV input and
    // the dropout mask after the output projection. Split by heads: Q, K and V (for the score
    // and value products) and the output projection's input.
    const double attention_whole = e * tokens * (h + h) + kMaskBytes * tokens * h;
    double attention_split = e * tokens * (h + 2 * kv + h);
    if (options.attention == AttentionImpl::Naive) {
        // Softmax output and its dropout output (both e bytes) and the dropout mask, per head:
        // the paper's 5·a·s²·b in 16 bits.
        attention_split += (2 * e + kMaskBytes) * heads * d(options.seq) * tokens;
    } else {
        attention_split += kLogsumexpBytes * heads * tokens;
    }
    // MLP block. Whole: its norm's input, the first projection's input, the dropout mask.
    // Split: the f-wide tensors (GELU: its input and output; fused SwiGLU: gate, up and their
    // product).
    const double wide_tensors = shape.mlp == MlpKind::SwiGlu ? 3 : 2;
    const double mlp_whole = e * tokens * (h + h) + kMaskBytes * tokens * h;
    const double mlp_split = e * tokens * wide_tensors * f;
    return attention_whole + mlp_whole + (attention_split + mlp_split) / t;
}

ParameterShard parameter_shard(const TransformerShape& shape, const Parallelism& parallel) {
    const double t = d(parallel.tp);
    const double stage_layers = d(shape.layers / parallel.pp);
    const double h = d(shape.hidden);
    const double embedding = d(shape.vocab) * h / t;  // vocab-parallel
    const double split_layer =
        (shape.attention_parameters_per_layer() + shape.mlp_parameters_per_layer()) / t;
    const double layer_norms = shape.parameters_per_layer() -
                               shape.attention_parameters_per_layer() -
                               shape.mlp_parameters_per_layer();
    ParameterShard first;
    first.layers = stage_layers * split_layer;
    first.norms = stage_layers * layer_norms;
    first.embeddings = embedding;
    // The output projection and the final norm live on the last stage. Tied embeddings share
    // one matrix when the first stage is the last; across stages the last keeps its own copy
    // (Megatron synchronises the two copies' gradients).
    const double output = shape.tied_embeddings ? 0 : embedding;
    if (parallel.pp == 1) {
        first.embeddings += output;
        first.norms += h;
        return first;
    }
    ParameterShard last = first;
    last.embeddings = shape.tied_embeddings ? embedding : output;
    last.norms += h;
    return last.total() > first.total() ? last : first;
}

std::string Parallelism::problem(const TransformerShape& shape) const {
    const auto whole = [](uint64_t v) { return std::to_string(v); };
    if (dp < 1) return "--dp: must be at least 1";
    if (tp < 1) return "--tp: must be at least 1";
    if (pp < 1) return "--pp: must be at least 1";
    if (microbatches < 1) return "--microbatches: must be at least 1";
    if (zero > 3) return "--zero: " + whole(zero) + " is not a ZeRO stage; expected 0, 1, 2 or 3";
    if (zero > 0 && dp < 2)
        return "--zero: ZeRO shards over the data-parallel GPUs; it needs --dp of at least 2";
    if (zero >= 2 && pp > 1)
        return "--zero: ZeRO-" + whole(zero) +
               " shards gradients, which pipeline parallelism accumulates over micro-batches; "
               "use --zero 1 with --pp";
    if (shape.heads % tp != 0)
        return "--tp: " + whole(tp) + " does not divide the " + whole(shape.heads) + " heads";
    if (shape.kv_heads % tp != 0)
        return "--tp: " + whole(tp) + " does not divide the " + whole(shape.kv_heads) +
               " key/value heads";
    if (shape.ffn_hidden % tp != 0)
        return "--tp: " + whole(tp) + " does not divide ffn_hidden (" + whole(shape.ffn_hidden) +
               ")";
    if (shape.layers % pp != 0)
        return "--pp: " + whole(pp) + " does not divide the " + whole(shape.layers) + " layers";
    return "";
}

MemoryBreakdown model_state_memory(double parameters, Precision precision) {
    if (!(parameters > 0 && std::isfinite(parameters)))
        throw std::invalid_argument("parameters must be positive");
    MemoryBreakdown m;
    const double p = parameters;
    const bool amp = precision == Precision::Amp;
    m.parameters = p;
    m.parameters_per_gpu = p;
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
    const Parallelism& par = options.parallel;
    if (const std::string problem = par.problem(shape); !problem.empty())
        throw std::invalid_argument(problem);

    MemoryBreakdown m = model_state_memory(parameter_shard(shape, par).total(), options.precision);
    // The textbook's rule is about the whole model on one GPU.
    m.parameters = shape.parameters();
    m.chapter_activations = m.activation_element_bytes * m.parameters;
    const double dp = d(par.dp);
    if (par.zero >= 1) {
        m.master_weights /= dp;
        m.adam_m /= dp;
        m.adam_v /= dp;
    }
    if (par.zero >= 2) m.gradients /= dp;
    if (par.zero >= 3) m.weights /= dp;

    m.activations_per_layer = activation_bytes_per_layer(shape, options);
    m.microbatches_in_flight = par.pp > 1 ? d(std::min(par.pp, par.microbatches)) : 1;
    const double stage_layers = d(shape.layers / par.pp);
    if (options.checkpointing == Checkpointing::None) {
        m.activations = m.microbatches_in_flight * stage_layers * m.activations_per_layer;
    } else {
        // Each layer's input stays (whole on every tensor-parallel GPU); while one layer is
        // recomputed and differentiated, its full working set exists once.
        const double layer_input =
            m.activation_element_bytes * d(options.seq) * d(options.batch) * d(shape.hidden);
        m.activations =
            m.microbatches_in_flight * stage_layers * layer_input + m.activations_per_layer;
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
