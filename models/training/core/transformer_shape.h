// SPDX-License-Identifier: MIT
// The shape of a decoder-only transformer (Llama-class: pre-norm, RMSNorm, rotary positions,
// SwiGLU or GELU MLP, optional grouped-query attention) and the parameter counts that follow
// from it. Biases are left out (Llama has none); norm weights are counted. Pure C++; the shapes
// come from configs/models/*.yaml (model_params.h).
#pragma once

#include <cstdint>
#include <string>

namespace sim::training {

/// The MLP of each layer.
enum class MlpKind {
    SwiGlu,  ///< gate and up projections (h → f each), SiLU(gate)·up, down (f → h): 3·h·f
    Gelu,    ///< up (h → f), GELU, down (f → h): 2·h·f (GPT-2/3, Megatron)
};

struct TransformerShape {
    std::string name;
    uint64_t layers = 0;      ///< decoder layers, >= 1
    uint64_t hidden = 0;      ///< model width h, divisible by heads
    uint64_t heads = 0;       ///< attention (query) heads a, >= 1
    uint64_t kv_heads = 0;    ///< key/value heads, divides heads (== heads without GQA)
    uint64_t ffn_hidden = 0;  ///< MLP width f, >= 1
    MlpKind mlp = MlpKind::SwiGlu;
    uint64_t vocab = 0;            ///< vocabulary V, >= 1
    bool tied_embeddings = false;  ///< the output projection reuses the input embedding
    uint64_t seq = 0;              ///< training sequence length s (tokens), >= 1
    uint64_t micro_batch = 1;      ///< sequences per GPU per step b, >= 1

    uint64_t head_dim() const { return hidden / heads; }
    /// Width of the K (or V) projection: kv_heads · head_dim.
    uint64_t kv_width() const { return kv_heads * head_dim(); }

    /// Q, K, V and output projections of one layer: 2·h² + 2·h·kv_width.
    double attention_parameters_per_layer() const;
    /// The MLP of one layer: 3·h·f (SwiGLU) or 2·h·f (GELU).
    double mlp_parameters_per_layer() const;
    /// Everything in one layer: attention, MLP and its two norms (2·h).
    double parameters_per_layer() const;
    /// N: the layers plus the final norm; what 6·N·tokens counts (Kaplan et al. 2020).
    double non_embedding_parameters() const;
    /// The input embedding V·h, plus the output projection V·h unless tied.
    double embedding_parameters() const;
    /// P: every parameter the optimizer updates.
    double parameters() const { return non_embedding_parameters() + embedding_parameters(); }

    /// The first impossible field and why; an empty field when the shape is valid: heads and
    /// kv_heads at least 1, heads dividing hidden and kv_heads dividing heads. A model file's
    /// reader states the other fields' ranges (models/training/model_params.h).
    struct Problem {
        std::string field;
        std::string message;
    };
    Problem check() const;
    /// Throws std::invalid_argument ("field: message") on the first impossible field.
    void validate() const;
};

/// "swiglu" or "gelu"; throws std::invalid_argument on anything else.
MlpKind parse_mlp_kind(const std::string& text);
std::string to_string(MlpKind kind);

}  // namespace sim::training
