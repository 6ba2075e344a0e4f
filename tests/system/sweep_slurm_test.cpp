// SPDX-License-Identifier: MIT
// `wallsim sweep --slurm` on a real Slurm: a single-node cluster (munged, slurmctld and slurmd
// on localhost, started by tests/system/slurm/cluster.sh) runs an 8-point sweep as a job array,
// and its results must equal those of local jobs. A cluster that cannot start fails the test
// with the daemons' logs; the daemons are stopped however the test ends (a watchdog stops them
// if the test process itself dies).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "tests/system/sweep_testing.h"
#include "tests/testing/temp_dir.h"
#include "tests/testing/wallsim_process.h"

namespace sim {
namespace {

using ::testing::HasSubstr;
using testing::slurp;
using testing::wallsim;

class SlurmCluster {
  public:
    explicit SlurmCluster(const std::filesystem::path& dir) : dir_(dir) {
        const auto log = dir.parent_path() / "cluster-start.log";
        const std::string cmd = script() + " start " + dir.string() + " " +
                                std::to_string(::getpid()) + " >" + log.string() + " 2>&1";
        started_ = std::system(cmd.c_str()) == 0;
        log_ = slurp(log);
    }
    ~SlurmCluster() {
        const std::string cmd = script() + " stop " + dir_.string() + " >/dev/null 2>&1";
        if (std::system(cmd.c_str()) != 0) ADD_FAILURE() << "cluster.sh stop failed";
    }
    SlurmCluster(const SlurmCluster&) = delete;
    SlurmCluster& operator=(const SlurmCluster&) = delete;

    bool started() const { return started_; }
    const std::string& log() const { return log_; }
    std::string conf() const { return (dir_ / "slurm.conf").string(); }

  private:
    static std::string script() { return testing::source_path("tests/system/slurm/cluster.sh"); }
    std::filesystem::path dir_;
    bool started_ = false;
    std::string log_;
};

TEST(SweepSlurm, AJobArrayGivesTheResultsOfLocalJobs) {
    testing::TempDir dir;
    SlurmCluster cluster(dir.path() / "c");
    ASSERT_TRUE(cluster.started()) << "the single-node Slurm did not start:\n" << cluster.log();
    ::setenv("SLURM_CONF", cluster.conf().c_str(), 1);

    const std::string exp = testing::write_experiment(
        dir, testing::sweep_experiment(2, {"3.2Gbps", "4Gbps", "5.2Gbps", "6.4Gbps"}));
    const auto local = dir.path() / "local", slurm = dir.path() / "slurm";
    const auto l = wallsim("sweep " + exp + " --jobs 2 --out " + local.string(), dir);
    ASSERT_EQ(l.code, 0) << l.err;
    const auto s =
        wallsim("sweep " + exp + " --slurm --max-running 4 --poll 1 --out " + slurm.string(), dir);
    ASSERT_EQ(s.code, 0) << s.err << "\n" << slurp(dir.path() / "c" / "slurmctld.log");
    EXPECT_THAT(s.err, HasSubstr("submitted 8 points as Slurm job"));

    const std::string results = slurp(slurm / "results.csv");
    EXPECT_EQ(testing::without_wall_time(results),
              testing::without_wall_time(slurp(local / "results.csv")));
    const auto rows = testing::csv_rows(results);
    ASSERT_EQ(rows.size(), 9u);
    for (size_t i = 1; i < rows.size(); ++i) {
        EXPECT_EQ(rows[i][6], "ok");
        EXPECT_NE(rows[i][8], "");  // the wall time the job script measured
        EXPECT_EQ(slurp(slurm / rows[i][9] / "stats.json"),
                  slurp(local / rows[i][9] / "stats.json"));
    }
    EXPECT_THAT(slurp(slurm / "slurm" / "job.sh"), HasSubstr("#SBATCH --array=0-7%4\n"));

    // Nothing left to run: a second sweep submits nothing.
    const auto again = wallsim("sweep " + exp + " --slurm --poll 1 --out " + slurm.string(), dir);
    EXPECT_EQ(again.code, 0) << again.err;
    EXPECT_THAT(again.err, HasSubstr("8 already done, 0 to run"));
    EXPECT_THAT(again.err, ::testing::Not(HasSubstr("submitted")));
}

}  // namespace
}  // namespace sim
