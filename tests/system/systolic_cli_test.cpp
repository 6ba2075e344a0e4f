// SPDX-License-Identifier: MIT
// End-to-end tests of `wallsim systolic` and `wallsim run` on the systolic presets: outputs,
// SCALE-Sim report columns, the TPU v1 memory-bound MLP/LSTM vs compute-bound CNN split, and
// exit code 2 with one line on bad input.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/testing/temp_dir.h"
#include "tests/testing/wallsim_process.h"

namespace sim {
namespace {

using ::testing::HasSubstr;

using Result = testing::ProcessResult;
using testing::expect_bad_input;
using testing::lines;
using testing::slurp;
using testing::wallsim;

const char* kConv =
    "Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filter, "
    "Strides,\nConv1,32,32,3,3,16,32,1,\nConv2,30,30,3,3,32,64,2,\n";

TEST(SystolicCli, HwFileWritesScaleSimReportsAndStats) {
    testing::TempDir dir;
    const std::string topo = dir.write("net.csv", kConv);
    const auto out = dir.path() / "run";
    const Result r = wallsim(
        "systolic --hw configs/hw/tpu_v1.yaml --topology " + topo + " --out " + out.string(), dir);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("Google TPU v1: 256x256 ws array, 2 layers"));
    // SCALE-Sim's own reports come only from SCALE-Sim's own .cfg (its hardware model).
    EXPECT_FALSE(std::filesystem::exists(out / "COMPUTE_REPORT.csv"));
    EXPECT_EQ(lines(slurp(out / "layers.csv")), 3u);
    EXPECT_TRUE(std::filesystem::exists(out / "resolved_config.yaml"));
    const auto stats = nlohmann::json::parse(slurp(out / "stats.json"));
    EXPECT_NEAR(stats["hw"]["peak_ops"]["value"].get<double>(), 91.75e12, 1e9);
    EXPECT_EQ(stats["systolic_run"]["layers"]["value"], 2);
    EXPECT_GT(stats["systolic_run"]["energy"]["total"]["value"].get<double>(), 0.0);
}

TEST(SystolicCli, ScaleSimConfigAsItIs) {
    testing::TempDir dir;
    const std::string cfg = dir.write("sa4.cfg",
                                      "[general]\nrun_name = sa4\n[architecture_presets]\n"
                                      "ArrayHeight: 4\nArrayWidth: 4\nIfmapSramSzkB: 64\n"
                                      "FilterSramSzkB: 64\nOfmapSramSzkB: 64\nIfmapOffset: 0\n"
                                      "FilterOffset: 10000000\nOfmapOffset: 20000000\n"
                                      "Dataflow : ws\nBandwidth : 10\nMemoryBanks: 1\n"
                                      "[run_presets]\nInterfaceBandwidth: CALC\n");
    const auto out = dir.path() / "run";
    // The hand-worked case of fold_timing_test.cpp: 4x4 ws, M=5, N=4, K=4: 15 cycles.
    const Result r = wallsim(
        "systolic --scalesim-config " + cfg + " --gemm 5,4,4 --functional --out " + out.string(),
        dir);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("equals the reference GEMM; 15 cycles stepped, timing model 15"));
    // SCALE-Sim's conventions: the last of 15 demand lines is cycle 14; compute util over the
    // fold's 15 lines plus C - 1 (scalesim_replay_test.cpp works the same layer by hand).
    EXPECT_THAT(slurp(out / "COMPUTE_REPORT.csv"),
                HasSubstr("\n0, 14, 0, 35.714285714285715, 100.0, 27.77777777777778,\n"));
    EXPECT_THAT(slurp(out / "DETAILED_ACCESS_REPORT.csv"),
                HasSubstr("SRAM IFMAP Start Cycle, SRAM IFMAP Stop Cycle, SRAM IFMAP Reads, "));
    // wallsim's own convention stays in layers.csv: 15 cycles.
    EXPECT_THAT(slurp(out / "layers.csv"), HasSubstr(",15,"));
    EXPECT_TRUE(std::filesystem::exists(out / "functional.csv"));
}

