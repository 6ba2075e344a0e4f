// SPDX-License-Identifier: MIT
// Metrics read from a point's stats.json and ops.csv, and a wrong path named in the error.
#include "sim/sweep/metrics.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/testing/temp_dir.h"

namespace sim::sweep {
namespace {

using ::testing::HasSubstr;

Metric stats(const std::string& path) {
    Metric m;
    m.path = path;
    return m;
}

Metric ops(const std::string& column,
           const std::string& aggregate,
           std::vector<std::pair<std::string, std::string>> where = {}) {
    Metric m;
    m.source = Metric::Source::Ops;
    m.path = column;
    m.aggregate = aggregate;
    m.where = std::move(where);
    return m;
}

class Metrics : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_.write("stats.json",
                   R"({"meta": {"seed": 1}, "run": {"sim_time": {"value": 0.5, "unit": "s"},)"
                   R"( "op_time": {"value": {"mean": 2.0, "p99": 3.0}, "unit": "s"}}})");
        dir_.write("ops.csv",
                   "index,name,kind,time_us,intensity\n"
                   "0,\"a, quoted\",gemm,10,\n"
                   "1,b,gemm,30,2\n"
                   "2,c,softmax,5,1\n");
    }
    std::vector<MetricValue> read(const std::vector<Metric>& m) {
        return read_metrics(m, dir_.path().string());
    }
    testing::TempDir dir_;
};

TEST_F(Metrics, StatsPathsStepIntoAStatsValue) {
    const auto v = read({stats("run.sim_time"), stats("run.op_time.p99"), stats("meta.seed")});
    EXPECT_DOUBLE_EQ(*v[0].value, 0.5);
    EXPECT_DOUBLE_EQ(*v[1].value, 3.0);
    EXPECT_DOUBLE_EQ(*v[2].value, 1.0);
}

TEST_F(Metrics, OpsAggregatesOverTheMatchingRows) {
    const auto v = read({ops("time_us", "sum"), ops("time_us", "sum", {{"kind", "gemm"}}),
                         ops("time_us", "mean", {{"kind", "gemm"}}), ops("time_us", "max"),
                         ops("time_us", "min"), ops("index", "count", {{"kind", "softmax"}}),
                         ops("intensity", "mean"), ops("time_us", "mean", {{"kind", "conv"}})});
    EXPECT_DOUBLE_EQ(*v[0].value, 45);
    EXPECT_DOUBLE_EQ(*v[1].value, 40);
    EXPECT_DOUBLE_EQ(*v[2].value, 20);
    EXPECT_DOUBLE_EQ(*v[3].value, 30);
    EXPECT_DOUBLE_EQ(*v[4].value, 5);
    EXPECT_DOUBLE_EQ(*v[5].value, 1);
    EXPECT_DOUBLE_EQ(*v[6].value, 1.5);  // empty cells are skipped
    EXPECT_FALSE(v[7].value.has_value());
    EXPECT_TRUE(v[7].error.empty());  // no rows match: no value, but nothing is wrong
}

TEST_F(Metrics, AWrongPathOrColumnIsExplained) {
    const auto v = read({stats("run.sim_tme"), stats("run.op_time"), ops("time", "sum"),
                         ops("time_us", "sum", {{"knd", "gemm"}})});
    EXPECT_THAT(v[0].error, HasSubstr("no 'run.sim_tme'"));
    EXPECT_THAT(v[0].error, HasSubstr("did you mean 'sim_time'"));
    EXPECT_THAT(v[1].error, HasSubstr("not a number; name one of its fields: mean, p99"));
    EXPECT_THAT(v[2].error, HasSubstr("no column 'time'"));
    EXPECT_THAT(v[3].error, HasSubstr("no column 'knd'"));
}

}  // namespace
}  // namespace sim::sweep
