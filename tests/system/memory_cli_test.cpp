// SPDX-License-Identifier: MIT
// `wallsim memory` end to end: the table and stats.json for the presets, the textbook's 18P and
// 20P beside the per-layer activations, a model given as a file, and bad input (exit code 2,
// one line, nothing written).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/testing/temp_dir.h"
#include "tests/testing/wallsim_process.h"

namespace sim {
namespace {

using ::testing::HasSubstr;

using Result = testing::ProcessResult;
using testing::expect_bad_input;
using testing::slurp;
using testing::wallsim;

double value(const nlohmann::json& stats, const char* key) {
    return stats["memory"][key]["value"].get<double>();
}

TEST(MemoryCli, SevenBInMixedPrecisionPrintsTheTableAndWritesStats) {
    testing::TempDir dir;
    const auto out = dir.path() / "mem";
    const Result r = wallsim("memory --model 7b --precision amp --out " + out.string(), dir);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("Llama 2 7B"));
    EXPECT_THAT(r.out, HasSubstr("optimizer: fp32 master weights"));
    EXPECT_THAT(r.out, HasSubstr("total (18P)"));
    const auto stats = nlohmann::json::parse(slurp(out / "stats.json"));
    EXPECT_EQ(stats["meta"]["precision"], "amp");
    EXPECT_EQ(stats["meta"]["seq"], 4096);
    const double p = value(stats, "parameters");
    EXPECT_DOUBLE_EQ(p, 6'738'415'616.0);
    EXPECT_DOUBLE_EQ(value(stats, "model_states"), 16 * p);
    EXPECT_DOUBLE_EQ(value(stats, "optimizer_states"), 12 * p);
    // The textbook's 18P (7B → 126 GB); 6.74e9 parameters give 121.3 GB.
    EXPECT_DOUBLE_EQ(value(stats, "chapter_total"), 18 * p);
    EXPECT_NEAR(value(stats, "chapter_total"), 126e9, 0.04 * 126e9);
    // Korthikanti et al. at s = 4096, b = 1: s·b·h·(34 + 5·a·s/h) = 3.25 GB per layer.
    EXPECT_NEAR(value(stats, "activations_per_layer"), 4096.0 * 4096 * (34 + 5 * 32), 0.01e9);
    EXPECT_DOUBLE_EQ(value(stats, "total"),
                     value(stats, "model_states") + value(stats, "activations"));
    EXPECT_TRUE(std::filesystem::exists(out / "stats.txt"));
    EXPECT_TRUE(std::filesystem::exists(out / "model.yaml"));
}

TEST(MemoryCli, Fp32IsTwentyPAndCheckpointingShrinksActivations) {
    testing::TempDir dir;
    const auto fp32 = dir.path() / "fp32";
    const auto ckpt = dir.path() / "ckpt";
    ASSERT_EQ(
        wallsim("memory --model 13b --precision fp32 --batch 2 --seq 2048 --out " + fp32.string(),
                dir)
            .code,
        0);
    ASSERT_EQ(wallsim("memory --model 13b --precision fp32 --batch 2 --seq 2048 "
                      "--checkpointing full --out " +
                          ckpt.string(),
                      dir)
                  .code,
              0);
    const auto a = nlohmann::json::parse(slurp(fp32 / "stats.json"));
    const auto b = nlohmann::json::parse(slurp(ckpt / "stats.json"));
    const double p = value(a, "parameters");
    EXPECT_DOUBLE_EQ(value(a, "master_weights"), 0.0);
    EXPECT_DOUBLE_EQ(value(a, "chapter_total"), 20 * p);
    EXPECT_DOUBLE_EQ(value(a, "model_states"), value(b, "model_states"));
    // 40 layer inputs of 4·s·b·h bytes, plus one layer's working set.
    EXPECT_DOUBLE_EQ(value(b, "activations"),
                     40 * 4 * 2048.0 * 2 * 5120 + value(b, "activations_per_layer"));
    EXPECT_LT(value(b, "activations"), 0.1 * value(a, "activations"));
}

TEST(MemoryCli, AModelFileWorksLikeAPreset) {
    testing::TempDir dir;
    const std::string file = dir.write("tiny.yaml",
                                       "layers: 2\nhidden: 64\nheads: 4\nffn_hidden: 172\n"
                                       "vocab: 100\nseq: 16\n");
    const Result r = wallsim("memory --model " + file + " --precision fp32", dir);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("tiny ("));
    EXPECT_THAT(r.out, HasSubstr("total (20P)"));
}

TEST(MemoryCli, BadInputIsOneLineExitTwoAndWritesNothing) {
    testing::TempDir dir;
    const auto out = dir.path() / "mem";
    const std::string bad_key = dir.write("bad.yaml",
                                          "layers: 2\nhidden: 64\nheads: 4\n"
                                          "ffn_hiden: 172\nvocab: 100\nseq: 16\n");
    const std::string to = " --out " + out.string();
    const struct {
        std::string args, fragment;
    } cases[] = {
        {"memory --model 7x" + to, "--model: '7x' is not a model preset (7b, 13b, 70b, gpt3_175b"},
        {"memory --model 7b --batch -4" + to, "--batch"},
        {"memory --model 7b --batch 0" + to, "--batch: '0' is not a whole number"},
        {"memory --model 7b --seq 1.5" + to, "--seq"},
        {"memory --model 7b --precision fp16" + to, "--precision: 'fp16' is not a precision"},
        {"memory --model 7b --checkpointing some" + to, "--checkpointing"},
        {"memory --model 7b --attention flash" + to, "--attention"},
        {"memory --model " + bad_key + to, "bad.yaml:4:1: ffn_hiden: unknown key"},
        {"memory --model /nonexistent/m.yaml" + to, "/nonexistent/m.yaml"},
        {"memory --precision amp" + to, "--model"},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.args);
        expect_bad_input(wallsim(c.args, dir), c.fragment);
        EXPECT_FALSE(std::filesystem::exists(out));
    }
}

}  // namespace
}  // namespace sim
