// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include "sim/core/error.h"
#include "sim/stats/group.h"

namespace sim {
namespace {

TEST(Stats, HierarchyGivesPaths) {
    StatGroup root(nullptr, "");
    StatGroup gpu(&root, "gpu");
    StatGroup& sm = gpu.add_group("sm0");
    Counter& issued = sm.add_counter("issued", "count", "warp instructions issued");
    issued += 41;
    ++issued;
    EXPECT_EQ(sm.path(), "gpu.sm0");
    const Json j = root.to_json();
    EXPECT_EQ(j["gpu"]["sm0"]["issued"]["value"], 42);
    EXPECT_EQ(j["gpu"]["sm0"]["issued"]["unit"], "count");
    EXPECT_EQ(j["gpu"]["sm0"]["issued"]["description"], "warp instructions issued");
    EXPECT_EQ(root.find("gpu.sm0.issued"), &issued);
    std::string text;
    root.to_text(text);
    EXPECT_EQ(text, "gpu.sm0.issued 42 # warp instructions issued (count)\n");
}

TEST(Stats, DuplicateNamesAreABug) {
    StatGroup root(nullptr, "");
    root.add_scalar("x", "s", "time");
    EXPECT_THROW(root.add_counter("x", "count", "again"), SimBug);
    EXPECT_THROW(root.add_group("x"), SimBug);
}

TEST(Stats, DistributionSummaries) {
    StatGroup root(nullptr, "");
    Distribution& d = root.add_distribution("latency", "ns", "read latency");
    for (int i = 1; i <= 100; ++i)
        d.sample(i);
    EXPECT_EQ(d.count(), 100u);
    EXPECT_DOUBLE_EQ(d.mean(), 50.5);
    EXPECT_DOUBLE_EQ(d.quantile(0.5), 50);
    EXPECT_DOUBLE_EQ(d.quantile(0.99), 99);
    const Json j = d.to_json();
    EXPECT_EQ(j["value"]["min"], 1.0);
    EXPECT_EQ(j["value"]["max"], 100.0);
    EXPECT_NEAR(j["value"]["stddev"].get<double>(), 28.866, 1e-3);
}

TEST(Stats, LargeDistributionUsesPSquareEstimates) {
    StatGroup root(nullptr, "");
    Distribution& d = root.add_distribution("x", "1", "uniform samples");
    const int n = 20000;
    for (int i = 0; i < n; ++i)
        d.sample((i * 7919) % n);  // a permutation of 0..n-1
    EXPECT_NEAR(d.quantile(0.5), n * 0.5, n * 0.02);
    EXPECT_NEAR(d.quantile(0.99), n * 0.99, n * 0.02);
}

TEST(Stats, FormulaIsEvaluatedAtDumpTime) {
    StatGroup root(nullptr, "");
    Counter& hits = root.add_counter("hits", "count", "row hits");
    Counter& total = root.add_counter("accesses", "count", "accesses");
    root.add_formula("hit_rate", "ratio", "hits / accesses",
                     [&] { return total.value() ? double(hits.value()) / total.value() : 0.0; });
    hits += 3;
    total += 4;
    EXPECT_DOUBLE_EQ(root.to_json()["hit_rate"]["value"].get<double>(), 0.75);
}

TEST(Stats, ResetClearsEverything) {
    StatGroup root(nullptr, "");
    Counter& c = root.add_group("a").add_counter("c", "count", "c");
    c += 5;
    root.reset();
    EXPECT_EQ(c.value(), 0u);
}

TEST(Stats, ChildGroupUnregistersOnDestruction) {
    StatGroup root(nullptr, "");
    { StatGroup temp(&root, "temp"); }
    EXPECT_EQ(root.find_group("temp"), nullptr);
    EXPECT_NO_THROW(StatGroup again(&root, "temp"));
}

}  // namespace
}  // namespace sim
