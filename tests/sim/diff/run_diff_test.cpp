// SPDX-License-Identifier: MIT
// The pieces of `wallsim diff` without a run: CSV reading, matching and ordering operators,
// the figures of a Pair, and the text and CSV reports.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "sim/core/error.h"
#include "sim/diff/csv_table.h"
#include "sim/diff/diff_report.h"
#include "sim/diff/run_diff.h"

namespace sim::diff {
namespace {

using ::testing::HasSubstr;

RunOutput run_with(std::vector<OpRow> ops, double sim_time, std::optional<double> mfu = {}) {
    RunOutput r;
    r.dir = "out";
    r.stats = {{"meta", {{"hw_name", "chip"}}},
               {"run", {{"sim_time", {{"value", sim_time}, {"unit", "s"}}}}}};
    if (mfu) r.stats["run"]["mfu"] = {{"value", *mfu}};
    r.ops = std::move(ops);
    return r;
}

TEST(DiffCsv, ReadsQuotedFieldsAsRfc4180WritesThem) {
    const CsvTable t = parse_csv("a,b,c\r\n\"x,y\",\"say \"\"hi\"\"\",\n\n\"two\nlines\",2,3", "f");
    ASSERT_EQ(t.size(), 3u);
    EXPECT_EQ(t[1], (std::vector<std::string>{"x,y", "say \"hi\"", ""}));
    EXPECT_EQ(t[2], (std::vector<std::string>{"two\nlines", "2", "3"}));
}

TEST(DiffCsv, AnUnclosedQuoteNamesFileAndLine) {
    EXPECT_THAT([] { parse_csv("a,b\n1,\"open\n", "ops.csv"); },
                ::testing::ThrowsMessage<ConfigError>(HasSubstr("ops.csv:2: a quoted field")));
}

TEST(DiffPair, AbsentSideCountsAsZeroInDeltaButHasNoRatio) {
    EXPECT_EQ(*Pair({2.0, 3.0}).delta(), 1.0);
    EXPECT_EQ(*Pair({2.0, 3.0}).ratio(), 1.5);
    EXPECT_EQ(*Pair({2.0, std::nullopt}).delta(), -2.0);
    EXPECT_FALSE(Pair({2.0, std::nullopt}).ratio());
    EXPECT_FALSE(Pair({0.0, 1.0}).ratio());
    EXPECT_FALSE(Pair({}).delta());
}

TEST(DiffRuns, MatchesByNameAndOrdersByLargestAbsoluteChange) {
    const RunOutput a = run_with({{"x", "gemm", 1.0, 5.0},
                                  {"y", "gemm", 1.0, 1.0},
                                  {"gone", "memcpy", 0.5, 0.1},
                                  {"z", "softmax", 1.0, 1.0}},
                                 3.5);
    const RunOutput b = run_with({{"z", "softmax", 1.0, 9.0},
                                  {"y", "gemm", 4.0, 1.0},
                                  {"x", "gemm", 0.1, 5.0},
                                  {"new", "gemm", 2.0, std::nullopt}},
                                 7.1);
    const RunDiff d = diff_runs(a, b, SortKey::Time);
    std::vector<std::string> order;
    for (const OpDelta& o : d.ops)
        order.push_back(o.name);
    // |dt|: y 3, new 2, x 0.9, gone 0.5, z 0 (z's energy change does not lift it by time).
    EXPECT_EQ(order, (std::vector<std::string>{"y", "new", "x", "gone", "z"}));
    EXPECT_EQ(d.only_a, 1u);
    EXPECT_EQ(d.only_b, 1u);
    EXPECT_EQ(d.ops[1].presence, Presence::OnlyB);
    EXPECT_EQ(d.ops[3].presence, Presence::OnlyA);
    EXPECT_EQ(d.ops[3].kind, "memcpy");

    const RunDiff by_energy = diff_runs(a, b, SortKey::Energy);
    EXPECT_EQ(by_energy.ops[0].name, "z");  // energy 1 -> 9

    // Totals: only those present; MFU absent from both runs is left out.
    ASSERT_EQ(d.totals.size(), 1u);
    EXPECT_EQ(d.totals[0].stat_path, "run.sim_time");
    EXPECT_DOUBLE_EQ(*d.totals[0].value.delta(), 3.6);
}

TEST(DiffRuns, MfuIsATotalWhenEitherRunHasIt) {
    const RunDiff d = diff_runs(run_with({}, 1.0, 0.4), run_with({}, 1.0), SortKey::Time);
    ASSERT_EQ(d.totals.size(), 2u);
    EXPECT_EQ(d.totals[1].label, "MFU");
    EXPECT_EQ(*d.totals[1].value.a, 0.4);
    EXPECT_FALSE(d.totals[1].value.b);
}

TEST(DiffReport, TextShowsTopRowsAndCsvShowsAll) {
    const RunOutput a = run_with({{"x", "gemm", 1e-3, 2.0}, {"y", "gemm", 2e-6, 1.0}}, 1e-3);
    const RunOutput b = run_with({{"x", "gemm", 2e-3, 2.5}, {"y", "gemm", 1e-6, 1.0}}, 2e-3, 0.5);
    const RunDiff d = diff_runs(a, b, SortKey::Time);
    const std::string text = format_text(a, b, d, SortKey::Time, 1);
    EXPECT_THAT(text, HasSubstr("1 of 2"));
    EXPECT_THAT(text, HasSubstr("+1 ms"));
    EXPECT_THAT(text, HasSubstr("2x"));
    EXPECT_THAT(text, HasSubstr("50 %"));
    EXPECT_THAT(text, ::testing::Not(HasSubstr("\ny ")));
    const std::string csv = format_csv(d);
    EXPECT_THAT(csv, HasSubstr("total,run.sim_time,,,simulated time,s,0.001,0.002,0.001,2\n"));
    EXPECT_THAT(csv, HasSubstr("total,run.mfu,,,MFU,ratio,,0.5,0.5,\n"));
    EXPECT_THAT(csv, HasSubstr("op,x,gemm,both,energy,J,2,2.5,0.5,1.25\n"));
    EXPECT_THAT(csv, HasSubstr("op,y,gemm,both,time,s,2e-06,1e-06,-1e-06,0.5\n"));
}

TEST(DiffReport, HumanUnitsUseSiPrefixes) {
    EXPECT_EQ(human(989.4e12, "FLOP/s"), "989.4 TFLOP/s");
    EXPECT_EQ(human(3.35e12, "B/s"), "3.35 TB/s");
    EXPECT_EQ(human(412.5e-6, "s"), "412.5 us");
    EXPECT_EQ(human(0.0, "J"), "0 J");
    EXPECT_EQ(human(0.401, "ratio"), "40.1 %");
    EXPECT_EQ(human(11, "count"), "11");
}

}  // namespace
}  // namespace sim::diff
