// SPDX-License-Identifier: MIT
// The KV cache per token, 2 · layers · kv_heads · head_dim · 2 bytes: the vLLM paper (Kwon et
// al. 2023, docs/references.md [kwon2023], §3) gives 800 KB per token for OPT-13B (40 layers,
// hidden 5120, multi-head); Llama 2 70B's grouped-query attention (8 of 64 heads) keeps 320 KiB
// instead of 2.5 MiB. The weights take 2 bytes per parameter, split by tensor parallelism.
#include "models/training/core/inference_memory.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace sim::training {
namespace {

TransformerShape llama(
    uint64_t layers, uint64_t hidden, uint64_t heads, uint64_t kv_heads, uint64_t ffn) {
    TransformerShape s;
    s.layers = layers;
    s.hidden = hidden;
    s.heads = heads;
    s.kv_heads = kv_heads;
    s.ffn_hidden = ffn;
    s.vocab = 32000;
    s.seq = 4096;
    return s;
}

TEST(InferenceMemory, KvCachePerTokenFollowsTheShape) {
    const TransformerShape s7 = llama(32, 4096, 32, 32, 11008);
    InferenceOptions o;
    o.batch = 8;
    o.prompt = 1000;
    o.generate = 25;
    const InferenceMemory m = inference_memory(s7, o);
    EXPECT_DOUBLE_EQ(m.kv_cache_per_token, 2.0 * 32 * 32 * 128 * 2);  // 512 KiB
    EXPECT_DOUBLE_EQ(m.cached_tokens, 8.0 * 1024);
    EXPECT_DOUBLE_EQ(m.kv_cache, 8.0 * 1024 * 524288);
    EXPECT_DOUBLE_EQ(m.weights, 2 * s7.parameters());
    const TransformerShape s70 = llama(80, 8192, 64, 8, 28672);
    EXPECT_DOUBLE_EQ(inference_memory(s70, InferenceOptions{}).kv_cache_per_token,
                     2.0 * 80 * 8 * 128 * 2);  // 320 KiB
}

TEST(InferenceMemory, OptThirteenBKeepsEightHundredKilobytesPerToken) {
    // OPT-13B: 40 layers, hidden 5120, 40 heads (multi-head), 4h MLP.
    TransformerShape opt = llama(40, 5120, 40, 40, 20480);
    opt.mlp = MlpKind::Gelu;
    EXPECT_DOUBLE_EQ(inference_memory(opt, InferenceOptions{}).kv_cache_per_token, 800.0 * 1024);
}

TEST(InferenceMemory, TensorParallelismSplitsWeightsAndHeads) {
    const TransformerShape s70 = llama(80, 8192, 64, 8, 28672);
    InferenceOptions o;
    const InferenceMemory one = inference_memory(s70, o);
    o.tp = 8;
    const InferenceMemory eight = inference_memory(s70, o);
    EXPECT_DOUBLE_EQ(eight.kv_cache, one.kv_cache / 8);
    EXPECT_LT(eight.weights, one.weights / 7.9);
    o.tp = 16;  // more GPUs than KV heads
    EXPECT_THROW(inference_memory(s70, o), std::invalid_argument);
}

}  // namespace
}  // namespace sim::training
