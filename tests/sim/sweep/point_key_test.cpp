// SPDX-License-Identifier: MIT
// Point keys change with what determines a result (file content, resolved config, overrides,
// seed, version) and not with what does not (file names, option order).
#include "sim/sweep/point_key.h"

#include <gtest/gtest.h>

#include "tests/testing/temp_dir.h"

namespace sim::sweep {
namespace {

Point point(std::vector<Option> options, std::vector<std::string> sets = {}) {
    Point p;
    p.options = std::move(options);
    p.sets = std::move(sets);
    return p;
}

TEST(PointKey, Sha256OfAKnownString) {
    EXPECT_EQ(sha256_hex("abc"),
              "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");  // FIPS 180-2
}

TEST(PointKey, ContentNotNamesDecide) {
    testing::TempDir dir;
    const std::string a = dir.write("a.yaml", "stacks: 5\n");
    const std::string b = dir.write("b.yaml", "stacks: 5\n");
    const std::string c = dir.write("c.yaml", "stacks: 6\n");
    const std::string t = dir.write("t.yaml", "ops: []\n");
    PointKeys keys("1.0");
    const auto k = [&](const std::string& hw, std::vector<std::string> sets = {},
                       const std::string& seed = "1") {
        return keys.key("run", point({{"hw", hw}, {"trace", t}, {"seed", seed}}, sets));
    };
    EXPECT_EQ(k(a), k(b));
    EXPECT_NE(k(a), k(c));
    EXPECT_EQ(k(a, {"stacks=6"}), k(c));  // the resolved config is what counts
    EXPECT_NE(k(a), k(a, {}, "2"));
    EXPECT_EQ(keys.key("run", point({{"seed", "1"}, {"hw", a}, {"trace", t}})), k(a));
    EXPECT_NE(keys.key("hbm", point({{"hw", a}, {"trace", t}, {"seed", "1"}})), k(a));
    EXPECT_NE(PointKeys("1.1").key("run", point({{"hw", a}, {"trace", t}, {"seed", "1"}})), k(a));
    EXPECT_EQ(k(a).size(), 16u);
}

TEST(PointKey, AChangedTraceChangesTheKey) {
    testing::TempDir dir;
    const std::string hw = dir.write("hw.yaml", "x: 1\n");
    const std::string t = dir.write("t.yaml", "ops: []\n");
    PointKeys before("1.0");
    const std::string k1 = before.key("run", point({{"hw", hw}, {"trace", t}}));
    dir.write("t.yaml", "ops: [1]\n");
    PointKeys after("1.0");
    EXPECT_NE(after.key("run", point({{"hw", hw}, {"trace", t}})), k1);
}

}  // namespace
}  // namespace sim::sweep
