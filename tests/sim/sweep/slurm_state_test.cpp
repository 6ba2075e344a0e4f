// SPDX-License-Identifier: MIT
// Parsing what sbatch, squeue, sacct and scontrol print, and which task ends deserve a retry.
#include "sim/sweep/slurm_state.h"

#include <gtest/gtest.h>

#include "sim/sweep/slurm_backend.h"
#include "sim/sweep/sweep_dir.h"
#include "tests/testing/temp_dir.h"

namespace sim::sweep {
namespace {

TEST(SlurmState, SacctStatesOfTheArraysTasks) {
    const auto s = parse_sacct_states(
        "42_0|COMPLETED\n42_1|NODE_FAIL\n42_1.batch|FAILED\n42_[2-3]|PENDING\n"
        "43_0|FAILED\n42_4|CANCELLED by 0\n",
        "42");
    ASSERT_EQ(s.size(), 3u);
    EXPECT_EQ(s.at(0), "COMPLETED");
    EXPECT_EQ(s.at(1), "NODE_FAIL");
    EXPECT_EQ(s.at(4), "CANCELLED");
}

TEST(SlurmState, ScontrolStatesWhenThereIsNoAccounting) {
    const auto s = parse_scontrol_states(
        "JobId=8 ArrayJobId=7 ArrayTaskId=1 JobName=x JobState=FAILED Reason=NonZeroExitCode\n"
        "JobId=7 ArrayJobId=7 ArrayTaskId=0 JobName=x JobState=BOOT_FAIL Reason=None\n"
        "JobId=9 ArrayJobId=9 ArrayTaskId=0 JobName=y JobState=COMPLETED\n",
        "7");
    ASSERT_EQ(s.size(), 2u);
    EXPECT_EQ(s.at(0), "BOOT_FAIL");
    EXPECT_EQ(s.at(1), "FAILED");
}

TEST(SlurmState, SqueueCountsQueuedAndRunning) {
    const auto c = parse_squeue("5_0|RUNNING\n5_1|PENDING\n5_2|RUNNING\n");
    EXPECT_EQ(c.queued, 3u);
    EXPECT_EQ(c.running, 2u);
    EXPECT_EQ(parse_squeue("").queued, 0u);
}

TEST(SlurmState, OnlyNodeFailuresAreRetried) {
    for (const char* s : {"NODE_FAIL", "BOOT_FAIL", "PREEMPTED", ""})
        EXPECT_TRUE(node_reason(s)) << s;
    for (const char* s : {"COMPLETED", "FAILED", "TIMEOUT", "CANCELLED", "OUT_OF_MEMORY"})
        EXPECT_FALSE(node_reason(s)) << s;
}

TEST(SlurmState, MaxArraySize) {
    EXPECT_EQ(parse_max_array_size("MaxArraySize            = 40001\nMaxJobCount = 1\n"), 40001u);
    EXPECT_EQ(parse_max_array_size("nothing here"), 1001u);
}

TEST(SlurmJobScript, OneArrayTaskPerPointWithTheRequestedLimits) {
    testing::TempDir tmp;
    const SweepDir dir((tmp.path() / "s").string(), true);
    SlurmOptions o;
    o.partition = "gpu";
    o.time_limit = "30:00";
    o.max_running = 4;
    const std::string script = job_script("demo", dir, 10, o, "/work");
    EXPECT_NE(script.find("#SBATCH --array=0-9%4\n"), std::string::npos) << script;
    EXPECT_NE(script.find("#SBATCH --partition='gpu'\n"), std::string::npos);
    EXPECT_NE(script.find("#SBATCH --time='30:00'\n"), std::string::npos);
    EXPECT_NE(script.find("cd '/work'"), std::string::npos);
    EXPECT_EQ(task_file({"abc", {"/bin/wallsim", "run", "--out", "x y"}}),
              "abc\n/bin/wallsim\nrun\n--out\nx y\n");
}

}  // namespace
}  // namespace sim::sweep