TEST(SystolicCli, WavefrontPrintsTheGrid) {
    testing::TempDir dir;
    const Result r = wallsim(
        "systolic --hw configs/hw/systolic_32x32.yaml --set systolic.rows=2 "
        "--set systolic.cols=2 --gemm 2,2,2 --functional --wavefront",
        dir);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("cycle 0 (preload"));
    EXPECT_THAT(r.out, HasSubstr("cycle 5 (stream"));
}

TEST(SystolicCli, RunTraceOnTpuV1) {
    testing::TempDir dir;
    const auto out = dir.path() / "run";
    const Result r =
        wallsim("run --hw configs/hw/tpu_v1.yaml --trace traces/examples/tpu_mlp_cnn.yaml --out " +
                    out.string(),
                dir);
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string csv = slurp(out / "ops.csv");
    EXPECT_EQ(lines(csv), 8u);
    std::istringstream in(csv);
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line)) {
        SCOPED_TRACE(line);
        EXPECT_THAT(line, HasSubstr(",cycle,systolic.array,"));
        const bool cnn = line.find("cnn") != std::string::npos;
        EXPECT_THAT(line, HasSubstr(cnn ? ",compute," : ",memory,"));
    }
    const auto stats = nlohmann::json::parse(slurp(out / "stats.json"));
    EXPECT_GT(stats["models"]["systolic_array"]["stall_cycles"]["value"].get<double>(), 0.0);
    EXPECT_GT(stats["run"]["energy"]["dram"]["value"].get<double>(), 0.0);
}

TEST(SystolicCli, BadInputExitsTwo) {
    testing::TempDir dir;
    const std::string bad_cfg =
        dir.write("bad.cfg", "[general]\nrun_name = x\n[architecture_presets]\nArrayHeight: -1\n");
    expect_bad_input(wallsim("systolic --scalesim-config " + bad_cfg + " --gemm 2,2,2", dir),
                     "bad.cfg:4: architecture_presets.arrayheight: '-1' is not a whole number");
    const std::string bad_csv = dir.write("bad.csv", "Layer,M,N,K,\ng1,4,4,\n");
    expect_bad_input(wallsim("systolic --hw configs/hw/tpu_v1.yaml --topology " + bad_csv, dir),
                     "bad.csv:2:1: g1: has 3 columns, expected 4 (missing 'K')");
    expect_bad_input(
        wallsim("systolic --hw configs/hw/tpu_v1.yaml --set systolic.rows=0 --gemm 2,2,2", dir),
        "systolic.rows: = 0 is out of range: must be between 1 and 65536");
    expect_bad_input(
        wallsim("systolic --hw configs/hw/tpu_v1.yaml --set systolic.sram.ifmap=-3MiB --gemm 2,2,2",
                dir),
        "systolic.sram.ifmap");
    expect_bad_input(
        wallsim("systolic --hw configs/hw/tpu_v1.yaml --set systolic.dram.bandwidth=0B/s "
                "--gemm 2,2,2",
                dir),
        "systolic.dram.bandwidth: = 0 B/s is out of range: must be at least 1");
    expect_bad_input(
        wallsim("systolic --hw configs/hw/tpu_v1.yaml --set systolic.tpu.host_bandwidth=0B/s "
                "--gemm 2,2,2",
                dir),
        "systolic.tpu.host_bandwidth: = 0 B/s is out of range: must be at least 1");
    expect_bad_input(
        wallsim("systolic --hw configs/hw/tpu_v1.yaml --set systolic.rowz=3 --gemm 2,2,2", dir),
        "unknown key");
    expect_bad_input(wallsim("systolic --hw configs/hw/h100.yaml --gemm 2,2,2", dir),
                     "needs device: systolic");
    expect_bad_input(
        wallsim("systolic --hw configs/hw/tpu_v1.yaml --gemm 300,2,2 --functional", dir),
        "functional mode takes sides up to 256");
    const std::string fp16 = dir.write(
        "t.yaml",
        "version: 1\nname: t\nops:\n  - {name: g, kind: gemm, m: 8, n: 8, k: 8, dtype: fp16}\n");
    expect_bad_input(wallsim("run --hw configs/hw/tpu_v1.yaml --trace " + fp16 + " --out " +
                                 (dir.path() / "o").string(),
                             dir),
                     "the array's words are 1 B");
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "o"));
}

}  // namespace
}  // namespace sim
