// SPDX-License-Identifier: MIT
// The trace header's memory: declaration and the capacity check of `wallsim run`. The figures
// are constructed: what is tested is the arithmetic of "by how much" and "what would fit".
#include "sim/trace/memory_check.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "sim/stats/group.h"
#include "sim/trace/trace_parser.h"
#include "tests/testing/config_error.h"

namespace sim {
namespace {

using testing::config_error;
using ::testing::HasSubstr;
using ::testing::Not;

Trace with_memory(const std::string& memory) {
    return parse_trace_yaml(
        "version: 1\nmemory: " + memory + "\nops:\n  - {kind: elementwise, elements: 1024}\n",
        "t.yaml");
}

TEST(DeclaredMemory, HeaderPartsAreReadAsSizes) {
    const Trace t = with_memory(
        "{weights: 2GB, gradients: 2000000000, optimizer: 12GB, "
        "activations: 1GiB, workspace: 512}");
    ASSERT_TRUE(t.memory);
    EXPECT_EQ(t.memory->weights, 2'000'000'000u);
    EXPECT_EQ(t.memory->gradients, 2'000'000'000u);
    EXPECT_EQ(t.memory->optimizer, 12'000'000'000u);
    EXPECT_EQ(t.memory->activations, uint64_t{1} << 30);
    EXPECT_EQ(t.memory->workspace, 512u);
    EXPECT_EQ(t.memory->total(), 16'000'000'000u + (uint64_t{1} << 30) + 512u);
    EXPECT_EQ(t.memory->where.line, 2);
}

TEST(DeclaredMemory, JsonLinesHeaderToo) {
    const Trace t = parse_trace_jsonl(
        "{\"version\": 1, \"memory\": {\"weights\": 100, \"activations\": 50}}\n"
        "{\"kind\": \"elementwise\", \"elements\": 1024}\n",
        "t.jsonl");
    ASSERT_TRUE(t.memory);
    EXPECT_EQ(t.memory->total(), 150u);
    EXPECT_FALSE(
        parse_trace_yaml("version: 1\nops:\n  - {kind: elementwise, elements: 8}\n", "t.yaml")
            .memory);
}

TEST(DeclaredMemory, BadDeclarationsNameTheKey) {
    EXPECT_THAT(config_error([] { with_memory("{weights: -1}"); }),
                HasSubstr("t.yaml:2:19: memory.weights: '-1' is negative"));
    EXPECT_THAT(config_error([] { with_memory("{weights: 1.5}"); }), HasSubstr("no unit"));
    EXPECT_THAT(config_error([] { with_memory("{weigths: 1}"); }), HasSubstr("weights"));
    EXPECT_THAT(config_error([] { with_memory("{weights: 0}"); }), HasSubstr("declares no bytes"));
    EXPECT_THAT(config_error([] { with_memory("12GB"); }), HasSubstr("memory"));
    EXPECT_THAT(config_error([] { with_memory("{weights: 2000000000000000000}"); }),
                HasSubstr("at most"));
}

TEST(MemoryCheck, FittingOrUndeclaredTracesPass) {
    const Trace t = with_memory("{weights: 40GB, activations: 40GB}");
    EXPECT_NO_THROW(check_declared_memory(t, 80'000'000'000, "hbm.capacity"));
    EXPECT_NO_THROW(check_declared_memory(t, 0, "hbm.capacity"));  // capacity unknown
    const Trace none =
        parse_trace_yaml("version: 1\nops:\n  - {kind: elementwise, elements: 8}\n", "t.yaml");
    EXPECT_NO_THROW(check_declared_memory(none, 1, "hbm.capacity"));
}

TEST(MemoryCheck, OverflowSaysByHowMuchAndWhatWouldFit) {
    // 16 bytes per parameter of a 10B model (160 GB of model states) and 20 GB of activations on
    // an 80 GB device: 100 GB too much. ZeRO-1 shards the 120 GB of optimizer states: with
    // 80 - 20 - 40 = 20 GB left for them it takes 6 GPUs. ZeRO-3 shards all 160 GB into the
    // 60 GB left: 3 GPUs, 53.3 GB each.
    const Trace t =
        with_memory("{weights: 20GB, gradients: 20GB, optimizer: 120GB, activations: 20GB}");
    const std::string message =
        config_error([&] { check_declared_memory(t, 80'000'000'000, "hbm.capacity"); });
    EXPECT_THAT(message, HasSubstr("t.yaml:2:"));
    EXPECT_THAT(message, HasSubstr("needs 180.0 GB per device"));
    EXPECT_THAT(message, HasSubstr("hbm.capacity is 80.0 GB: 100.0 GB too much"));
    EXPECT_THAT(message, HasSubstr("--dp 6 --zero 1"));
    EXPECT_THAT(message, HasSubstr("--dp 3 --zero 3: 53.3 GB per GPU"));
    // Without activations the model states alone still overflow: recomputation cannot help.
    EXPECT_THAT(message, Not(HasSubstr("checkpointing")));
}

TEST(MemoryCheck, ActivationsThatAloneOverflowNeedRecomputationOrSplitting) {
    const Trace t = with_memory("{weights: 1GB, activations: 90GB}");
    const std::string message =
        config_error([&] { check_declared_memory(t, 80'000'000'000, "hbm.capacity"); });
    EXPECT_THAT(message, HasSubstr("activations and workspace alone take 90.0 GB"));
    EXPECT_THAT(message, HasSubstr("--checkpointing full"));
    EXPECT_THAT(message, Not(HasSubstr("--zero")));
}

TEST(MemoryCheck, RecomputationIsOfferedWhenTheModelStatesFit) {
    const Trace t = with_memory("{weights: 10GB, gradients: 10GB, activations: 70GB}");
    const std::string message =
        config_error([&] { check_declared_memory(t, 80'000'000'000, "hbm.capacity"); });
    EXPECT_THAT(message, HasSubstr("fewer activations (70.0 GB now"));
}

TEST(MemoryCheck, CapacityComesFromTheHardwareFigures) {
    StatGroup root(nullptr, "");
    EXPECT_EQ(device_memory_capacity(root), 0u);
    root.add_group("hw").add_scalar("hbm_capacity", "B", "HBM capacity").set(80e9);
    EXPECT_EQ(device_memory_capacity(root), 80'000'000'000u);
}

TEST(MemoryCheck, AnOverflowingKvCacheSaysHowMuchCacheFits) {
    const Trace t = with_memory("{weights: 14GB, kv_cache: 100GB}");
    const std::string message =
        config_error([&] { check_declared_memory(t, 80'000'000'000, "hbm.capacity"); });
    EXPECT_THAT(message, HasSubstr("KV cache 100.0"));
    EXPECT_THAT(message, HasSubstr("a KV cache of at most 66.0 GB fits"));
    EXPECT_THAT(message, Not(HasSubstr("--zero")));
}

TEST(PipelineAndInferenceHeaders, TagOpsAndAreChecked) {
    const Trace p = parse_trace_yaml(
        "version: 1\npipeline: {stages: 4, microbatches: 2, stage: 3}\nops:\n"
        "  - {kind: gemm, m: 8, n: 8, k: 8, phase: forward, microbatch: 1}\n"
        "  - {kind: gemm, m: 8, n: 8, k: 8, phase: backward, microbatch: 0, recompute: true}\n"
        "  - {kind: elementwise, elements: 8}\n",
        "t.yaml");
    ASSERT_TRUE(p.pipeline);
    EXPECT_EQ(p.pipeline->stage, 3u);
    EXPECT_EQ(p.ops[0].phase, PipelinePhase::Forward);
    EXPECT_EQ(p.ops[0].microbatch, 1u);
    EXPECT_TRUE(p.ops[1].recompute);
    EXPECT_EQ(p.ops[2].phase, PipelinePhase::None);
    const auto bad = [](const std::string& header, const std::string& op) {
        return config_error([&] {
            parse_trace_yaml("version: 1\n" + header +
                                 "ops:\n  - {kind: elementwise, "
                                 "elements: 8" +
                                 op + "}\n",
                             "t.yaml");
        });
    };
    EXPECT_THAT(bad("", ", phase: forward, microbatch: 0"), HasSubstr("needs a pipeline"));
    EXPECT_THAT(bad("pipeline: {stages: 2, microbatches: 2}\n", ", phase: forward, microbatch: 2"),
                HasSubstr("microbatch"));
    EXPECT_THAT(bad("pipeline: {stages: 2, microbatches: 2}\n", ", microbatch: 0"),
                HasSubstr("phase"));
    EXPECT_THAT(bad("pipeline: {stages: 2, microbatches: 2, stage: 2}\n", ""),
                HasSubstr("pipeline.stage"));
    EXPECT_THAT(bad("", ", token: 0"), HasSubstr("needs an inference"));
    EXPECT_THAT(bad("inference: {batch: 1, prompt: 8, generate: 4}\n", ", token: 4"),
                HasSubstr("below the header's generate"));
    EXPECT_THAT(bad("inference: {batch: 1, prompt: 8}\n", ""), HasSubstr("generate"));
    const Trace i = parse_trace_yaml(
        "version: 1\ninference: {batch: 2, prompt: 8, generate: 4}\nops:\n"
        "  - {kind: elementwise, elements: 8, token: 3}\n  - {kind: elementwise, elements: 8}\n",
        "t.yaml");
    ASSERT_TRUE(i.inference);
    EXPECT_EQ(i.ops[0].token, uint64_t{3});
    EXPECT_FALSE(i.ops[1].token);
}

}  // namespace
}  // namespace sim
