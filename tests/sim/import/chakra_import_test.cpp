// SPDX-License-Identifier: MIT
// Chakra .et files are made here with the generated protobuf classes and encode_chakra (the
// varint-delimited stream MLCommons' encodeMessage writes); one test also builds the bytes of
// a node by hand from the published field numbers, so that the schema itself is checked.
#include "sim/import/chakra_import.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "sim/core/error.h"
#include "sim/import/chakra_file.h"
#include "sim/trace/trace_parser.h"
#include "tests/testing/temp_dir.h"

namespace sim::import {
namespace {

using ::testing::HasSubstr;
using namespace ChakraProtoMsg;

Node node(uint64_t id, const std::string& name, NodeType type, std::vector<uint64_t> deps = {}) {
    Node n;
    n.set_id(id);
    n.set_name(name);
    n.set_type(type);
    for (uint64_t d : deps)
        n.add_data_deps(d);
    return n;
}

void attr_int(Node& n, const std::string& name, int64_t v) {
    AttributeProto* a = n.add_attr();
    a->set_name(name);
    a->set_int64_val(v);
}

void attr_bool(Node& n, const std::string& name, bool v) {
    AttributeProto* a = n.add_attr();
    a->set_name(name);
    a->set_bool_val(v);
}

std::string write(const sim::testing::TempDir& dir,
                  const std::string& name,
                  const std::vector<Node>& nodes) {
    GlobalMetadata meta;
    meta.set_version("0.0.4");
    const std::string path = (dir.path() / name).string();
    std::ofstream(path, std::ios::binary) << encode_chakra(meta, nodes);
    return path;
}

// rank: a CPU op (1) launching a GEMM (2); an all-reduce (3) of its output; a GPU op (4)
// after the all-reduce; a CPU op (5) between the GEMM and an element-wise kernel (6).
std::vector<Node> rank_nodes() {
    Node cpu = node(1, "aten::linear", COMP_NODE);
    attr_bool(cpu, "is_cpu_op", true);
    Node gemm = node(2, "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n", COMP_NODE, {1});
    attr_bool(gemm, "is_cpu_op", false);
    attr_int(gemm, "num_ops", 2LL * 1024 * 1024 * 1024);
    gemm.add_attr()->set_name("tensor_size");
    gemm.mutable_attr(gemm.attr_size() - 1)->set_uint64_val(6 * 1024 * 1024);
    gemm.set_duration_micros(40);
    gemm.mutable_inputs()->set_types("['Tensor(c10::BFloat16)', 'Tensor(c10::BFloat16)']");
    Node ar = node(3, "ncclDevKernel_AllReduce_Sum_bf16_RING_LL", COMM_COLL_NODE, {2});
    attr_int(ar, "comm_type", ALL_REDUCE);
    attr_int(ar, "comm_size", 1 << 20);
    ar.set_duration_micros(25);
    Node after = node(4, "triton_poi_fused_add_0", COMP_NODE, {3});
    attr_int(after, "num_ops", 1 << 20);
    attr_int(after, "tensor_size", 3 << 20);
    Node cpu2 = node(5, "aten::add", COMP_NODE, {2});
    attr_bool(cpu2, "is_cpu_op", true);
    Node ew = node(6, "void at::native::vectorized_elementwise_kernel<4>(int)", COMP_NODE, {5});
    ew.set_duration_micros(7);  // no num_ops / tensor_size: only its time is known
    return {cpu, gemm, ar, after, cpu2, ew};
}

TEST(ChakraFile, RoundTripsAndNamesATruncation) {
    const sim::testing::TempDir dir;
    const std::string path = write(dir, "rank0.et", rank_nodes());
    const ChakraFile f = read_chakra_file(path);
    EXPECT_EQ(f.metadata.version(), "0.0.4");
    ASSERT_EQ(f.nodes.size(), 6u);
    EXPECT_EQ(f.nodes[2].name(), "ncclDevKernel_AllReduce_Sum_bf16_RING_LL");
    std::ifstream in(path, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_THAT([&] { parse_chakra(bytes.substr(0, bytes.size() - 3), "cut.et"); },
                ::testing::ThrowsMessage<ConfigError>(HasSubstr("cut.et: node 5 at byte")));
    EXPECT_THAT([] { parse_chakra("", "empty.et"); },
                ::testing::ThrowsMessage<ConfigError>(HasSubstr("empty file")));
}

TEST(ChakraFile, ReadsBytesWrittenFromThePublishedFieldNumbers) {
    // GlobalMetadata{version: "1"}: field 1, wire type 2.
    std::string meta = {0x0a, 0x01, '1'};
    // Node{id: 7 (field 1, varint), name: "k" (2), type: COMP_NODE=4 (3),
    //      data_deps: [5] (5, packed), duration_micros: 9 (7)}
    std::string n = {0x08, 0x07, 0x12, 0x01, 'k', 0x18, 0x04, 0x2a, 0x01, 0x05, 0x38, 0x09};
    std::string bytes;
    bytes += static_cast<char>(meta.size());
    bytes += meta;
    bytes += static_cast<char>(n.size());
    bytes += n;
    const ChakraFile f = parse_chakra(bytes, "hand.et");
    ASSERT_EQ(f.nodes.size(), 1u);
    EXPECT_EQ(f.nodes[0].id(), 7u);
    EXPECT_EQ(f.nodes[0].type(), COMP_NODE);
    EXPECT_EQ(f.nodes[0].data_deps(0), 5u);
    EXPECT_EQ(f.nodes[0].duration_micros(), 9u);
}

TEST(ChakraImport, ComputeCollectivesAndDependenciesThroughCpuOps) {
    const sim::testing::TempDir dir;
    const std::string r0 = write(dir, "rank0.et", rank_nodes());
    const std::string r1 = write(dir, "rank1.et", rank_nodes());
    const ImportedTrace t = import_chakra({r0, r1}, {});
    ASSERT_EQ(t.ops.size(), 4u);
    EXPECT_EQ(t.skipped, 2u);  // the two CPU ops
    EXPECT_EQ(t.ops[0]["kind"], "custom");
    EXPECT_EQ(t.ops[0]["flops"], 2ULL * 1024 * 1024 * 1024);
    EXPECT_EQ(t.ops[0]["bytes"], 6ULL * 1024 * 1024);
    EXPECT_EQ(t.ops[0]["unit"], "tensor");
    EXPECT_EQ(t.ops[0]["dtype"], "bf16");
    EXPECT_EQ(t.ops[0]["measured_us"], 40.0);
    EXPECT_EQ(t.ops[1]["kind"], "allreduce");
    EXPECT_EQ(t.ops[1]["bytes"], 1 << 20);
    EXPECT_EQ(t.ops[1]["group"], 2);  // two files, two ranks
    EXPECT_EQ(t.ops[1]["stream"], 1);
    // Node 6 depends on CPU op 5, which depends on the GEMM: the dependency passes through.
    const TraceOp& ew = t.ops[3];
    EXPECT_EQ(ew["kind"], "custom");
    EXPECT_EQ(ew["duration_us"], 7.0);
    EXPECT_EQ(ew["after"], TraceOp::array({t.ops[0]["name"]}));
    const Trace parsed = parse_trace_jsonl(to_jsonl(t), "out.jsonl");
    EXPECT_EQ(parsed.ops[2].after, std::vector<size_t>{1});
}

TEST(ChakraImport, BadGraphsAreErrors) {
    const sim::testing::TempDir dir;
    std::vector<Node> cycle = {node(1, "a", COMP_NODE, {2}), node(2, "b", COMP_NODE, {1})};
    const std::string c = write(dir, "cycle.et", cycle);
    EXPECT_THAT([&] { import_chakra({c}, {}); },
                ::testing::ThrowsMessage<ConfigError>(HasSubstr("dependency cycles")));
    const std::string d = write(dir, "dangling.et", {node(1, "a", COMP_NODE, {9})});
    EXPECT_THAT([&] { import_chakra({d}, {}); },
                ::testing::ThrowsMessage<ConfigError>(HasSubstr("node 9")));
}

TEST(ChakraImport, NodesBeyondWhatATraceHoldsAreDroppedOrRefused) {
    // A memory node of 2^60 bytes would be a memcpy over the trace's 64 PiB: it replays its
    // time instead. A duration over the trace's 1e12 us is an error naming the node.
    const sim::testing::TempDir dir;
    Node load = node(1, "load", MEM_LOAD_NODE);
    load.add_attr()->set_name("tensor_size");
    load.mutable_attr(0)->set_uint64_val(uint64_t{1} << 60);
    load.set_duration_micros(5);
    const ImportedTrace t = import_chakra({write(dir, "huge.et", {load})}, {});
    ASSERT_EQ(t.ops.size(), 1u);
    EXPECT_EQ(t.ops[0]["kind"], "custom");
    EXPECT_THAT(t.custom_reasons.begin()->first,
                HasSubstr("a memcpy a trace cannot hold (bytes: must be at most 64PiB)"));
    EXPECT_NO_THROW(parse_trace_jsonl(to_jsonl(t), "imported.jsonl"));

    Node slow = node(1, "triton_poi_fused_add_0", COMP_NODE);
    attr_int(slow, "num_ops", 1 << 20);
    slow.set_duration_micros(uint64_t{2} << 40);
    const std::string path = write(dir, "slow.et", {slow});
    EXPECT_THAT([&] { import_chakra({path}, {}); },
                ::testing::ThrowsMessage<ConfigError>(HasSubstr("node 1.duration_micros")));
}

TEST(ChakraImport, ACollectiveWithoutAGroupReplaysItsTime) {
    const sim::testing::TempDir dir;
    const std::string r0 = write(dir, "rank0.et", rank_nodes());
    const ImportedTrace t = import_chakra({r0}, {});
    EXPECT_EQ(t.ops[1]["kind"], "custom");
    EXPECT_EQ(t.custom_reasons.count("collective without a group (give --group)"), 1u);
    ChakraImportOptions o;
    o.group = 8;
    EXPECT_EQ(import_chakra({r0}, o).ops[1]["group"], 8);
}

}  // namespace
}  // namespace sim::import
