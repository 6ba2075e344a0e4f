// SPDX-License-Identifier: MIT
// Parameter counts from shapes: the three Llama 2 presets against the counts of the released
// checkpoints (Hugging Face meta-llama/Llama-2-{7b,13b,70b}-hf: 6,738,415,616, 13,015,864,320
// and 68,976,648,192 parameters), GQA and tied embeddings, and impossible shapes.
#include "models/training/core/transformer_shape.h"

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

TEST(TransformerShape, Llama2CountsMatchTheReleasedCheckpoints) {
    const TransformerShape l7 = llama(32, 4096, 32, 32, 11008);
    EXPECT_DOUBLE_EQ(l7.parameters(), 6'738'415'616.0);
    EXPECT_DOUBLE_EQ(l7.embedding_parameters(), 2 * 32000.0 * 4096);
    EXPECT_DOUBLE_EQ(l7.non_embedding_parameters(), 6'476'271'616.0);
    EXPECT_DOUBLE_EQ(llama(40, 5120, 40, 40, 13824).parameters(), 13'015'864'320.0);
    EXPECT_DOUBLE_EQ(llama(80, 8192, 64, 8, 28672).parameters(), 68'976'648'192.0);
}

TEST(TransformerShape, GroupedQueryAttentionShrinksOnlyKAndV) {
    const TransformerShape mha = llama(80, 8192, 64, 64, 28672);
    const TransformerShape gqa = llama(80, 8192, 64, 8, 28672);
    EXPECT_EQ(gqa.kv_width(), 1024u);
    EXPECT_DOUBLE_EQ(mha.attention_parameters_per_layer(), 4 * 8192.0 * 8192);
    EXPECT_DOUBLE_EQ(gqa.attention_parameters_per_layer(), 2 * 8192.0 * 8192 + 2 * 8192.0 * 1024);
    EXPECT_DOUBLE_EQ(mha.mlp_parameters_per_layer(), gqa.mlp_parameters_per_layer());
}

TEST(TransformerShape, GeluMlpHasTwoMatricesAndTiedEmbeddingsCountOnce) {
    TransformerShape gpt = llama(12, 768, 12, 12, 3072);
    gpt.mlp = MlpKind::Gelu;
    gpt.vocab = 50257;
    gpt.tied_embeddings = true;
    EXPECT_DOUBLE_EQ(gpt.mlp_parameters_per_layer(), 2 * 768.0 * 3072);
    EXPECT_DOUBLE_EQ(gpt.embedding_parameters(), 50257.0 * 768);
    // 12·(4h² + 8h²) ≈ 85M in the layers: GPT-2 small without biases and position embeddings.
    EXPECT_NEAR(gpt.non_embedding_parameters(), 12 * 12 * 768.0 * 768, 12 * 4 * 768.0 + 768);
}

TEST(TransformerShape, ImpossibleShapesNameTheirField) {
    const auto field_of = [](const TransformerShape& s) { return s.check().field; };
    TransformerShape s = llama(32, 4096, 32, 32, 11008);
    EXPECT_EQ(field_of(s), "");
    EXPECT_NO_THROW(s.validate());
    // The divisors must be at least 1; a model file's table states the other fields' ranges
    // (tests/models/training/model_params_test.cpp).
    s.heads = 0;
    EXPECT_EQ(field_of(s), "heads");
    EXPECT_THROW(s.validate(), std::invalid_argument);
    s = llama(32, 4096, 32, 0, 11008);
    EXPECT_EQ(field_of(s), "kv_heads");
    s = llama(32, 4096, 48, 48, 11008);  // 4096 / 48 is not whole
    EXPECT_EQ(field_of(s), "heads");
    s = llama(32, 4096, 32, 5, 11008);
    EXPECT_EQ(field_of(s), "kv_heads");
}

TEST(MlpKind, ParsesItsNamesOnly) {
    EXPECT_EQ(parse_mlp_kind("swiglu"), MlpKind::SwiGlu);
    EXPECT_EQ(parse_mlp_kind("gelu"), MlpKind::Gelu);
    EXPECT_THROW(parse_mlp_kind("SwiGLU"), std::invalid_argument);
    EXPECT_EQ(to_string(MlpKind::Gelu), "gelu");
}

}  // namespace
}  // namespace sim::training
