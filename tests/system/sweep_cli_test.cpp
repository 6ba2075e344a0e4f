// SPDX-License-Identifier: MIT
// `wallsim sweep` end to end on this machine: every point runs into a directory named by its
// inputs, a rerun reuses finished points, a changed input reruns only what it reaches, failing
// points are recorded and counted in the exit code, and bad input is one line with exit code 2.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <regex>

#include "tests/system/sweep_testing.h"
#include "tests/testing/temp_dir.h"
#include "tests/testing/wallsim_process.h"

namespace sim {
namespace {

using ::testing::HasSubstr;
using testing::slurp;
using testing::wallsim;

TEST(SweepCli, RunsEveryPointAndWritesOneRowEach) {
    testing::TempDir dir;
    const std::string exp =
        testing::write_experiment(dir, testing::sweep_experiment(2, {"4Gbps", "6Gbps"}));
    const auto out = dir.path() / "sweep";
    const auto r = wallsim("sweep " + exp + " --jobs 2 --out " + out.string(), dir);
    ASSERT_EQ(r.code, 0) << r.err;
    const auto rows = testing::csv_rows(slurp(out / "results.csv"));
    ASSERT_EQ(rows.size(), 5u);
    EXPECT_THAT(slurp(out / "results.csv"),
                HasSubstr("point,sm.count,hbm.pin_rate,time_s,bandwidth,gemm_us,status,error,"
                          "wall_s,dir\n"));
    for (size_t i = 1; i < rows.size(); ++i) {
        EXPECT_EQ(rows[i][6], "ok") << i;
        EXPECT_TRUE(std::filesystem::exists(out / rows[i][9] / "stats.json"));
        EXPECT_TRUE(std::regex_match(rows[i][9], std::regex("points/[0-9a-f]{16}")));
    }
    // Faster HBM: the memory-bound ops finish sooner; the compute-bound GEMMs do not change.
    EXPECT_LT(std::stod(rows[2][3]), std::stod(rows[1][3]));
    EXPECT_EQ(rows[2][5], rows[1][5]);
    // More SMs: the GEMMs run faster.
    EXPECT_LT(std::stod(rows[3][5]), std::stod(rows[1][5]));
}

TEST(SweepCli, RerunsOnlyWhatAChangedInputReaches) {
    testing::TempDir dir;
    const auto out = dir.path() / "sweep";
    const auto sweep = [&](const std::vector<std::string>& rates) {
        const std::string exp = testing::write_experiment(dir, testing::sweep_experiment(2, rates));
        return wallsim("sweep " + exp + " --jobs 2 --out " + out.string(), dir);
    };
    auto r = sweep({"4Gbps", "6Gbps"});
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string first = testing::without_wall_time(slurp(out / "results.csv"));
    r = sweep({"4Gbps", "6Gbps"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_THAT(r.err, HasSubstr("4 points, 4 already done, 0 to run"));
    EXPECT_EQ(testing::without_wall_time(slurp(out / "results.csv")), first);
    r = sweep({"4Gbps", "5Gbps"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_THAT(r.err, HasSubstr("4 points, 2 already done, 2 to run"));
    // A changed trace reaches every point.
    std::string trace = slurp(dir.path() / "trace.yaml");
    dir.write("trace.yaml", trace + "\n# edited\n");
    r = sweep({"4Gbps", "5Gbps"});
    EXPECT_THAT(r.err, HasSubstr("4 points, 0 already done, 4 to run"));
}

TEST(SweepCli, SameResultsWithOneJobOrMany) {
    testing::TempDir dir;
    const std::string exp =
        testing::write_experiment(dir, testing::sweep_experiment(2, {"4Gbps", "6Gbps"}));
    const auto a = dir.path() / "a", b = dir.path() / "b";
    ASSERT_EQ(wallsim("sweep " + exp + " --jobs 1 --out " + a.string(), dir).code, 0);
    ASSERT_EQ(wallsim("sweep " + exp + " --jobs 2 --out " + b.string(), dir).code, 0);
    EXPECT_EQ(testing::without_wall_time(slurp(a / "results.csv")),
              testing::without_wall_time(slurp(b / "results.csv")));
    const auto rows = testing::csv_rows(slurp(a / "results.csv"));
    for (size_t i = 1; i < rows.size(); ++i)
        EXPECT_EQ(slurp(a / rows[i][9] / "stats.json"), slurp(b / rows[i][9] / "stats.json"));
}

TEST(SweepCli, AFailingPointIsRecordedAndTheOthersRun) {
    testing::TempDir dir;
    // Three HBM stacks cannot hold the preset's 80 GB: those points fail with the config error.
    std::string text = testing::sweep_experiment(2, {"4Gbps"});
    text += "  - {set: hbm.stacks, values: [3, 5]}\n";
    const std::string exp = testing::write_experiment(dir, text);
    const auto out = dir.path() / "sweep";
    const auto r = wallsim("sweep " + exp + " --out " + out.string(), dir);
    EXPECT_EQ(r.code, 10 + 2) << r.err;  // 10 + the number of failed points
    EXPECT_THAT(r.err, HasSubstr("point 0 failed: wallsim: error:"));
    EXPECT_THAT(r.err, HasSubstr("2 of 4 points ok"));
    const auto rows = testing::csv_rows(slurp(out / "results.csv"));
    ASSERT_EQ(rows.size(), 5u);
    EXPECT_EQ(rows[1][7], "failed");
    EXPECT_THAT(rows[1][8], HasSubstr("hbm.capacity"));
    EXPECT_EQ(rows[1][4], "");  // no metric from a failed point
    EXPECT_EQ(rows[2][7], "ok");
    EXPECT_NE(rows[2][4], "");
}

TEST(SweepCli, AWrongMetricFailsThePointWithTheReason) {
    testing::TempDir dir;
    std::string text = testing::sweep_experiment(1, {"4Gbps"});
    text.replace(text.find("run.sim_time"), 12, "run.sim_tme");
    const std::string exp = testing::write_experiment(dir, text);
    const auto r = wallsim("sweep " + exp + " --out " + (dir.path() / "s").string(), dir);
    EXPECT_EQ(r.code, 11) << r.err;
    EXPECT_THAT(r.err, HasSubstr("metric time_s: stats.json has no 'run.sim_tme'"));
    EXPECT_THAT(r.err, HasSubstr("did you mean 'sim_time'"));
}

TEST(SweepCli, DryRunPrintsTheCommandsAndWritesNothing) {
    testing::TempDir dir;
    const std::string exp = testing::write_experiment(dir, testing::sweep_experiment(2, {"4Gbps"}));
    const auto out = dir.path() / "sweep";
    auto r = wallsim("sweep " + exp + " --dry-run --out " + out.string(), dir);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(testing::lines(r.out), 2u);
    EXPECT_THAT(r.out, HasSubstr(" run --hw "));
    EXPECT_THAT(r.out, HasSubstr("--set sm.count=66 --set hbm.pin_rate=4Gbps --out "));
    r = wallsim("sweep " + exp + " --dry-run --slurm --max-running 3 --out " + out.string(), dir);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("#SBATCH --array=0-1%3\n"));
    EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(SweepCli, BadInputIsOneLineAndLeavesNothing) {
    testing::TempDir dir;
    const auto out = dir.path() / "sweep";
    const std::string bad = dir.write("bad.yaml", "axes: [{set: sm.count, valus: [1]}]\n");
    auto r = wallsim("sweep " + bad + " --out " + out.string(), dir);
    testing::expect_bad_input(r, "bad.yaml:1:");
    EXPECT_THAT(r.err, HasSubstr("valus: unknown key"));
    EXPECT_FALSE(std::filesystem::exists(out));
    testing::expect_bad_input(wallsim("sweep " + dir.path().string() + "/none.yaml", dir),
                              "none.yaml: file not found");
    const std::string exp = testing::write_experiment(dir, testing::sweep_experiment(1, {"4Gbps"}));
    testing::expect_bad_input(wallsim("sweep " + exp + " --jobs 0", dir), "--jobs");
    testing::expect_bad_input(wallsim("sweep " + exp + " --partition p", dir),
                              "--partition: applies only with --slurm");
    dir.write("occupied/notes.txt", "mine\n");
    testing::expect_bad_input(
        wallsim("sweep " + exp + " --out " + (dir.path() / "occupied").string(), dir),
        "is not an earlier sweep");
}

}  // namespace
}  // namespace sim
