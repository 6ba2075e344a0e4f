// SPDX-License-Identifier: MIT
#include "sim/config/param_table.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "sim/config/loader.h"
#include "tests/testing/config_error.h"

namespace sim {
namespace {

using testing::config_error;
using ::testing::HasSubstr;
using ::testing::StartsWith;

struct QueueParams {
    uint32_t depth = 16;
    bool open = true;
    bool verbose = false;
};

ParamTable<QueueParams> queue_table() {
    ParamTable<QueueParams> t;
    t.integer("depth", &QueueParams::depth, 1, 64, "requests", "entries in the queue");
    t.options("policy", &QueueParams::open, {{"open", true}, {"closed", false}}, "row policy");
    t.flag("verbose", &QueueParams::verbose, "print more");
    return t;
}

ConfigNode section(const std::string& text) {
    return ConfigNode::root_of(parse_config_text(text, "test.yaml")).child("queue");
}

TEST(ParamTable, AbsentKeysKeepTheStructsDefaults) {
    QueueParams p;
    queue_table().read(section("queue: {}\n"), p);
    EXPECT_EQ(p.depth, 16u);
    EXPECT_TRUE(p.open);
    EXPECT_FALSE(p.verbose);
}

TEST(ParamTable, PresentKeysOverwriteTheirMembers) {
    QueueParams p;
    queue_table().read(section("queue:\n  depth: 8\n  policy: closed\n  verbose: true\n"), p);
    EXPECT_EQ(p.depth, 8u);
    EXPECT_FALSE(p.open);
    EXPECT_TRUE(p.verbose);
}

TEST(ParamTable, OutOfRangeNamesFileLineKeyAndRange) {
    QueueParams p;
    EXPECT_THAT(config_error([&] { queue_table().read(section("queue:\n  depth: 65\n"), p); }),
                AllOf(StartsWith("test.yaml:2:"), HasSubstr("queue.depth: = 65"),
                      HasSubstr("must be between 1 and 64")));
    EXPECT_THAT(config_error([&] { queue_table().read(section("queue:\n  depth: 0\n"), p); }),
                HasSubstr("must be between 1 and 64"));
    EXPECT_THAT(config_error([&] { queue_table().read(section("queue:\n  depth: -3\n"), p); }),
                HasSubstr("queue.depth"));
    EXPECT_THAT(config_error([&] { queue_table().read(section("queue:\n  policy: lazy\n"), p); }),
                HasSubstr("not one of: open, closed"));
}

TEST(ParamTable, DescribesEachKeyWithTheStructsInitialiserAsDefault) {
    const ParamTable<QueueParams> table = queue_table();
    const std::vector<ParamDoc>& docs = table.describe();
    ASSERT_EQ(docs.size(), 3u);
    EXPECT_EQ(docs[0].key, "depth");
    EXPECT_EQ(docs[0].default_text, "16");
    EXPECT_EQ(docs[0].range, "1 .. 64");
    EXPECT_EQ(docs[0].unit, "requests");
    EXPECT_EQ(docs[1].default_text, "open");
    EXPECT_EQ(docs[1].range, "open, closed");
    EXPECT_EQ(docs[2].default_text, "false");
    std::ostringstream os;
    print_param_docs(os, "queue", "gpu", "A queue.", docs);
    EXPECT_THAT(os.str(), HasSubstr("### `queue` (gpu file)"));
    EXPECT_THAT(os.str(), HasSubstr("| `depth` | integer | `16` | 1 .. 64 | requests | entries in "
                                    "the queue |"));
}

struct LinkParams {
    double latency = 1e-6;
    double chunk = 4096;
    double efficiency = 0.9;
};

ParamTable<LinkParams> link_table() {
    ParamTable<LinkParams> t;
    t.quantity("latency", &LinkParams::latency, Dimension::Time, 0, 1, "per hop");
    t.quantity("chunk", &LinkParams::chunk, Dimension::Size, 128, 1e9, "bytes per step");
    t.number("efficiency", &LinkParams::efficiency, 0, 1, true, "ratio", "share of the rate");
    return t;
}

TEST(ParamTable, QuantitiesAreReadInTheBaseUnitAndNumbersCheckAnOpenLowerBound) {
    LinkParams p;
    link_table().read(section("queue:\n  latency: 2us\n  chunk: 1KiB\n  efficiency: 1\n"), p);
    EXPECT_DOUBLE_EQ(p.latency, 2e-6);
    EXPECT_DOUBLE_EQ(p.chunk, 1024);
    EXPECT_DOUBLE_EQ(p.efficiency, 1);
    EXPECT_THAT(config_error([&] { link_table().read(section("queue:\n  chunk: 64B\n"), p); }),
                HasSubstr("queue.chunk: = 64 B is out of range: must be between 128 and 1e+09"));
    EXPECT_THAT(config_error([&] { link_table().read(section("queue:\n  efficiency: 0\n"), p); }),
                HasSubstr("must be above 0 and at most 1"));
    EXPECT_THAT(config_error([&] { link_table().read(section("queue:\n  latency: 5\n"), p); }),
                HasSubstr("queue.latency"));
    const ParamTable<LinkParams> table = link_table();
    EXPECT_EQ(table.describe()[0].default_text, "1e-06");
    EXPECT_EQ(table.describe()[0].unit, "s");
    EXPECT_EQ(table.describe()[2].range, "above 0 and at most 1");
}

struct ClockParams {
    double rate = 1e9;
    std::string name = "core";
};

TEST(ParamTable, PositiveQuantitiesRejectZeroAndInfinityAndTextKeepsItsDefault) {
    ParamTable<ClockParams> t;
    t.positive_quantity("rate", &ClockParams::rate, Dimension::Frequency, "conversions a second");
    t.text("name", &ClockParams::name, "what reports call it");
    ClockParams p;
    t.read(section("queue:\n  rate: 2GHz\n"), p);
    EXPECT_DOUBLE_EQ(p.rate, 2e9);
    EXPECT_EQ(p.name, "core");
    EXPECT_THAT(config_error([&] { t.read(section("queue:\n  rate: 0Hz\n"), p); }),
                HasSubstr("queue.rate: = 0 Hz is out of range: must be above 0"));
    EXPECT_THAT(config_error([&] { t.read(section("queue:\n  rate: 1e308GHz\n"), p); }),
                HasSubstr("queue.rate: = inf Hz is out of range"));
    EXPECT_EQ(t.describe()[0].range, "above 0");
    EXPECT_EQ(t.describe()[1].default_text, "core");
    // Defaults of one instance, where instances differ.
    ClockParams fast;
    fast.rate = 3e9;
    ParamTable<ClockParams> per_instance(fast);
    per_instance.positive_quantity("rate", &ClockParams::rate, Dimension::Frequency, "");
    EXPECT_EQ(per_instance.describe()[0].default_text, "3e+09");
}

}  // namespace
}  // namespace sim
