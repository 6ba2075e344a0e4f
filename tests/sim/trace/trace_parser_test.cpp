// SPDX-License-Identifier: MIT
#include "sim/trace/trace_parser.h"

#include "sim/trace/op_cost.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/testing/config_error.h"
#include "tests/testing/temp_dir.h"

namespace sim {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

using testing::config_error;

std::string yaml_error(const std::string& text) {
    return config_error([&] { parse_trace_yaml(text, "t.yaml"); });
}

TEST(TraceParser, ReadsOpsWithDefaults) {
    const Trace t = parse_trace_yaml(
        "version: 1\nname: demo\nops:\n"
        "  - {name: add, kind: elementwise, elements: 1024}\n"
        "  - {kind: gemm, m: 64, n: 32, k: 16, dtype: bf16, stream: 1, after: [add]}\n",
        "t.yaml");
    ASSERT_EQ(t.ops.size(), 2u);
    EXPECT_EQ(t.name, "demo");
    EXPECT_EQ(t.ops[0].dtype, DType::FP32);
    const auto& ew = std::get<ElementwiseParams>(t.ops[0].params);
    EXPECT_EQ(ew.inputs, 2u);
    EXPECT_EQ(ew.outputs, 1u);
    EXPECT_EQ(ew.flops_per_element, 1u);
    EXPECT_EQ(t.ops[1].name, "gemm1");
    EXPECT_EQ(t.ops[1].stream, 1u);
    EXPECT_EQ(t.ops[1].after, std::vector<size_t>{0});
    EXPECT_EQ(std::get<GemmParams>(t.ops[1].params).out_dtype, DType::BF16);
    EXPECT_EQ(t.stream_count(), 2u);
    EXPECT_EQ(t.ops[1].where.line, 5);
}

TEST(TraceParser, RepeatExpandsWithIterationSuffixesAndLocalNames) {
    const Trace t = parse_trace_yaml(
        "version: 1\nops:\n"
        "  - {name: embed, kind: embedding, tokens: 8, dim: 4, vocab: 100}\n"
        "  - repeat: 3\n"
        "    ops:\n"
        "      - {name: fc, kind: gemm, m: 8, n: 8, k: 8, after: [embed]}\n"
        "      - {name: ar, kind: allreduce, bytes: 128, group: 2, stream: 1, after: [fc]}\n",
        "t.yaml");
    ASSERT_EQ(t.ops.size(), 7u);
    EXPECT_EQ(t.ops[3].name, "fc.1");
    EXPECT_EQ(t.ops[4].name, "ar.1");
    EXPECT_EQ(t.ops[4].after, std::vector<size_t>{3});  // this iteration's fc
    EXPECT_EQ(t.ops[3].after, std::vector<size_t>{0});  // the op outside the block
}

TEST(TraceParser, NestedRepeat) {
    const Trace t = parse_trace_yaml(
        "version: 1\nops:\n"
        "  - repeat: 2\n    ops:\n"
        "      - repeat: 2\n        ops:\n"
        "          - {name: x, kind: elementwise, elements: 4}\n",
        "t.yaml");
    ASSERT_EQ(t.ops.size(), 4u);
    EXPECT_EQ(t.ops[0].name, "x.0.0");
    EXPECT_EQ(t.ops[3].name, "x.1.1");
}

TEST(TraceParser, JsonLinesMatchesYaml) {
    const Trace j = parse_trace_jsonl(
        "{\"version\": 1, \"name\": \"sweep\"}\n\n"
        "{\"name\": \"g\", \"kind\": \"gemm\", \"m\": 64, \"n\": 64, \"k\": 64, \"dtype\": "
        "\"bf16\"}\n"
        "{\"repeat\": 2, \"ops\": [{\"name\": \"e\", \"kind\": \"elementwise\", \"elements\": 16, "
        "\"after\": [\"g\"]}]}\n",
        "t.jsonl");
    ASSERT_EQ(j.ops.size(), 3u);
    EXPECT_EQ(j.name, "sweep");
    EXPECT_EQ(j.ops[2].name, "e.1");
    EXPECT_EQ(j.ops[2].after, std::vector<size_t>{0});
    EXPECT_EQ(j.ops[0].where.line, 3);
}

// Found by fuzz/trace_jsonl_fuzzer: nlohmann reports a number beyond a double's range as
// out_of_range, not parse_error, and it escaped the parser.
TEST(TraceParser, JsonLinesNumberBeyondADoubleIsAnError) {
    const std::string header = "{\"version\": 1, \"name\": \"t\"}\n";
    EXPECT_THAT(
        config_error([&] {
            parse_trace_jsonl(
                header + "{\"name\": \"e\", \"kind\": \"elementwise\", \"elements\": 1e3840}\n",
                "t.jsonl");
        }),
        StartsWith("t.jsonl:2: malformed JSON: number overflow parsing '1e3840'"));
}

TEST(TraceParser, JsonLinesErrorsNameThePhysicalLine) {
    const std::string header = "{\"version\": 1}\n";
    EXPECT_THAT(config_error([&] {
                    parse_trace_jsonl(header + "{\"kind\": \"gemm\", \"m\": 1, \"n\": 1}\n",
                                      "t.jsonl");
                }),
                StartsWith("t.jsonl:2: k: required key is missing"));
    EXPECT_THAT(
        config_error([&] { parse_trace_jsonl(header + "\n{\"kind\": \"gemm\",\n", "t.jsonl"); }),
        AllOf(StartsWith("t.jsonl:3:"), HasSubstr("malformed JSON")));
    EXPECT_THAT(config_error([&] { parse_trace_jsonl(header + "[1, 2]\n", "t.jsonl"); }),
                HasSubstr("expected a JSON object"));
    EXPECT_THAT(config_error([&] { parse_trace_jsonl("", "t.jsonl"); }), HasSubstr("empty trace"));
}

TEST(TraceParser, ACollectiveOverNamedDevicesIsOneOperatorPerDevice) {
    const Trace t = parse_trace_yaml(
        "version: 1\nops:\n"
        "  - {name: fc, device: gpu1, kind: gemm, m: 8, n: 8, k: 8}\n"
        "  - {name: ar, kind: allreduce, bytes: 128, group: [gpu0, gpu1, gpu2], stream: 1}\n"
        "  - {name: next, device: gpu2, kind: elementwise, elements: 4, after: [ar]}\n",
        "t.yaml");
    ASSERT_EQ(t.ops.size(), 5u);
    for (size_t i = 1; i <= 3; ++i) {
        const Op& copy = t.ops[i];
        EXPECT_EQ(copy.name, "ar@gpu" + std::to_string(i - 1));
        EXPECT_EQ(copy.device, "gpu" + std::to_string(i - 1));
        EXPECT_EQ(copy.stream, 1u);
        EXPECT_EQ(copy.rendezvous, std::optional<size_t>{1});
        EXPECT_EQ(copy.rendezvous_size, 3u);
        EXPECT_EQ(std::get<CollectiveParams>(copy.params).group, 3u);
    }
    EXPECT_EQ(t.ops[4].after, std::vector<size_t>{3});  // the last copy: all end together
    EXPECT_FALSE(t.ops[0].rendezvous);
}

TEST(TraceParser, ACollectiveOverNamedDevicesIsCheckedAtItsLine) {
    const std::string head = "version: 1\nops:\n";
    EXPECT_THAT(yaml_error(head + "  - {kind: allreduce, bytes: 8, group: [gpu0, gpu0]}\n"),
                AllOf(StartsWith("t.yaml:3:"), HasSubstr("'gpu0' is named twice")));
    EXPECT_THAT(yaml_error(head + "  - {kind: allreduce, bytes: 8, group: [gpu0]}\n"),
                HasSubstr("at least 2 devices"));
    EXPECT_THAT(
        yaml_error(head + "  - {kind: allreduce, bytes: 8, device: gpu0, group: [gpu0, gpu1]}\n"),
        HasSubstr("ops[0].device: a collective over named devices runs on each of its group"));
    EXPECT_THAT(yaml_error(head + "  - {kind: allreduce, bytes: 8, group: [gpu0, [gpu1]]}\n"),
                HasSubstr("expected a string"));
}

TEST(TraceParser, ErrorsCarryLineAndKey) {
    const std::string head = "version: 1\nops:\n";
    EXPECT_THAT(yaml_error(head + "  - {kind: gemm, m: 4, n: 4}\n"),
                StartsWith("t.yaml:3:5: ops[0].k: required key is missing"));
    EXPECT_THAT(yaml_error(head + "  - {kind: elementwise, elements: -4}\n"),
                AllOf(StartsWith("t.yaml:3:35: ops[0].elements: "), HasSubstr("negative")));
    EXPECT_THAT(yaml_error(head + "  - {kind: elementwise, elements: 0}\n"),
                HasSubstr("at least 1"));
    EXPECT_THAT(
        yaml_error(head + "  - {kind: elementwize, elements: 4}\n"),
        AllOf(StartsWith("t.yaml:3:12: ops[0].kind: "), HasSubstr("expected one of: gemm")));
    EXPECT_THAT(yaml_error(head + "  - {kind: elementwise, elements: 4, flop_per_element: 2}\n"),
                AllOf(StartsWith("t.yaml:3:38: ops[0].flop_per_element: unknown key"),
                      HasSubstr("did you mean 'flops_per_element'")));
    EXPECT_THAT(yaml_error(head + "  - {kind: elementwise, elements: 4, dtype: fp12}\n"),
                HasSubstr("'fp12' is not one of"));
    EXPECT_THAT(
        yaml_error(head + "  - {kind: elementwise, elements: 4, after: [later]}\n"
                          "  - {name: later, kind: elementwise, elements: 4}\n"),
        AllOf(StartsWith("t.yaml:3:"), HasSubstr("'later' does not name an earlier operator")));
    EXPECT_THAT(yaml_error(head + "  - {name: a, kind: elementwise, elements: 4}\n"
                                  "  - {name: a, kind: elementwise, elements: 4}\n"),
                AllOf(StartsWith("t.yaml:4:"), HasSubstr("already used")));
    EXPECT_THAT(yaml_error(head + "  - {kind: allreduce, bytes: 4, group: 1}\n"),
                HasSubstr("at least 2 devices"));
    EXPECT_THAT(
        yaml_error(head +
                   "  - {kind: conv2d, batch: 1, in_channels: 3, out_channels: 8, height: 2, "
                   "width: 2, kernel_h: 5, kernel_w: 5}\n"),
        HasSubstr("taller than the padded input"));
    EXPECT_THAT(yaml_error(head + "  - {repeat: 0, ops: [{kind: elementwise, elements: 4}]}\n"),
                HasSubstr("repeat: must be at least 1"));
    EXPECT_THAT(yaml_error(head + "  - 42\n"), HasSubstr("expected an operator"));
}

TEST(TraceParser, MmaHintNamesAnInstructionOfAnMmaKernel) {
    const std::string head = "version: 1\nops:\n";
    const Trace t =
        parse_trace_yaml(head +
                             "  - {kind: attention, batch: 1, heads: 1, seq: 128, head_dim: 64, "
                             "kernel: {mma: mma_sync}}\n",
                         "t.yaml");
    EXPECT_EQ(t.ops.at(0).kernel.mma, "mma_sync");
    EXPECT_TRUE(t.ops.at(0).kernel.any());
    EXPECT_THAT(yaml_error(head + "  - {kind: gemm, m: 4, n: 4, k: 4, kernel: {mma: hmma}}\n"),
                AllOf(StartsWith("t.yaml:3:"), HasSubstr("mma"), HasSubstr("mma_sync")));
    EXPECT_THAT(
        yaml_error(head + "  - {kind: elementwise, elements: 4, kernel: {mma: mma_sync}}\n"),
        AllOf(StartsWith("t.yaml:3:"), HasSubstr("kernel.mma"),
              HasSubstr("only gemm, conv2d and attention")));
}

TEST(TraceParser, SplitKHintSplitsAGemmsK) {
    const std::string head = "version: 1\nops:\n";
    const Trace t = parse_trace_yaml(
        head + "  - {kind: gemm, m: 64, n: 64, k: 65536, kernel: {split_k: 4}}\n", "t.yaml");
    EXPECT_EQ(t.ops.at(0).kernel.split_k, 4u);
    EXPECT_TRUE(t.ops.at(0).kernel.any());
    EXPECT_THAT(yaml_error(head + "  - {kind: gemm, m: 4, n: 4, k: 4, kernel: {split_k: 17}}\n"),
                AllOf(StartsWith("t.yaml:3:"), HasSubstr("split_k"), HasSubstr("1..16")));
    EXPECT_THAT(yaml_error(head + "  - {kind: elementwise, elements: 4, kernel: {split_k: 2}}\n"),
                AllOf(StartsWith("t.yaml:3:"), HasSubstr("only gemm kernels split K")));
}

TEST(TraceParser, GemmLibraryTileAndClusterHints) {
    const std::string head = "version: 1\nops:\n";
    const Trace t =
        parse_trace_yaml(head +
                             "  - {kind: gemm, m: 64, n: 64, k: 64, kernel: "
                             "{library: deepgemm, tile: [128, 144], cluster: [1, 2]}}\n",
                         "t.yaml");
    const KernelHints& h = t.ops.at(0).kernel;
    EXPECT_EQ(h.library, "deepgemm");
    EXPECT_EQ(h.tile, (std::vector<uint64_t>{128, 144}));
    EXPECT_EQ(h.cluster, (std::vector<uint64_t>{1, 2}));
    EXPECT_TRUE(h.any());
    const auto gemm_with = [&](const std::string& hints) {
        return yaml_error(head + "  - {kind: gemm, m: 4, n: 4, k: 4, kernel: {" + hints + "}}\n");
    };
    EXPECT_THAT(gemm_with("library: cutlass"),
                AllOf(StartsWith("t.yaml:3:"), HasSubstr("kernel.library"), HasSubstr("deepgemm")));
    EXPECT_THAT(gemm_with("tile: [128, 128, 64]"),
                AllOf(StartsWith("t.yaml:3:"), HasSubstr("kernel.tile"), HasSubstr("two numbers")));
    EXPECT_THAT(gemm_with("tile: [0, 128]"), AllOf(HasSubstr("kernel.tile"), HasSubstr("got 0")));
    EXPECT_THAT(gemm_with("tile: [128, -8]"),
                AllOf(HasSubstr("kernel.tile[1]"), HasSubstr("non-negative integer")));
    EXPECT_THAT(gemm_with("tile: 128"),
                AllOf(HasSubstr("kernel.tile"), HasSubstr("expected a list")));
    EXPECT_THAT(gemm_with("cluster: [2, 2]"),
                AllOf(HasSubstr("kernel.cluster"), HasSubstr("at most 2 CTAs")));
    EXPECT_THAT(gemm_with("cluster: [4, 1]"),
                AllOf(HasSubstr("kernel.cluster"), HasSubstr("got 4")));
    EXPECT_THAT(
        yaml_error(head + "  - {kind: elementwise, elements: 4, kernel: {tile: [64, 64]}}\n"),
        AllOf(StartsWith("t.yaml:3:"), HasSubstr("only gemm kernels take a tile")));
    EXPECT_THAT(
        yaml_error(head + "  - {kind: elementwise, elements: 4, kernel: {library: deepgemm}}\n"),
        HasSubstr("only gemm kernels come from a choice of library"));
}

TEST(TraceParser, DramTrafficDefaultsAndChecks) {
    const Trace t = parse_trace_yaml(
        "version: 1\nops:\n  - {kind: dram_traffic, bytes: 4096, pattern: random}\n", "t.yaml");
    const auto& p = std::get<DramTrafficParams>(t.ops[0].params);
    EXPECT_EQ(p.pattern, "random");
    EXPECT_EQ(p.request_bytes, 64u);
    EXPECT_THAT(
        yaml_error("version: 1\nops:\n  - {kind: dram_traffic, bytes: 4096, pattern: zigzag}\n"),
        HasSubstr("'zigzag' is not one of"));
    EXPECT_THAT(yaml_error("version: 1\nops:\n  - {kind: dram_traffic, bytes: 32}\n"),
                HasSubstr("at least one request"));
}

TEST(TraceParser, BulkCopyDefaultsAndChecks) {
    const Trace t = parse_trace_yaml(
        "version: 1\nops:\n  - {kind: bulk_copy, ctas: 114, copies: 8}\n", "t.yaml");
    const auto& p = std::get<BulkCopyParams>(t.ops[0].params);
    EXPECT_EQ(p.copy_bytes, 4096u);
    EXPECT_EQ(p.in_flight, 1u);
    EXPECT_EQ(p.rows, 1u);
    EXPECT_EQ(p.pitch(), 114u * 4096);
    EXPECT_EQ(p.bytes(), 114u * 4096 * 8);
    EXPECT_DOUBLE_EQ(cost_of(t.ops[0]).dram_bytes, 114.0 * 4096 * 8);
    const auto error = [](const std::string& fields) {
        return yaml_error("version: 1\nops:\n  - {kind: bulk_copy, " + fields + "}\n");
    };
    EXPECT_THAT(error("copies: 8"), AllOf(StartsWith("t.yaml:3:"), HasSubstr("ctas: required")));
    EXPECT_THAT(error("ctas: 1, copies: 8, copy_bytes: 1000"),
                HasSubstr("copy_bytes: must be rows x a multiple of 16 bytes"));
    EXPECT_THAT(error("ctas: 1, copies: 8, copy_bytes: 4096, rows: 3"),
                HasSubstr("copy_bytes: must be rows x a multiple of 16 bytes"));
    EXPECT_THAT(error("ctas: 4, copies: 8, copy_bytes: 4096, rows: 16, row_pitch: 512"),
                HasSubstr("row_pitch: must be a multiple of 16 bytes and hold a round's rows "
                          "(ctas x copy_bytes / rows = 1024 B)"));
    EXPECT_THAT(error("ctas: 1, copies: 8, in_flight: 65"),
                HasSubstr("in_flight: must be at most 64"));
    EXPECT_THAT(error("ctas: 0, copies: 8"), HasSubstr("ctas: must be at least 1"));
    EXPECT_THAT(error("ctas: 1, copies: 8, stride: 4"), HasSubstr("stride: unknown key"));
}

TEST(TraceParser, CacheReadDefaultsAndChecks) {
    const Trace t = parse_trace_yaml(
        "version: 1\nops:\n  - {kind: cache_read, footprint: 16777216}\n", "t.yaml");
    const auto& p = std::get<CacheReadParams>(t.ops[0].params);
    EXPECT_EQ(p.block_bytes, 131072u);
    EXPECT_EQ(p.ctas, 2048u);
    EXPECT_EQ(p.regions(), 128u);
    EXPECT_DOUBLE_EQ(cost_of(t.ops[0]).dram_bytes, 2048.0 * 131072);
    const auto error = [](const std::string& fields) {
        return yaml_error("version: 1\nops:\n  - {kind: cache_read, " + fields + "}\n");
    };
    EXPECT_THAT(error("ctas: 8"), AllOf(StartsWith("t.yaml:3:"), HasSubstr("footprint: required")));
    EXPECT_THAT(error("footprint: 1048576, block_bytes: 4096"),
                HasSubstr("block_bytes: must be 8192 x 1..16 bytes"));
    EXPECT_THAT(error("footprint: 1048576, block_bytes: 262144"),
                HasSubstr("block_bytes: must be 8192 x 1..16 bytes"));
    EXPECT_THAT(error("footprint: 100000"),
                HasSubstr("footprint: must be a whole number of blocks (block_bytes)"));
    EXPECT_THAT(error("footprint: 1048576, ctas: 15"),
                HasSubstr("ctas: must be at least 2 x footprint / block_bytes (16)"));
    EXPECT_THAT(error("footprint: 1048576, passes: 4"), HasSubstr("passes: unknown key"));
}

TEST(TraceParser, HeaderErrors) {
    EXPECT_THAT(yaml_error("ops: [{kind: elementwise, elements: 4}]\n"),
                HasSubstr("version: required key is missing"));
    EXPECT_THAT(yaml_error("version: 2\nops: [{kind: elementwise, elements: 4}]\n"),
                HasSubstr("not supported"));
    EXPECT_THAT(yaml_error("version: 1\nops: []\n"), HasSubstr("at least one operator"));
    EXPECT_THAT(yaml_error("version: 1\nopz: []\nops: [{kind: elementwise, elements: 4}]\n"),
                StartsWith("t.yaml:2:1: opz: unknown key"));
}

TEST(TraceParser, LaunchHeaderDefaultsToStreamAndReachesEveryOp) {
    const std::string ops =
        "ops:\n  - {kind: elementwise, elements: 4}\n"
        "  - repeat: 2\n    ops: [{name: r, kind: elementwise, elements: 4}]\n";
    const Trace plain = parse_trace_yaml("version: 1\n" + ops, "t.yaml");
    EXPECT_EQ(plain.launch, LaunchMode::Stream);
    const Trace graph = parse_trace_yaml("version: 1\nlaunch: graph\n" + ops, "t.yaml");
    EXPECT_EQ(graph.launch, LaunchMode::Graph);
    ASSERT_EQ(graph.ops.size(), 3u);
    for (const Op& op : graph.ops)
        EXPECT_EQ(op.launch, LaunchMode::Graph) << op.name;
    const Trace jsonl = parse_trace_jsonl(
        "{\"version\": 1, \"launch\": \"graph\"}\n{\"kind\": \"elementwise\", \"elements\": 4}\n",
        "t.jsonl");
    EXPECT_EQ(jsonl.ops[0].launch, LaunchMode::Graph);
    EXPECT_EQ(yaml_error("version: 1\nlaunch: graphs\n" + ops),
              "t.yaml:2:9: launch: 'graphs' is not a launch mode; expected stream or graph");
}

TEST(TraceParser, FileEncodingFollowsExtension) {
    testing::TempDir dir;
    const std::string txt = dir.write("trace.txt", "version: 1\n");
    EXPECT_THAT(config_error([&] { parse_trace_file(txt); }), HasSubstr("unknown trace encoding"));
    EXPECT_THAT(config_error([&] { parse_trace_file((dir.path() / "none.yaml").string()); }),
                HasSubstr("file not found"));
}

TEST(TraceParser, ShippedExamplesParse) {
    for (const char* name : {"vector_add.yaml", "elementwise_sweep.yaml", "gemm_sweep.yaml",
                             "gemm_sweep.jsonl", "softmax_layernorm.yaml", "transformer_layer.yaml",
                             "two_streams.yaml", "tensor_kernels.yaml", "gemm_libraries.yaml"}) {
        const std::string path = testing::source_path(std::string("traces/examples/") + name);
        EXPECT_NO_THROW(parse_trace_file(path)) << path;
    }
    const Trace y = parse_trace_file(testing::source_path("traces/examples/gemm_sweep.yaml"));
    const Trace j = parse_trace_file(testing::source_path("traces/examples/gemm_sweep.jsonl"));
    ASSERT_EQ(y.ops.size(), j.ops.size());
    for (size_t i = 0; i < y.ops.size(); ++i) {
        EXPECT_EQ(y.ops[i].name, j.ops[i].name);
        EXPECT_EQ(std::get<GemmParams>(y.ops[i].params).m, std::get<GemmParams>(j.ops[i].params).m);
    }
}

TEST(TraceParser, MeasuredTimesAndReplayedCustomOps) {
    const Trace t = parse_trace_jsonl(
        "{\"version\": 1}\n"
        "{\"name\": \"g\", \"kind\": \"gemm\", \"m\": 8, \"n\": 8, \"k\": 8, "
        "\"measured_us\": 12.5}\n"
        "{\"name\": \"c\", \"kind\": \"custom\", \"duration_us\": 3.25, \"measured_us\": 3.25}\n",
        "t.jsonl");
    ASSERT_EQ(t.ops.size(), 2u);
    EXPECT_EQ(t.ops[0].measured_us, 12.5);
    EXPECT_EQ(std::get<CustomParams>(t.ops[1].params).duration_ps, 3'250'000u);
    EXPECT_EQ(cost_of(t.ops[1]).replay_ps, 3'250'000u);
    EXPECT_THAT(config_error([] {
                    parse_trace_yaml("version: 1\nops:\n  - {kind: custom, duration_us: -1}\n",
                                     "t.yaml");
                }),
                HasSubstr("duration_us: expected microseconds"));
    EXPECT_THAT(
        config_error([] { parse_trace_yaml("version: 1\nops:\n  - {kind: custom}\n", "t.yaml"); }),
        HasSubstr("flops: required key is missing"));
    EXPECT_THAT(config_error([] {
                    parse_trace_yaml(
                        "version: 1\nops:\n  - {kind: memcpy, bytes: 8, "
                        "measured_us: nan}\n",
                        "t.yaml");
                }),
                HasSubstr("measured_us"));
}

TEST(TraceParser, APeerCopyGoesToANamedDevice) {
    const Trace t = parse_trace_yaml(
        "version: 1\nops:\n  - {kind: memcpy, device: gpu0, direction: p2p, to: gpu1, "
        "bytes: 1024}\n",
        "t.yaml");
    const auto& p = std::get<MemcpyParams>(t.ops[0].params);
    EXPECT_EQ(p.direction, "p2p");
    EXPECT_EQ(p.to, "gpu1");
    const OpCost c = cost_of(t.ops[0]);
    EXPECT_EQ(c.unit, ComputeUnit::Network);
    EXPECT_DOUBLE_EQ(c.wire_bytes, 1024);
    EXPECT_DOUBLE_EQ(c.dram_bytes, 1024);  // read here; written at the other device
    EXPECT_THAT(yaml_error("version: 1\nops:\n  - {kind: memcpy, direction: p2p, bytes: 8}\n"),
                HasSubstr("t.yaml:3:5: ops[0].to: required key is missing"));
    EXPECT_THAT(
        yaml_error("version: 1\nops:\n  - {kind: memcpy, direction: h2d, to: gpu1, bytes: 8}\n"),
        HasSubstr("only a copy with direction: p2p goes to another device"));
}

}  // namespace
}  // namespace sim
