// SPDX-License-Identifier: MIT
// What serving a transformer holds in device memory on one GPU: the weights (16-bit) and the
// KV cache, the keys and values of every token of every sequence so far, which each decode step
// reads in full and extends by one token. Per token: 2 (K and V) · layers · kv_heads · head_dim
// · 2 bytes, so grouped-query attention shrinks it by heads / kv_heads (Llama 2 70B: 8×;
// Ainslie et al. 2023, "GQA"). With tensor parallelism over t GPUs each holds 1/t of the heads
// and of the split weights (parameter_shard). Not counted: the activations of the largest
// operator (the prefill's), temporary buffers and the allocator's fragmentation (a paged cache
// as in vLLM keeps that small).
#pragma once

#include <cstdint>

#include "models/training/core/transformer_shape.h"

namespace sim::training {

struct InferenceOptions {
    uint64_t batch = 1;     ///< sequences decoded together, >= 1
    uint64_t prompt = 1;    ///< prompt tokens per sequence, >= 1
    uint64_t generate = 1;  ///< tokens generated per sequence, >= 1
    uint64_t tp = 1;        ///< tensor-parallel GPUs: divides heads, kv_heads and ffn_hidden
};

struct InferenceMemory {
    double parameters_per_gpu = 0;
    double weights = 0;             ///< 2 bytes per parameter held
    double kv_cache_per_token = 0;  ///< one token of one sequence, all layers, this GPU's heads
    double cached_tokens = 0;       ///< batch · (prompt + generate − 1): the last step's context
    double kv_cache = 0;            ///< kv_cache_per_token · cached_tokens
    double total() const { return weights + kv_cache; }
};

/// Throws std::invalid_argument naming the first impossible input ("--tp: ...").
InferenceMemory inference_memory(const TransformerShape& shape, const InferenceOptions& options);

}  // namespace sim::training
