// SPDX-License-Identifier: MIT
#include "sim/config/loader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/testing/config_error.h"
#include "tests/testing/temp_dir.h"

namespace sim {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

using testing::config_error;

uint64_t read_u64(const std::shared_ptr<ConfigDocument>& doc,
                  const std::string& section,
                  const std::string& key) {
    uint64_t v = 0;
    ConfigNode::root_of(doc).child(section).require(key, v);
    return v;
}

TEST(Loader, ExtendsMergesKeyByKeyAndChildWins) {
    testing::TempDir dir;
    dir.write("base.yaml", "hbm:\n  stacks: 5\n  bus_width_bits: 1024\nsm:\n  count: 132\n");
    const std::string child = dir.write("child.yaml", "extends: base.yaml\nhbm:\n  stacks: 6\n");
    const auto doc = load_config(child);
    EXPECT_EQ(read_u64(doc, "hbm", "stacks"), 6u);             // child overrides
    EXPECT_EQ(read_u64(doc, "hbm", "bus_width_bits"), 1024u);  // inherited inside a merged map
    EXPECT_EQ(read_u64(doc, "sm", "count"), 132u);             // inherited section
    EXPECT_FALSE(ConfigNode::root_of(doc).has("extends"));
}

TEST(Loader, ExtendsAddsKeysTheParentDoesNotHaveAtAnyDepth) {
    // A key new to a nested map used to be shadowed by a placeholder yaml-cpp created while
    // looking it up, and read as missing.
    testing::TempDir dir;
    dir.write("base.yaml", "links:\n  nvlink:\n    bandwidth: 450GB/s\n");
    const std::string child = dir.write(
        "child.yaml", "extends: base.yaml\nnodes: 2\nlinks:\n  nic:\n    bandwidth: 50GB/s\n");
    const ConfigNode root = ConfigNode::root_of(load_config(child));
    uint32_t nodes = 0;
    EXPECT_TRUE(root.get("nodes", nodes));
    EXPECT_EQ(nodes, 2u);
    const ConfigNode links = root.child("links");
    ASSERT_TRUE(links.has("nic"));
    ASSERT_TRUE(links.has("nvlink"));
    double bw = 0;
    EXPECT_TRUE(links.child("nic").get_quantity("bandwidth", Dimension::Bandwidth, bw));
    EXPECT_DOUBLE_EQ(bw, 50e9);
}

TEST(Loader, OverridePrecedence_PresetThenFileThenSetInOrder) {
    testing::TempDir dir;
    dir.write("base.yaml", "hbm:\n  stacks: 5\n");
    const std::string child = dir.write("child.yaml", "extends: base.yaml\nhbm:\n  stacks: 6\n");
    EXPECT_EQ(read_u64(load_config(child, {"hbm.stacks=7"}), "hbm", "stacks"), 7u);
    EXPECT_EQ(read_u64(load_config(child, {"hbm.stacks=7", "hbm.stacks=8"}), "hbm", "stacks"), 8u);
}

TEST(Loader, SetCreatesMissingSections) {
    testing::TempDir dir;
    const std::string f = dir.write("a.yaml", "name: x\n");
    EXPECT_EQ(read_u64(load_config(f, {"sm.count=144"}), "sm", "count"), 144u);
}

TEST(Loader, ErrorsInInheritedKeysPointAtTheParentFile) {
    testing::TempDir dir;
    const std::string base = dir.write("base.yaml", "sm:\n  count: lots\n");
    const std::string child = dir.write("child.yaml", "extends: base.yaml\nname: x\n");
    uint64_t v = 0;
    const auto doc = load_config(child);
    EXPECT_THAT(config_error([&] { ConfigNode::root_of(doc).child("sm").get("count", v); }),
                StartsWith(base + ":2:10: sm.count: "));
}

TEST(Loader, KeysMergedFromTheChildKeepTheirLine) {
    testing::TempDir dir;
    dir.write("base.yaml", "hbm:\n  stacks: 5\n");
    const std::string child = dir.write("child.yaml", "extends: base.yaml\nhbm:\n  stakcs: 6\n");
    const auto doc = load_config(child);
    uint64_t v = 0;
    const ConfigNode hbm = ConfigNode::root_of(doc).child("hbm");
    hbm.get("stacks", v);
    EXPECT_THAT(config_error([&] { hbm.reject_unknown_keys(); }),
                StartsWith(child + ":3:3: hbm.stakcs: unknown key (did you mean 'stacks'?)"));
}

TEST(Loader, ErrorsInOverriddenKeysNameTheSetOption) {
    testing::TempDir dir;
    const std::string f = dir.write("a.yaml", "sm:\n  count: 132\n");
    uint64_t v = 0;
    const auto doc = load_config(f, {"sm.count=-1"});
    EXPECT_THAT(config_error([&] { ConfigNode::root_of(doc).child("sm").get("count", v); }),
                StartsWith("--set sm.count=-1: sm.count: must not be negative"));
}

TEST(Loader, MissingFile) {
    EXPECT_THAT(config_error([] { load_config("/nonexistent/hw.yaml"); }),
                StartsWith("/nonexistent/hw.yaml: file not found"));
}

TEST(Loader, MalformedYamlReportsLine) {
    testing::TempDir dir;
    const std::string f = dir.write("bad.yaml", "a: 1\nb: [1, 2\nc: 3\n");
    EXPECT_THAT(config_error([&] { load_config(f); }),
                AllOf(StartsWith(f + ":"), HasSubstr("malformed YAML")));
}

// Found by fuzz/trace_yaml_fuzzer: yaml-cpp's message for these bytes ends in the newline it
// stumbled on, and the error was no longer one line.
TEST(Loader, MalformedYamlIsReportedOnOneLine) {
    const std::string bytes("\xff\x00\n", 3);
    const std::string what = config_error([&] { parse_config_text(bytes, "bin.yaml"); });
    EXPECT_THAT(what, StartsWith("bin.yaml:"));
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
}

TEST(Loader, DuplicateKeysAreRejected) {
    testing::TempDir dir;
    const std::string f = dir.write("dup.yaml", "sm:\n  count: 132\n  count: 144\n");
    EXPECT_THAT(config_error([&] { load_config(f); }),
                AllOf(StartsWith(f + ":3:3: count: "), HasSubstr("duplicate key")));
}

TEST(Loader, TopLevelMustBeAMap) {
    testing::TempDir dir;
    const std::string f = dir.write("list.yaml", "- a\n- b\n");
    EXPECT_THAT(config_error([&] { load_config(f); }), HasSubstr("expected a YAML map"));
}

TEST(Loader, ExtendsCycleIsRejected) {
    testing::TempDir dir;
    dir.write("a.yaml", "extends: b.yaml\n");
    const std::string b = dir.write("b.yaml", "extends: a.yaml\n");
    EXPECT_THAT(config_error([&] { load_config(b); }), HasSubstr("cycle"));
}

TEST(Loader, ExtendsMissingParent) {
    testing::TempDir dir;
    const std::string f = dir.write("a.yaml", "extends: nothere.yaml\n");
    EXPECT_THAT(config_error([&] { load_config(f); }),
                AllOf(StartsWith(f + ":1:10: extends: "), HasSubstr("not found")));
}

TEST(Loader, MalformedOverrides) {
    testing::TempDir dir;
    const std::string f = dir.write("a.yaml", "sm:\n  count: 1\n");
    EXPECT_THAT(config_error([&] { load_config(f, {"sm.count"}); }),
                HasSubstr("expected key.path=value"));
    EXPECT_THAT(config_error([&] { load_config(f, {"sm..count=1"}); }),
                HasSubstr("empty component"));
    EXPECT_THAT(config_error([&] { load_config(f, {"sm.count.x=1"}); }), HasSubstr("is not a map"));
}

TEST(Loader, DumpRoundTrips) {
    testing::TempDir dir;
    dir.write("base.yaml", "hbm:\n  stacks: 5\n");
    const std::string child = dir.write("child.yaml", "extends: base.yaml\nname: x\n");
    const std::string dumped = dump_config(*load_config(child, {"hbm.stacks=6"}));
    const std::string again = dir.write("dumped.yaml", dumped);
    EXPECT_EQ(read_u64(load_config(again), "hbm", "stacks"), 6u);
    EXPECT_EQ(dump_config(*load_config(again)), dumped);
}

}  // namespace
}  // namespace sim
