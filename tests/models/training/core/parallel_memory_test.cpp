// SPDX-License-Identifier: MIT
// Training memory per GPU under ZeRO, tensor and pipeline parallelism, against the published
// formulas and figures:
// - ZeRO (Rajbhandari et al. 2020, docs/references.md [rajbhandari2020]), Figure 1: a 7.5B
//   model with K = 12 on 64 GPUs needs 120 GB per GPU without ZeRO, 31.4 GB with P_os, 16.6 GB
//   with P_os+g and 1.9 GB with P_os+g+p (the figure rounds to 0.1 GB);
// - Megatron tensor parallelism (Korthikanti et al. 2022 [korthikanti2022], Table 2, "tensor
//   parallel (baseline)"): a GPT layer keeps s·b·h·(10 + 24/t + 5·a·s/(h·t)) bytes;
// - the 1F1B pipeline (Narayanan et al. 2021 [narayanan2021]; Korthikanti §4.2.3): stage 0
//   holds the activations of p micro-batches of its L/p layers.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "models/training/core/training_memory.h"

namespace sim::training {
namespace {

TransformerShape llama2_7b() {
    TransformerShape s;
    s.layers = 32;
    s.hidden = 4096;
    s.heads = 32;
    s.kv_heads = 32;
    s.ffn_hidden = 11008;
    s.vocab = 32000;
    s.seq = 4096;
    return s;
}

TransformerShape gpt(uint64_t hidden, uint64_t heads) {
    TransformerShape s;
    s.layers = 24;
    s.hidden = hidden;
    s.heads = heads;
    s.kv_heads = heads;
    s.ffn_hidden = 4 * hidden;
    s.mlp = MlpKind::Gelu;
    s.vocab = 51200;
    s.seq = 2048;
    return s;
}

MemoryBreakdown with_zero(uint64_t stage, uint64_t dp) {
    MemoryOptions o;
    o.seq = 4096;
    o.parallel.dp = dp;
    o.parallel.zero = stage;
    return training_memory(llama2_7b(), o);
}

TEST(Zero, ModelStatesPerGpuShrinkAsFigureOneOfThePaperSays) {
    // The paper's figures for Ψ = 7.5B, scaled to this model's Ψ: per-GPU model states over
    // Ψ are 16, 4 + 12/64, 2 + 14/64 and 16/64 bytes, whatever Ψ is.
    const double psi = llama2_7b().parameters();
    const double published[] = {120.0, 31.4, 16.6, 1.9};  // GB for 7.5B parameters
    for (uint64_t stage = 0; stage <= 3; ++stage) {
        const MemoryBreakdown m = stage == 0 ? with_zero(0, 1) : with_zero(stage, 64);
        const double per_param = m.model_states() / psi;
        // 0.05 GB of rounding in the figure, on 7.5e9 parameters.
        EXPECT_NEAR(per_param, published[stage] * 1e9 / 7.5e9, 0.05e9 / 7.5e9) << "ZeRO-" << stage;
    }
    EXPECT_DOUBLE_EQ(with_zero(1, 64).model_states(), (4 + 12.0 / 64) * psi);
    EXPECT_DOUBLE_EQ(with_zero(2, 64).model_states(), (2 + 14.0 / 64) * psi);
    EXPECT_DOUBLE_EQ(with_zero(3, 64).model_states(), 16.0 / 64 * psi);
}

TEST(Zero, ShardsNoActivations) {
    EXPECT_DOUBLE_EQ(with_zero(3, 64).activations, with_zero(0, 1).activations);
}

TEST(TensorParallel, AGptLayerKeepsTheFormulaOfKorthikantiTableTwo) {
    const TransformerShape s = gpt(12288, 96);
    for (uint64_t t : {1u, 2u, 8u}) {
        MemoryOptions o;
        o.batch = 1;
        o.seq = 2048;
        o.parallel.tp = t;
        const double sbh = 2048.0 * 12288;
        const double as_h = 96.0 * 2048 / 12288;
        EXPECT_DOUBLE_EQ(activation_bytes_per_layer(s, o),
                         sbh * (10 + 24.0 / double(t) + 5 * as_h / double(t)))
            << "t = " << t;
    }
}

TEST(TensorParallel, SplitsLayerWeightsAndEmbeddingsButNotNorms) {
    const TransformerShape s = llama2_7b();
    Parallelism par;
    par.tp = 4;
    const ParameterShard shard = parameter_shard(s, par);
    const double h = 4096;
    EXPECT_DOUBLE_EQ(shard.norms, 32 * 2 * h + h);
    EXPECT_DOUBLE_EQ(shard.embeddings, 2 * 32000 * h / 4);
    EXPECT_DOUBLE_EQ(shard.layers,
                     32 * (s.attention_parameters_per_layer() + s.mlp_parameters_per_layer()) / 4);
    EXPECT_DOUBLE_EQ(parameter_shard(s, Parallelism{}).total(), s.parameters());
}

TEST(PipelineParallel, StageZeroHoldsTheMicrobatchesInFlight) {
    const TransformerShape s = llama2_7b();
    MemoryOptions o;
    o.seq = 4096;
    const MemoryBreakdown whole = training_memory(s, o);
    o.parallel.pp = 4;
    o.parallel.microbatches = 8;
    const MemoryBreakdown staged = training_memory(s, o);
    // p = 4 micro-batches of 8 layers: as much as 32 layers of one micro-batch.
    EXPECT_EQ(staged.microbatches_in_flight, 4);
    EXPECT_DOUBLE_EQ(staged.activations, whole.activations);
    o.parallel.microbatches = 2;
    EXPECT_DOUBLE_EQ(training_memory(s, o).activations, whole.activations / 2);
    // A quarter of the layers, and the embedding or the output projection, not both.
    const double h = 4096;
    EXPECT_DOUBLE_EQ(staged.parameters_per_gpu,
                     8 * s.parameters_per_layer() + 32000 * h + h);  // the last stage
    EXPECT_LT(staged.model_states(), 0.3 * whole.model_states());
}

TEST(Parallelism, ImpossibleLayoutsNameTheOption) {
    const TransformerShape s = llama2_7b();
    const auto problem = [&](Parallelism p) { return p.problem(s); };
    Parallelism p;
    EXPECT_EQ(problem(p), "");
    p.tp = 3;
    EXPECT_EQ(problem(p).rfind("--tp: 3 does not divide the 32 heads", 0), 0u);
    p = Parallelism{};
    p.pp = 5;
    EXPECT_EQ(problem(p).rfind("--pp:", 0), 0u);
    p = Parallelism{};
    p.zero = 1;
    EXPECT_EQ(problem(p).rfind("--zero:", 0), 0u);  // nothing to shard over
    p.dp = 8;
    p.zero = 3;
    p.pp = 2;
    EXPECT_EQ(problem(p).rfind("--zero: ZeRO-3", 0), 0u);
    MemoryOptions o;
    o.parallel.tp = 5;
    EXPECT_THROW(training_memory(s, o), std::invalid_argument);
}

}  // namespace
}  // namespace sim::training
