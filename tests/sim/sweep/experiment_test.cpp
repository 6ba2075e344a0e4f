// SPDX-License-Identifier: MIT
// Experiment files: axes (values, ranges), product and zip, metrics, and bad input reported
// with file, line and key.
#include "sim/sweep/experiment.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/testing/config_error.h"
#include "tests/testing/temp_dir.h"

namespace sim::sweep {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

const std::vector<std::string> kCommands = {"run", "hbm", "net"};

Experiment load(const testing::TempDir& dir, const std::string& text) {
    return load_experiment(dir.write("exp.yaml", text), kCommands);
}

TEST(Experiment, ProductVariesTheLastAxisFastest) {
    testing::TempDir dir;
    const Experiment e = load(dir,
                              "axes:\n"
                              "  - {set: sm.count, values: [66, 132]}\n"
                              "  - {option: seed, range: {from: 1, to: 3}}\n");
    EXPECT_EQ(e.name, "exp");
    EXPECT_EQ(e.command, "run");
    const auto points = expand(e);
    ASSERT_EQ(points.size(), 6u);
    EXPECT_THAT(points[0].axis_values, ElementsAre("66", "1"));
    EXPECT_THAT(points[1].axis_values, ElementsAre("66", "2"));
    EXPECT_THAT(points[5].axis_values, ElementsAre("132", "3"));
    EXPECT_THAT(points[4].sets, ElementsAre("sm.count=132"));
    ASSERT_EQ(points[4].options.size(), 1u);
    EXPECT_EQ(points[4].options[0].name, "seed");
    EXPECT_EQ(points[4].options[0].value, "2");
}

TEST(Experiment, ZipPairsTheValuesAndNeedsEqualLengths) {
    testing::TempDir dir;
    const Experiment e = load(dir,
                              "combine: zip\n"
                              "axes:\n"
                              "  - {set: hbm.stacks, values: [5, 6]}\n"
                              "  - {set: hbm.capacity, values: [80GB, 96GB], name: cap}\n");
    const auto points = expand(e);
    ASSERT_EQ(points.size(), 2u);
    EXPECT_THAT(points[1].sets, ElementsAre("hbm.stacks=6", "hbm.capacity=96GB"));
    EXPECT_EQ(e.axes[1].column, "cap");
    const std::string err = testing::config_error([&] {
        load(dir, "combine: zip\naxes:\n  - {set: a, values: [1, 2]}\n  - {set: b, values: [1]}\n");
    });
    EXPECT_THAT(err, HasSubstr("exp.yaml"));
    EXPECT_THAT(err, HasSubstr("axes[1]"));
    EXPECT_THAT(err, HasSubstr("one length"));
}

TEST(Experiment, RangesByStepCountAndLogScaleWithAUnit) {
    testing::TempDir dir;
    const Experiment e = load(dir,
                              "axes:\n"
                              "  - {set: a, range: {from: 0.1, to: 0.5, step: 0.1}}\n"
                              "  - {set: b, range: {from: 3.2, to: 6.4, count: 5, unit: Gbps}}\n"
                              "  - {set: c, range: {from: 1, to: 1000, count: 4, scale: log}}\n");
    EXPECT_THAT(e.axes[0].values, ElementsAre("0.1", "0.2", "0.3", "0.4", "0.5"));
    EXPECT_THAT(e.axes[1].values, ElementsAre("3.2Gbps", "4Gbps", "4.8Gbps", "5.6Gbps", "6.4Gbps"));
    EXPECT_THAT(e.axes[2].values, ElementsAre("1", "10", "100", "1000"));
}

TEST(Experiment, RelativePathsAreTakenFromTheExperimentsFolder) {
    testing::TempDir dir;
    dir.write("hw/gpu.yaml", "name: x\n");
    const std::string path = dir.write("exps/exp.yaml",
                                       "base: {hw: ../hw/gpu.yaml, fidelity: analytic}\n"
                                       "axes: [{option: trace, values: [../hw/gpu.yaml, none]}]\n");
    const Experiment e = load_experiment(path, kCommands);
    EXPECT_EQ(e.options[0].value, (dir.path() / "hw/gpu.yaml").string());
    EXPECT_EQ(e.options[1].value, "analytic");
    EXPECT_EQ(e.axes[0].values[0], "../hw/gpu.yaml");  // results.csv shows what was written
    EXPECT_EQ(e.axes[0].args[0], (dir.path() / "hw/gpu.yaml").string());
    EXPECT_EQ(e.axes[0].args[1], "none");
    const auto args = point_arguments(e, expand(e)[0], "o");
    EXPECT_THAT(args, ElementsAre("run", "--hw", e.options[0].value, "--fidelity", "analytic",
                                  "--trace", e.axes[0].args[0], "--out", "o"));
}

TEST(Experiment, MetricsFromStatsAndOps) {
    testing::TempDir dir;
    const Experiment e = load(dir,
                              "axes: [{set: a, values: [1]}]\n"
                              "metrics:\n"
                              "  t: run.sim_time\n"
                              "  p99: {stats: run.op_time.p99}\n"
                              "  g: {ops: time_us, aggregate: mean, where: {kind: gemm}}\n");
    ASSERT_EQ(e.metrics.size(), 3u);
    EXPECT_EQ(e.metrics[0].path, "run.sim_time");
    EXPECT_EQ(e.metrics[1].source, Metric::Source::Stats);
    EXPECT_EQ(e.metrics[2].source, Metric::Source::Ops);
    EXPECT_EQ(e.metrics[2].aggregate, "mean");
    EXPECT_EQ(e.metrics[2].file, "ops.csv");
    ASSERT_EQ(e.metrics[2].where.size(), 1u);
    EXPECT_EQ(e.metrics[2].where[0].second, "gemm");
}

TEST(Experiment, BadInputNamesFileLineAndKey) {
    testing::TempDir dir;
    const auto err = [&](const std::string& text) {
        return testing::config_error([&] { load(dir, text); });
    };
    EXPECT_THAT(err("axes: [{set: a, valeus: [1]}]\n"), HasSubstr("valeus: unknown key"));
    EXPECT_THAT(err("axes: [{set: a, values: [1]}]\ncommand: hmb\n"),
                HasSubstr("'hmb' is not a wallsim command"));
    EXPECT_THAT(err("axes: [{set: a, values: [1]}]\nbase: {out: x}\n"),
                HasSubstr("base.out: is set by the sweep itself"));
    EXPECT_THAT(err("axes: [{set: a, range: {from: 5, to: 1}}]\n"), HasSubstr("must be >= from"));
    EXPECT_THAT(err("axes: [{set: a, range: {from: 0, to: 1, step: -1}}]\n"),
                HasSubstr("step: must be > 0"));
    EXPECT_THAT(err("axes: [{set: a, values: []}]\n"), HasSubstr("non-empty list"));
    EXPECT_THAT(err("axes: [{set: a, option: hw, values: [1]}]\n"), HasSubstr("exactly one"));
    EXPECT_THAT(err("axes: [{set: a, values: [1]}]\ncombine: cross\n"), HasSubstr("combine"));
    EXPECT_THAT(err("axes: [{set: a, values: [1]}, {set: a, values: [2]}]\n"),
                HasSubstr("two axes have the column 'a'"));
    EXPECT_THAT(err("axes: [{set: a, values: [1]}]\nmetrics: {m: {ops: x, aggregate: median}}\n"),
                HasSubstr("aggregate"));
    EXPECT_THAT(err("axes: [{set: a, values: [1]}]\naxes2: 1\n"), HasSubstr("exp.yaml:2"));
    EXPECT_THAT(err("axes: [{set: a, range: {from: 0, to: 1e9}}]\n"), HasSubstr("more than"));
    EXPECT_THAT(testing::config_error([&] { load_experiment("/nonexistent.yaml", kCommands); }),
                HasSubstr("/nonexistent.yaml: file not found"));
}

}  // namespace
}  // namespace sim::sweep
