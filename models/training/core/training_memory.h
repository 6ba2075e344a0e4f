// SPDX-License-Identifier: MIT
// What training a transformer holds in device memory on one GPU: weights, gradients, Adam's
// optimizer states and the activations kept for the backward pass, with the model split by
// tensor and pipeline parallelism and the model states sharded by ZeRO.
//
// Model states (Rajbhandari et al. 2020, "ZeRO", §3.1; the textbook's ):
//   FP32 Adam:       weights 4P + gradients 4P + Adam m 4P + v 4P                   = 16P bytes
//   mixed precision: fp16/bf16 weights 2P + gradients 2P
//                    + fp32 master weights 4P + m 4P + v 4P                          = 16P bytes
// Activations, per layer (Korthikanti et al. 2022, "Reducing Activation Recomputation in Large
// Transformer Models", §4.1): with 16-bit activations and 1-byte dropout masks, a GPT layer
// (multi-head attention, 4h GELU MLP) keeps s·b·h·(34 + 5·a·s/h) bytes for its backward pass
// without recomputation. We count the same tensors but size K and V by kv_heads (GQA) and the
// MLP by its real width f (a fused SwiGLU keeps gate, up and their product, 3 tensors of f; at
// f = 8h/3 that is the same 16·s·b·h as GELU's 2 tensors of 4h), so for a GPT layer the figure
// is the paper's exactly. Dropout masks are kept as in the paper although Llama has none.
// FP32 activations double every tensor but the 1-byte masks: s·b·h·(66 + 9·a·s/h) for GPT.
// Fused attention (FlashAttention) keeps no s×s matrices, only a 4-byte logsumexp per row and
// head. Full activation checkpointing keeps each layer's input (2·s·b·h bytes in 16 bits) and
// one layer's working set while that layer is recomputed and differentiated (paper §4.2).
// Not counted: the embedding output, the final norm, the logits and loss, temporary buffers,
// allocator fragmentation and the CUDA context.
//
// Parallelism (the GPU holding the most: pipeline stage 0, or the last stage when its output
// projection outweighs the input embedding):
//   tensor parallelism over t GPUs (Shoeybi et al. 2019, "Megatron-LM", §3) splits the
//   attention and MLP weights, the embedding and the output projection (vocab-parallel) t
//   ways; norm weights are replicated. Of a layer's activations, the per-head and the f-wide
//   tensors are split; the norm inputs, the inputs of the first projections and the dropout
//   masks after the row-parallel GEMMs are not (Korthikanti et al. 2022, §4.2.1: without
//   sequence parallelism a GPT layer keeps s·b·h·(10 + 24/t + 5·a·s/(h·t))).
//   pipeline parallelism over p stages (Narayanan et al. 2021, "Efficient Large-Scale Language
//   Model Training on GPU Clusters Using Megatron-LM", §2.2): L/p layers per stage. Under the
//   1F1B schedule stage 0 holds the activations of min(p, m) micro-batches in flight
//   (Korthikanti §4.2.3), so with m >= p it keeps as much as the whole unsplit model does.
//   ZeRO over the d data-parallel GPUs (Rajbhandari et al. 2020, §5): stage 1 shards the
//   optimizer states, stage 2 the gradients too, stage 3 the weights too. With Ψ parameters
//   and K = 12 bytes of optimizer state per parameter (mixed precision): (2 + 2 + K)Ψ,
//   then 2Ψ + 2Ψ + KΨ/d, 2Ψ + (2 + K)Ψ/d, (2 + 2 + K)Ψ/d. ZeRO-2 and -3 are not combined with
//   pipeline parallelism (their gradient sharding conflicts with accumulating gradients over
//   micro-batches; DeepSpeed refuses the combination too).
//
// The textbook's rule of thumb instead counts activations as one value per parameter:
// 4P in FP32 (total 20P) and 2P in mixed precision (total 18P, so 7B → 126 GB). It ignores batch
// and sequence; both are reported side by side.
#pragma once

#include <cstdint>
#include <string>

#include "models/training/core/transformer_shape.h"

