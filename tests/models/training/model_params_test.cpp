// SPDX-License-Identifier: MIT
// Model descriptions: the shipped presets load, a bad file is a ConfigError at the offending
// key's file:line (unknown key, missing key, negative, out-of-range or impossible value), and the
// ParamTable describes the keys with TransformerShape's defaults.
#include "models/training/model_params.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "sim/config/loader.h"
#include "tests/testing/config_error.h"
#include "tests/testing/temp_dir.h"

namespace sim::training {
namespace {

using testing::config_error;
using ::testing::HasSubstr;

const char* kTiny = R"(name: tiny
layers: 2
hidden: 64
heads: 4
ffn_hidden: 172
vocab: 100
seq: 16
)";

TransformerShape parse(const std::string& text) {
    auto doc = parse_config_text(text, "tiny.yaml");
    return shape_from_config(ConfigNode::root_of(doc));
}

TEST(ModelParams, PresetsLoadByName) {
    const ModelDescription m7 = load_model("7b", "--model");
    EXPECT_EQ(m7.shape.name, "Llama 2 7B");
    EXPECT_DOUBLE_EQ(m7.shape.parameters(), 6'738'415'616.0);
    EXPECT_EQ(m7.shape.seq, 4096u);
    EXPECT_EQ(m7.shape.micro_batch, 1u);
    EXPECT_DOUBLE_EQ(load_model("13b", "--model").shape.parameters(), 13'015'864'320.0);
    const ModelDescription m70 = load_model("70b", "--model");
    EXPECT_EQ(m70.shape.kv_heads, 8u);
    EXPECT_DOUBLE_EQ(m70.shape.parameters(), 68'976'648'192.0);
    // Llama 3: the parameter counts of Meta's released checkpoints (config.json shapes, GQA).
    const ModelDescription l8 = load_model("llama3_8b", "--model");
    EXPECT_EQ(l8.shape.kv_heads, 8u);
    EXPECT_DOUBLE_EQ(l8.shape.parameters(), 8'030'261'248.0);
    EXPECT_DOUBLE_EQ(load_model("llama3_70b", "--model").shape.parameters(), 70'553'706'496.0);
    // GPT-3 175B without its biases and learned position embeddings (the preset says so).
    const double gpt3 = load_model("gpt3_175b", "--model").shape.parameters();
    EXPECT_GT(gpt3, 0.99 * 175e9);
    EXPECT_LT(gpt3, 175e9);
    // The same file by path.
    EXPECT_DOUBLE_EQ(
        load_model(testing::source_path("configs/models/7b.yaml"), "--model").shape.parameters(),
        m7.shape.parameters());
}

TEST(ModelParams, DefaultsFillTheOptionalKeys) {
    const TransformerShape s = parse(kTiny);
    EXPECT_EQ(s.kv_heads, 4u);
    EXPECT_EQ(s.mlp, MlpKind::SwiGlu);
    EXPECT_FALSE(s.tied_embeddings);
    EXPECT_EQ(s.micro_batch, 1u);
}

TEST(ModelParams, BadDescriptionsNameFileLineAndKey) {
    const std::string base = kTiny;
    EXPECT_THAT(config_error([&] { parse(base + "hiden: 3\n"); }),
                HasSubstr("tiny.yaml:8:1: hiden: unknown key (did you mean 'hidden'?)"));
    EXPECT_THAT(config_error([&] { parse(base + "kv_heads: 3\n"); }),
                HasSubstr("tiny.yaml:8:11: kv_heads: 3 does not divide heads (4)"));
    EXPECT_THAT(config_error([&] { parse(base + "mlp: relu\n"); }), HasSubstr("mlp"));
    EXPECT_THAT(config_error([&] { parse(base + "micro_batch: -2\n"); }),
                HasSubstr("tiny.yaml:8:14: micro_batch"));
    EXPECT_THAT(config_error([&] { parse("layers: 2\nhidden: 64\n"); }),
                HasSubstr("heads: required key is missing"));
    EXPECT_THAT(config_error([&] { parse("layers: 0\n" + base.substr(base.find("hidden"))); }),
                HasSubstr("tiny.yaml:1:9: layers: = 0 is out of range: must be at least 1"));
    EXPECT_THAT(config_error([&] { parse(base + "micro_batch: 0\n"); }),
                HasSubstr("tiny.yaml:8:14: micro_batch: = 0 is out of range: must be at least 1"));
    EXPECT_THAT(config_error([&] { parse(base + "kv_heads: 0\n"); }),
                HasSubstr("tiny.yaml:8:11: kv_heads: = 0 is out of range: must be at least 1"));
    EXPECT_THAT(
        config_error([&] {
            parse("layers: 2\nhidden: 64\nheads: 5\n" + base.substr(base.find("ffn_hidden")));
        }),
        HasSubstr("tiny.yaml:3:8: heads: 5 does not divide hidden (64)"));
}

TEST(ModelParams, AMisspeltRequiredKeyIsReportedAsUnknown) {
    std::string text = kTiny;
    text.replace(text.find("hidden: 64"), 6, "hiden");
    EXPECT_THAT(config_error([&] { parse(text); }),
                HasSubstr("tiny.yaml:3:1: hiden: unknown key (did you mean 'hidden'?)"));
}

TEST(ModelParams, TheTableDescribesTheShapesDefaults) {
    const std::vector<ParamDoc> docs = model_param_table().describe();
    std::map<std::string, ParamDoc> by_key;
    for (const ParamDoc& d : docs)
        by_key[d.key] = d;
    EXPECT_EQ(docs.size(), 11u);
    EXPECT_EQ(by_key["layers"].default_text, "required");
    EXPECT_EQ(by_key["layers"].range, "at least 1");
    EXPECT_EQ(by_key["kv_heads"].default_text, "heads");
    EXPECT_EQ(by_key["kv_heads"].range, "at least 1");
    EXPECT_EQ(by_key["mlp"].default_text, "swiglu");
    EXPECT_EQ(by_key["mlp"].range, "swiglu, gelu");
    EXPECT_EQ(by_key["tied_embeddings"].default_text, "false");
    EXPECT_EQ(by_key["micro_batch"].default_text, "1");
}

TEST(ModelParams, AnUnknownPresetListsThePresets) {
    EXPECT_THAT(config_error([] { load_model("7x", "--model"); }),
                HasSubstr("--model: '7x' is not a model preset (7b, 13b, 70b, gpt3_175b, "
                          "llama3_8b, llama3_70b) or a .yaml file"));
    EXPECT_THAT(config_error([] { load_model("/nonexistent/model.yaml", "--model"); }),
                HasSubstr("/nonexistent/model.yaml"));
}

}  // namespace
}  // namespace sim::training
