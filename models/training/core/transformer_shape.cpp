// SPDX-License-Identifier: MIT
#include "models/training/core/transformer_shape.h"

#include <stdexcept>

namespace sim::training {

namespace {

double d(uint64_t v) {
    return static_cast<double>(v);
}

}  // namespace

double TransformerShape::attention_parameters_per_layer() const {
    return 2 * d(hidden) * d(hidden) + 2 * d(hidden) * d(kv_width());
}

double TransformerShape::mlp_parameters_per_layer() const {
    return (mlp == MlpKind::SwiGlu ? 3 : 2) * d(hidden) * d(ffn_hidden);
}

double TransformerShape::parameters_per_layer() const {
    return attention_parameters_per_layer() + mlp_parameters_per_layer() + 2 * d(hidden);
}

double TransformerShape::non_embedding_parameters() const {
    return d(layers) * parameters_per_layer() + d(hidden);
}

double TransformerShape::embedding_parameters() const {
    return (tied_embeddings ? 1 : 2) * d(vocab) * d(hidden);
}

TransformerShape::Problem TransformerShape::check() const {
    const auto at_least_one = [](const char* field, uint64_t v) -> Problem {
        if (v >= 1) return {};
        return {field, "must be at least 1, got " + std::to_string(v)};
    };
    // The divisors below; a model file states the other fields' ranges (model_params.h).
    for (const Problem& p : {at_least_one("heads", heads), at_least_one("kv_heads", kv_heads)}) {
        if (!p.field.empty()) return p;
    }
    if (hidden % heads != 0) {
        return {"heads",
                std::to_string(heads) + " does not divide hidden (" + std::to_string(hidden) + ")"};
    }
    if (heads % kv_heads != 0) {
        return {"kv_heads", std::to_string(kv_heads) + " does not divide heads (" +
                                std::to_string(heads) + ")"};
    }
    return {};
}

void TransformerShape::validate() const {
    const Problem p = check();
    if (!p.field.empty()) throw std::invalid_argument(p.field + ": " + p.message);
}

MlpKind parse_mlp_kind(const std::string& text) {
    if (text == "swiglu") return MlpKind::SwiGlu;
    if (text == "gelu") return MlpKind::Gelu;
    throw std::invalid_argument("'" + text + "' is not an MLP kind; expected one of: swiglu, gelu");
}

std::string to_string(MlpKind kind) {
    return kind == MlpKind::SwiGlu ? "swiglu" : "gelu";
}

}  // namespace sim::training
