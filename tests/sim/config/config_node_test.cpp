// SPDX-License-Identifier: MIT
#include "sim/config/config_node.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "sim/config/loader.h"
#include "tests/testing/config_error.h"

namespace sim {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

ConfigNode parse(const std::string& text) {
    return ConfigNode::root_of(parse_config_text(text, "test.yaml"));
}

using testing::config_error;

TEST(ConfigNode, TypedReads) {
    const ConfigNode root = parse("a: 5\nb: 2.5\nc: true\nd: text\ne: [x, y]\nf: 1e9\n");
    uint64_t a = 0;
    double b = 0;
    bool c = false;
    std::string d;
    std::vector<std::string> e;
    uint64_t f = 0;
    EXPECT_TRUE(root.get("a", a));
    EXPECT_TRUE(root.get("b", b));
    EXPECT_TRUE(root.get("c", c));
    EXPECT_TRUE(root.get("d", d));
    EXPECT_TRUE(root.get("e", e));
    EXPECT_TRUE(root.get("f", f));
    EXPECT_EQ(a, 5u);
    EXPECT_DOUBLE_EQ(b, 2.5);
    EXPECT_TRUE(c);
    EXPECT_EQ(d, "text");
    EXPECT_EQ(e, (std::vector<std::string>{"x", "y"}));
    EXPECT_EQ(f, 1'000'000'000u);
}

TEST(ConfigNode, AbsentOptionalKeyLeavesDefault) {
    const ConfigNode root = parse("a: 1\n");
    uint64_t missing = 42;
    EXPECT_FALSE(root.get("missing", missing));
    EXPECT_EQ(missing, 42u);
}

TEST(ConfigNode, MissingRequiredKeyNamesFileLineAndKey) {
    const ConfigNode root = parse("hbm:\n  stacks: 5\n");
    const ConfigNode hbm = root.child("hbm");
    uint64_t rate = 0;
    EXPECT_THAT(config_error([&] { hbm.require("pin_rate", rate); }),
                AllOf(StartsWith("test.yaml:2:3: hbm.pin_rate: "), HasSubstr("missing")));
}

TEST(ConfigNode, WrongTypeIsReportedWithLocation) {
    const ConfigNode root = parse("sm:\n  count: many\n");
    uint64_t count = 0;
    EXPECT_THAT(config_error([&] { root.child("sm").get("count", count); }),
                AllOf(StartsWith("test.yaml:2:10: sm.count: "), HasSubstr("'many'")));
}

TEST(ConfigNode, NegativeSizeIsRejected) {
    const ConfigNode root = parse("stacks: -5\n");
    uint64_t stacks = 0;
    EXPECT_THAT(config_error([&] { root.get("stacks", stacks); }),
                HasSubstr("must not be negative"));
}

TEST(ConfigNode, MapWhereScalarExpected) {
    const ConfigNode root = parse("name: {a: 1}\n");
    std::string name;
    EXPECT_THAT(config_error([&] { root.get("name", name); }), HasSubstr("got a map"));
}

TEST(ConfigNode, UnknownKeySuggestsTheClosestKnownKey) {
    const ConfigNode root = parse("stacks: 5\nbus_widht_bits: 1024\n");
    uint64_t v = 0;
    root.get("stacks", v);
    root.get("bus_width_bits", v);
    EXPECT_THAT(config_error([&] { root.reject_unknown_keys(); }),
                AllOf(StartsWith("test.yaml:2:1: bus_widht_bits: unknown key"),
                      HasSubstr("did you mean 'bus_width_bits'")));
}

TEST(ConfigNode, RecursiveCheckFindsNestedUnknownKeys) {
    const ConfigNode root = parse("a:\n  b: 1\n  zz: 2\n");
    uint64_t v = 0;
    root.child("a").get("b", v);
    EXPECT_THAT(config_error([&] { root.reject_unknown_keys_recursive(); }),
                StartsWith("test.yaml:3:3: a.zz: unknown key"));
}

TEST(ConfigNode, ChoiceListsAllowedValues) {
    const ConfigNode root = parse("layout: xy\n");
    std::string layout;
    EXPECT_THAT(config_error([&] {
                    root.get_choice("layout", layout, {"nn", "nt"});
                }),
                HasSubstr("not one of: nn, nt"));
}

TEST(ConfigNode, QuantityErrorsCarryLocation) {
    const ConfigNode root = parse("clock: 1830\n");
    double hz = 0;
    EXPECT_THAT(config_error([&] { root.get_quantity("clock", Dimension::Frequency, hz); }),
                AllOf(StartsWith("test.yaml:1:8: clock: "), HasSubstr("no unit")));
}

TEST(EditDistance, Basics) {
    EXPECT_EQ(edit_distance("stacks", "stacks"), 0u);
    EXPECT_EQ(edit_distance("stakcs", "stacks"), 2u);
    EXPECT_EQ(edit_distance("", "abc"), 3u);
}

}  // namespace
}  // namespace sim
