// SPDX-License-Identifier: MIT
// Shipped presets by name from any working directory (--hw h100, extends: h100, --topology
// dgx_h100), `wallsim list` showing them, `wallsim --help` listing every command, and
// tools/gpu_experiment --help.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <fstream>

#include "tests/testing/temp_dir.h"
#include "tests/testing/wallsim_process.h"

namespace sim {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::ProcessResult;
using testing::slurp;

// `command` run in dir (not the source tree), stdout and stderr captured.
ProcessResult run_in(const testing::TempDir& dir, const std::string& command) {
    const auto out = dir.path() / "stdout.txt";
    const auto err = dir.path() / "stderr.txt";
    const std::string cmd = "cd " + dir.path().string() + " && " + command + " >" + out.string() +
                            " 2>" + err.string() + " </dev/null";
    const int status = std::system(cmd.c_str());
    ProcessResult r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = slurp(out);
    r.err = slurp(err);
    return r;
}

const std::string kBin = WALLSIM_BINARY;
const std::string kTrace = std::string(WALLSIM_SOURCE_DIR) + "/traces/examples/vector_add.yaml";

TEST(Presets, HwByNameFromAnotherDirectory) {
    testing::TempDir dir;
    const ProcessResult r = run_in(dir, kBin + " run --hw h100 --fidelity analytic --trace " +
                                            kTrace + " --out out --no-progress");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_THAT(slurp(dir.path() / "out" / "stats.json"), HasSubstr("NVIDIA H100 SXM5 80GB"));
    // The same run from the file gives the same stats.
    const ProcessResult f =
        run_in(dir, kBin + " run --hw " + WALLSIM_SOURCE_DIR + "/configs/hw/h100.yaml " +
                        "--fidelity analytic --trace " + kTrace + " --out out2 --no-progress");
    ASSERT_EQ(f.code, 0) << f.err;
    const std::string a = slurp(dir.path() / "out" / "ops.csv");
    EXPECT_EQ(a, slurp(dir.path() / "out2" / "ops.csv"));
}

TEST(Presets, ExtendsByNameAndAFilePathStillWorks) {
    testing::TempDir dir;
    {
        std::ofstream f(dir.path() / "wide.yaml");
        f << "extends: h100\nname: wide H100\nsm:\n  count: 144\n";
    }
    const ProcessResult r = run_in(dir, kBin + " validate-config wide.yaml");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("wide H100"));
    EXPECT_THAT(r.out, HasSubstr("sm_count 144"));
    const ProcessResult bad = run_in(dir, kBin + " validate-config h1000");
    EXPECT_EQ(bad.code, 2);
    EXPECT_THAT(bad.err, HasSubstr("'h1000' is neither a preset in configs/hw"));
    EXPECT_THAT(bad.err, HasSubstr("h100"));
}

TEST(Presets, TopologyByName) {
    testing::TempDir dir;
    const ProcessResult r = run_in(dir, kBin + " net --topology dgx_h100 --sizes 1MiB");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("allreduce"));
}

TEST(Presets, ListShowsThem) {
    testing::TempDir dir;
    const ProcessResult r = run_in(dir, kBin + " list");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("hw: a100 h100 h200"));
    EXPECT_THAT(r.out, HasSubstr("dgx_h100"));
    EXPECT_THAT(r.out, HasSubstr("technology: tsmc_4n tsmc_n7"));
}

TEST(ListParams, ConfigurationDocHoldsTheCurrentOutput) {
    testing::TempDir dir;
    const ProcessResult r = run_in(dir, kBin + " list --params");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("### `hbm.controller`"));
    const std::string doc = slurp(std::string(WALLSIM_SOURCE_DIR) + "/docs/configuration.md");
    const std::string begin = "<!-- begin: wallsim list --params (tools/update_params_doc) -->\n\n";
    const std::string end = "<!-- end: wallsim list --params -->";
    const size_t from = doc.find(begin), to = doc.find(end);
    ASSERT_NE(from, std::string::npos) << "docs/configuration.md lacks the list's markers";
    ASSERT_NE(to, std::string::npos);
    EXPECT_EQ(doc.substr(from + begin.size(), to - from - begin.size()), r.out)
        << "docs/configuration.md is stale: run tools/update_params_doc";
}

TEST(ListParams, OneSectionOrAnErrorNamingTheKnownOnes) {
    testing::TempDir dir;
    const ProcessResult one = run_in(dir, kBin + " list --params hbm.controller");
    ASSERT_EQ(one.code, 0) << one.err;
    EXPECT_THAT(one.out, HasSubstr("| `read_queue` | integer | `32` | 1 .. 4096 | requests |"));
    const ProcessResult unknown = run_in(dir, kBin + " list --params hbm.nothing");
    EXPECT_EQ(unknown.code, 2);
    EXPECT_THAT(unknown.err,
                HasSubstr("no described section or kind of file 'hbm.nothing'; expected one "
                          "of: "));
    EXPECT_THAT(unknown.err, HasSubstr("hbm.controller"));
    const ProcessResult file = run_in(dir, kBin + " list --params network");
    ASSERT_EQ(file.code, 0) << file.err;
    EXPECT_THAT(file.out, HasSubstr("### `links.<link>` (network file)"));
    EXPECT_THAT(file.out, HasSubstr("### `nccl` (network file)"));
    const ProcessResult cim = run_in(dir, kBin + " list --params cim");
    ASSERT_EQ(cim.code, 0) << cim.err;
    EXPECT_THAT(cim.out, HasSubstr("### `crossbar` (cim file)"));
    EXPECT_THAT(cim.out, HasSubstr("| `rows` | integer | `required` | 1 .. 4096 | word lines |"));
    EXPECT_THAT(cim.out, HasSubstr("### `area` (cim file)"));
    EXPECT_THAT(cim.out, Not(HasSubstr("(gpu file)")));
    const ProcessResult model = run_in(dir, kBin + " list --params model");
    ASSERT_EQ(model.code, 0) << model.err;
    EXPECT_THAT(model.out, HasSubstr("### `(top level)` (model file)"));
    EXPECT_THAT(model.out, HasSubstr("| `kv_heads` | integer | `heads` | at least 1 | heads |"));
    const ProcessResult bad = run_in(dir, kBin + " list --parms");
    EXPECT_EQ(bad.code, 2);
    EXPECT_THAT(bad.err, HasSubstr("--parms"));
}

TEST(Help, ListsEveryCommand) {
    testing::TempDir dir;
    const ProcessResult r = run_in(dir, kBin + " --help");
    ASSERT_EQ(r.code, 0) << r.err;
    for (const char* command : {"run", "list", "validate-config", "validate-trace", "hbm", "cim",
                                "cost", "memory", "net", "systolic"})
        EXPECT_THAT(r.out, HasSubstr("\n  " + std::string(command) + " ")) << command;
}

TEST(Help, GpuExperimentAnswersHelp) {
    testing::TempDir dir;
    const ProcessResult r =
        run_in(dir, std::string(WALLSIM_SOURCE_DIR) + "/tools/gpu_experiment --help");
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("tools/gpu_experiment roofline"));
}

}  // namespace
}  // namespace sim
