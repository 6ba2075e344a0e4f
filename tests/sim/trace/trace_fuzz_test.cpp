// SPDX-License-Identifier: MIT
// Bad input never crashes: truncated and garbled traces and configs either parse or raise a
// one-line ConfigError; no other exception type, no crash. Mutations are seeded, so the
// same cases run every time.
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>

#include "sim/config/loader.h"
#include "sim/trace/trace_parser.h"
#include "tests/testing/temp_dir.h"

namespace sim {
namespace {

std::string read(const std::string& path) {
    std::ifstream in(path);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// Every case must either succeed or throw a ConfigError whose message is one line.
template <typename F>
void expect_clean(F&& parse, const std::string& what) {
    try {
        parse();
    } catch (const ConfigError& e) {
        EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << what << ": " << e.what();
    } catch (const std::exception& e) {
        ADD_FAILURE() << what << ": escaped as " << typeid(e).name() << ": " << e.what();
    }
}

std::vector<std::string> mutations(const std::string& text, uint32_t seed, int count) {
    std::mt19937 rng(seed);
    const std::string noise = "{}[]:,-\"'#&*!|>%@` \n\t0123456789abcxyz.e";
    std::vector<std::string> out;
    for (int i = 0; i < count; ++i) {
        std::string s = text;
        const int edits = 1 + static_cast<int>(rng() % 4);
        for (int e = 0; e < edits && !s.empty(); ++e) {
            const size_t pos = rng() % s.size();
            switch (rng() % 3) {
                case 0: s[pos] = noise[rng() % noise.size()]; break;
                case 1: s.erase(pos, 1 + rng() % 8); break;
                default: s.insert(pos, 1, noise[rng() % noise.size()]); break;
            }
        }
        out.push_back(std::move(s));
    }
    return out;
}

TEST(TraceFuzz, TruncatedAndGarbledYaml) {
    const std::string text = read(testing::source_path("traces/examples/two_streams.yaml"));
    for (size_t cut = 0; cut < text.size(); cut += 7) {
        expect_clean([&] { parse_trace_yaml(text.substr(0, cut), "t.yaml"); },
                     "prefix " + std::to_string(cut));
    }
    for (const std::string& m : mutations(text, 1234, 400)) {
        expect_clean([&] { parse_trace_yaml(m, "t.yaml"); }, m);
    }
}

TEST(TraceFuzz, TruncatedAndGarbledJsonLines) {
    const std::string text = read(testing::source_path("traces/examples/gemm_sweep.jsonl"));
    for (size_t cut = 0; cut < text.size(); cut += 5) {
        expect_clean([&] { parse_trace_jsonl(text.substr(0, cut), "t.jsonl"); },
                     "prefix " + std::to_string(cut));
    }
    for (const std::string& m : mutations(text, 99, 400)) {
        expect_clean([&] { parse_trace_jsonl(m, "t.jsonl"); }, m);
    }
}

TEST(TraceFuzz, GarbledHardwareConfigs) {
    const std::string text = read(testing::source_path("configs/hw/h100.yaml"));
    for (const std::string& m : mutations(text, 7, 200)) {
        expect_clean([&] { parse_config_text(m, "h100.yaml"); }, m);
    }
}

TEST(TraceFuzz, DeepNestingIsRejectedNotACrash) {
    const std::string deep = "version: 1\nops: " + std::string(5000, '[') + "\n";
    expect_clean([&] { parse_trace_yaml(deep, "t.yaml"); }, "deep");
}

}  // namespace
}  // namespace sim