namespace sim::training {

enum class Precision {
    Fp32,  ///< everything in fp32
    Amp,   ///< fp16/bf16 weights, gradients and activations; fp32 master weights and Adam
};

enum class Checkpointing {
    None,  ///< keep every layer's activations until its backward pass
    Full,  ///< keep only layer inputs; recompute each layer's forward in the backward pass
};

enum class AttentionImpl {
    Naive,  ///< softmax scores kept for backward: the paper's 5·a·s²·b term
    Fused,  ///< FlashAttention: only a logsumexp per row and head
};

/// How training is split over GPUs. One GPU: every field 1, zero 0.
struct Parallelism {
    uint64_t dp = 1;            ///< data-parallel GPUs d, >= 1
    uint64_t tp = 1;            ///< tensor-parallel GPUs t, divides heads, kv_heads, ffn_hidden
    uint64_t pp = 1;            ///< pipeline stages p, divides layers
    uint64_t microbatches = 1;  ///< micro-batches m per step (pipeline flush), >= 1
    uint64_t zero = 0;          ///< ZeRO stage over the dp GPUs: 0 (none) .. 3

    uint64_t gpus() const { return dp * tp * pp; }
    /// The first impossible combination for shape, as "option: why"; empty when valid.
    std::string problem(const TransformerShape& shape) const;
};

struct MemoryOptions {
    Precision precision = Precision::Amp;
    Checkpointing checkpointing = Checkpointing::None;
    AttentionImpl attention = AttentionImpl::Naive;
    uint64_t batch = 1;  ///< micro-batch b (sequences), >= 1
    uint64_t seq = 1;    ///< sequence length s (tokens), >= 1
    Parallelism parallel;
};

/// The parameters one GPU holds (the most loaded pipeline stage), and how they split.
struct ParameterShard {
    double layers = 0;      ///< its L/p layers, attention and MLP weights split t ways
    double embeddings = 0;  ///< input embedding and/or output projection, split t ways
    double norms = 0;       ///< replicated norm weights
    double total() const { return layers + embeddings + norms; }
};

/// Bytes on one GPU, part by part.
struct MemoryBreakdown {
    double parameters = 0;                ///< P
    double parameters_per_gpu = 0;        ///< what one GPU holds (P without parallelism)
    double weights = 0;                   ///< 4P (fp32) or 2P (the fp16/bf16 working copy); per GPU
    double gradients = 0;                 ///< 4P or 2P; per GPU
    double master_weights = 0;            ///< 0 (fp32) or 4P (mixed precision); per GPU
    double adam_m = 0;                    ///< 4P; per GPU
    double adam_v = 0;                    ///< 4P; per GPU
    double activation_element_bytes = 0;  ///< 4 or 2
    double activations_per_layer = 0;     ///< one layer, one micro-batch, no recomputation, per GPU
    double microbatches_in_flight = 1;    ///< whose activations stage 0 holds at once (1F1B)
    double activations = 0;               ///< all layers of the stage, after checkpointing
    double chapter_activations = 0;       ///< the textbook's rule: 4P or 2P

    double optimizer_states() const { return master_weights + adam_m + adam_v; }
    /// Weights, gradients and optimizer states: 16P either way.
    double model_states() const { return weights + gradients + optimizer_states(); }
    double total() const { return model_states() + activations; }
    /// The textbook's 20P (fp32) or 18P (mixed precision).
    double chapter_total() const { return model_states() + chapter_activations; }
};

/// Bytes one layer keeps for its backward pass without recomputation, for batch b and
/// sequence s (the per-layer formula above), on one of options.parallel.tp GPUs.
double activation_bytes_per_layer(const TransformerShape& shape, const MemoryOptions& options);

/// The parameters one GPU holds under tensor and pipeline parallelism.
ParameterShard parameter_shard(const TransformerShape& shape, const Parallelism& parallel);

/// Model states and the textbook's activations for P parameters (no activations of the
/// layers): the textbook's arithmetic, which needs nothing but P. Throws std::invalid_argument
/// when P is not positive.
MemoryBreakdown model_state_memory(double parameters, Precision precision);

/// The model states of one GPU and its activations. Throws std::invalid_argument naming the
/// first impossible input (an option of options.parallel as "--tp: ...").
MemoryBreakdown training_memory(const TransformerShape& shape, const MemoryOptions& options);

/// The parsers throw std::invalid_argument listing the accepted names.
Precision parse_precision(const std::string& text);          ///< fp32, amp
Checkpointing parse_checkpointing(const std::string& text);  ///< none, full
AttentionImpl parse_attention(const std::string& text);      ///< naive, fused
std::string to_string(Precision p);
std::string to_string(Checkpointing c);
std::string to_string(AttentionImpl a);

}  // namespace sim::training
