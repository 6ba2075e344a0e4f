// SPDX-License-Identifier: MIT
// End-to-end tests of the wallsim binary: outputs, determinism, overrides, and every class of
// bad input (exit code 2, one line on stderr, nothing left in --out).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

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

const std::string kH100 = "--hw configs/hw/h100.yaml";

TEST(Cli, RunWritesEveryOutput) {
    testing::TempDir dir;
    const auto out = dir.path() / "run";
    const Result r =
        wallsim("run " + kH100 +
                    " --fidelity analytic --trace traces/examples/transformer_layer.yaml --out " +
                    out.string(),
                dir);
    ASSERT_EQ(r.code, 0) << r.err;
    for (const char* f : {"stats.json", "stats.txt", "ops.csv", "resolved_config.yaml"}) {
        EXPECT_TRUE(std::filesystem::exists(out / f)) << f;
    }
    const auto stats = nlohmann::json::parse(slurp(out / "stats.json"));
    EXPECT_EQ(stats["run"]["ops"]["value"], 11);
    EXPECT_EQ(stats["meta"]["hw_name"], "NVIDIA H100 SXM5 80GB");
    EXPECT_GT(stats["run"]["sim_time"]["value"].get<double>(), 0.0);
    const std::string csv = slurp(out / "ops.csv");
    EXPECT_EQ(lines(csv), 12u);
    EXPECT_THAT(csv,
                HasSubstr("index,name,kind,stream,dtype,unit,fidelity,model,start_us,time_us"));
    EXPECT_THAT(csv, HasSubstr(",memory,"));
    EXPECT_THAT(csv, HasSubstr(",compute,"));
    EXPECT_THAT(csv, HasSubstr(",energy_j,compute_j,data_movement_j,static_j,power_w,tflops_per_w,"
                               "clock_mhz,power_limited,fallback,measured_us,error,"
                               "launch_gap_us\n"));
    EXPECT_GT(stats["run"]["energy"]["total"]["value"].get<double>(), 0.0);
    // The resolved config is itself a valid hardware file.
    EXPECT_EQ(wallsim("validate-config " + (out / "resolved_config.yaml").string(), dir).code, 0);
}

TEST(Cli, SameInputsAndSeedGiveIdenticalStats) {
    testing::TempDir dir;
    const std::string common =
        "run " + kH100 +
        " --fidelity analytic --trace traces/examples/two_streams.yaml --seed 7 --out ";
    ASSERT_EQ(wallsim(common + (dir.path() / "a").string(), dir).code, 0);
    ASSERT_EQ(wallsim(common + (dir.path() / "b").string(), dir).code, 0);
    EXPECT_EQ(slurp(dir.path() / "a" / "stats.json"), slurp(dir.path() / "b" / "stats.json"));
    EXPECT_EQ(slurp(dir.path() / "a" / "ops.csv"), slurp(dir.path() / "b" / "ops.csv"));
}

TEST(Cli, SetOverridesChangeTheResultAndAreRecorded) {
    testing::TempDir dir;
    // Analytic: exactly bandwidth-bound, so twice the stacks give exactly half the time.
    const std::string common =
        "run " + kH100 + " --fidelity analytic --trace traces/examples/vector_add.yaml --out ";
    ASSERT_EQ(wallsim(common + (dir.path() / "base").string(), dir).code, 0);
    ASSERT_EQ(wallsim(common + (dir.path() / "wide").string() + " --set hbm.stacks=10", dir).code,
              0);
    const auto base = nlohmann::json::parse(slurp(dir.path() / "base" / "stats.json"));
    const auto wide = nlohmann::json::parse(slurp(dir.path() / "wide" / "stats.json"));
    const double t0 = base["run"]["sim_time"]["value"];
    const double t1 = wide["run"]["sim_time"]["value"];
    EXPECT_NEAR(t0 / t1, 2.0, 0.01);  // twice the stacks, twice the bandwidth, half the time
    EXPECT_THAT(slurp(dir.path() / "wide" / "resolved_config.yaml"), HasSubstr("stacks: 10"));
}

TEST(Cli, RerunReplacesAnEarlierOutput) {
    testing::TempDir dir;
    const std::string cmd = "run " + kH100 +
                            " --fidelity analytic --trace traces/examples/vector_add.yaml --out " +
                            (dir.path() / "o").string();
    ASSERT_EQ(wallsim(cmd, dir).code, 0);
    EXPECT_EQ(wallsim(cmd, dir).code, 0);
}

TEST(Cli, ListAndValidate) {
    testing::TempDir dir;
    const Result list = wallsim("list", dir);
    EXPECT_EQ(list.code, 0);
    EXPECT_THAT(list.out, HasSubstr("gpu.analytic"));
    for (const char* preset : {"a100", "h100", "h200"}) {
        const Result cfg =
            wallsim(std::string("validate-config configs/hw/") + preset + ".yaml", dir);
        EXPECT_EQ(cfg.code, 0) << cfg.err;
        EXPECT_THAT(cfg.out, HasSubstr("hw.ridge_point.tensor.fp16"));
        EXPECT_THAT(cfg.out, HasSubstr("hw.hbm.peak_bandwidth"));
    }
    const Result trace = wallsim("validate-trace traces/examples/gemm_sweep.jsonl", dir);
    EXPECT_EQ(trace.code, 0) << trace.err;
    EXPECT_THAT(trace.out, HasSubstr("9 operators"));
}

TEST(Cli, BadInputIsOneLineExitTwoAndLeavesNoOutput) {
    testing::TempDir dir;
    const std::string trace =
        dir.write("bad_trace.yaml", "version: 1\nops:\n  - {kind: elementwise, elements: -3}\n");
    const std::string hw_typo =
        dir.write("typo.yaml", "extends: " + std::string(WALLSIM_SOURCE_DIR) +
                                   "/configs/hw/h100.yaml\nhbm:\n  stakcs: 6\n");
    const std::string malformed = dir.write("malformed.yaml", "name: x\nsm: [1, 2\n");
    const std::string fp8 = dir.write(
        "fp8.yaml", "version: 1\nops:\n  - {kind: gemm, m: 64, n: 64, k: 64, dtype: fp8}\n");
    const auto out = dir.path() / "never";
    const std::string o = " --out " + out.string();
    const std::string ok_trace = " --trace traces/examples/vector_add.yaml";

    expect_bad_input(wallsim("run --hw /nope.yaml" + ok_trace + o, dir),
                     "/nope.yaml: file not found");
    expect_bad_input(wallsim("run --hw " + malformed + ok_trace + o, dir), "malformed YAML");
    expect_bad_input(wallsim("run --hw " + hw_typo + ok_trace + o, dir),
                     "hbm.stakcs: unknown key (did you mean 'stacks'?)");
    expect_bad_input(wallsim("run " + kH100 + " --trace " + trace + o, dir),
                     "bad_trace.yaml:3:35: ops[0].elements: must not be negative");
    expect_bad_input(wallsim("run " + kH100 + ok_trace + o + " --set hbm.stacks=0", dir),
                     "hbm.stacks: = 0 is out of range: must be at least 1");
    expect_bad_input(wallsim("run " + kH100 + ok_trace + o + " --set hbm.pin_rate=fast", dir),
                     "--set hbm.pin_rate=fast");
    expect_bad_input(wallsim("run --hw configs/hw/a100.yaml --trace " + fp8 + o, dir),
                     "Tensor Cores have no fp8 path");
    expect_bad_input(wallsim("run " + kH100 + ok_trace + o + " --fidelity exact", dir),
                     "--fidelity");
    expect_bad_input(wallsim("run " + kH100 + o, dir), "trace");
    expect_bad_input(wallsim("frobnicate", dir), "unknown command");
    expect_bad_input(wallsim("validate-trace " + trace, dir), "must not be negative");
    EXPECT_FALSE(std::filesystem::exists(out));
    // No staging directories are left behind either.
    for (const auto& e : std::filesystem::directory_iterator(dir.path())) {
        EXPECT_EQ(e.path().filename().string().find(".never"), std::string::npos) << e.path();
    }
}

TEST(Cli, HbmCommandReportsBandwidthAndWritesStats) {
    testing::TempDir dir;
    const auto out = dir.path() / "hbm";
    const Result r = wallsim(
        "hbm --hw configs/hw/h100.yaml --pattern stream --bytes 4MiB --out " + out.string(), dir);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("of 3347.2 GB/s peak"));
    const auto stats = nlohmann::json::parse(slurp(out / "stats.json"));
    EXPECT_EQ(stats["hbm_run"]["requests"]["value"], 65536);
    EXPECT_GT(stats["hbm_run"]["bandwidth_utilisation"]["value"].get<double>(), 0.5);
    EXPECT_TRUE(stats["hbm_run"]["pseudo_channels"].contains("pc159"));
    expect_bad_input(wallsim("hbm --hw configs/hw/h100.yaml --pattern zigzag", dir),
                     "'zigzag' is not a pattern");
    expect_bad_input(wallsim("hbm --hw configs/hw/h100.yaml --bytes -1GB", dir), "--bytes");
    expect_bad_input(wallsim("hbm --hw configs/hw/h100.yaml --request-bytes 100", dir),
                     "multiple of the 32 B");
    expect_bad_input(wallsim("hbm --hw configs/hw/h100.yaml --set hbm.timing.t_ras=1ns", dir),
                     "hbm.timing.t_ras");
}

TEST(Cli, DramTrafficOpsRunOnTheCycleLevelHbmModel) {
    testing::TempDir dir;
    const auto out = dir.path() / "dram";
    const std::string trace =
        dir.write("t.yaml",
                  "version: 1\nops:\n"
                  "  - {name: s, kind: dram_traffic, bytes: 4194304}\n"
                  "  - {name: r, kind: dram_traffic, bytes: 1048576, pattern: random}\n"
                  "  - {name: g, kind: gemm, m: 256, n: 256, k: 256, dtype: bf16}\n");
    const Result r = wallsim("run " + kH100 + " --trace " + trace + " --out " + out.string(), dir);
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string csv = slurp(out / "ops.csv");
    EXPECT_THAT(csv, HasSubstr("\n0,s,dram_traffic,0,fp32,vector,cycle,gpu.hbm,"));
    EXPECT_THAT(csv, HasSubstr("\n1,r,dram_traffic,0,fp32,vector,cycle,gpu.hbm,"));
    EXPECT_THAT(csv, HasSubstr("\n2,g,gemm,0,bf16,tensor,cycle,gpu.sm,"));
    const auto stats = nlohmann::json::parse(slurp(out / "stats.json"));
    EXPECT_EQ(stats["models"]["gpu_hbm"]["ops"]["value"], 2);
    // The DRAM model never beats its own peak, and streams far better than random reads.
    const auto& util = stats["models"]["gpu_hbm"]["bandwidth_utilisation"]["value"];
    EXPECT_LT(util["max"].get<double>(), 1.0);
    EXPECT_GT(util["max"].get<double>(), 1.3 * util["min"].get<double>());
    // At analytic fidelity the same ops take the Roofline model instead.
    const auto out2 = dir.path() / "dram_analytic";
    ASSERT_EQ(wallsim("run " + kH100 + " --fidelity analytic --trace " + trace + " --out " +
                          out2.string(),
                      dir)
                  .code,
              0);
    EXPECT_THAT(slurp(out2 / "ops.csv"),
                HasSubstr("\n0,s,dram_traffic,0,fp32,vector,analytic,gpu.analytic,"));
}

TEST(Cli, AbsurdValuesAreRejectedNotCrashes) {
    // Each of these once crashed (overflow, division by zero, deep recursion) or exited 1.
    testing::TempDir dir;
    const std::string o = " --out " + (dir.path() / "o").string();
    const std::string v = " --trace traces/examples/vector_add.yaml";
    expect_bad_input(
        wallsim("hbm " + kH100 + " --bytes 1MiB --set hbm.organisation.bank_groups=65536", dir),
        "bank_groups: = 65536 is out of range: must be between 1 and 64");
    expect_bad_input(
        wallsim(
            "hbm " + kH100 + " --bytes 1MiB --set hbm.organisation.rows_per_bank=1125899906842624",
            dir),
        "rows_per_bank");
    expect_bad_input(wallsim("run " + kH100 + " --trace " +
                                 dir.write("s.yaml",
                                           "version: 1\nops:\n  - {kind: elementwise, elements: 4, "
                                           "stream: 4294967295}\n") +
                                 o,
                             dir),
                     "stream: must be below 1024");
    expect_bad_input(wallsim("validate-trace " +
                                 dir.write("deep.jsonl",
                                           "{\"version\": 1}\n{\"x\": " + std::string(100000, '[') +
                                               std::string(100000, ']') + "}\n"),
                             dir),
                     "nested more than 64 levels");
    expect_bad_input(wallsim("run " + kH100 + " --trace " +
                                 dir.write("out.yaml",
                                           "version: 1\nops:\n  - {kind: dram_traffic, bytes: "
                                           "4096, outstanding: 4294967296}\n") +
                                 o,
                             dir),
                     "outstanding: must be at most");
    expect_bad_input(
        wallsim("run " + kH100 + " --trace " +
                    dir.write(
                        "huge.yaml",
                        "version: 1\nops:\n  - {kind: elementwise, elements: 18446744073709551615, "
                        "flops_per_element: 18446744073709551615}\n") +
                    o,
                dir),
        "beyond the simulator's time range");
    expect_bad_input(wallsim("run " + kH100 + v + o + " --set runtime.stream_gap=1e7s", dir),
                     "time range");
    expect_bad_input(
        wallsim("run " + kH100 + v + o + " --fidelity analytic --set runtime.stream_gap=1e7s", dir),
        "time range");
    expect_bad_input(wallsim("run " + kH100 + v + o + " --set runtime.stream_launch=1e7s", dir),
                     "launched beyond the simulator's time range");
    expect_bad_input(wallsim("hbm " + kH100 + " --outstanding -1", dir), "--outstanding: '-1'");
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "o"));
}

TEST(Cli, MemoryOpsAndKernelsOnTwoStreamsShareTheHbm) {
    // A dram_traffic op on another stream overlaps a kernel, and both get a share of the HBM
    // (docs/architecture.md): together they move more than the HBM can in the kernel's time
    // alone, so the kernel takes longer than alone, and the pair less than in turn.
    testing::TempDir dir;
    const std::string kernel = "  - {name: k, kind: elementwise, elements: 16777216, stream: 0}\n";
    const std::string alone = dir.write("alone.yaml", "version: 1\nops:\n" + kernel);
    const std::string both = dir.write(
        "both.yaml", "version: 1\nops:\n" + kernel +
                         "  - {name: d, kind: dram_traffic, bytes: 67108864, stream: 1}\n");
    const auto run = [&](const std::string& trace, const std::string& name) {
        const auto out = dir.path() / name;
        EXPECT_EQ(
            wallsim("run " + kH100 + " --trace " + trace + " --out " + out.string(), dir).code, 0);
        return nlohmann::json::parse(slurp(out / "stats.json"));
    };
    const auto a = run(alone, "a");
    const auto b = run(both, "b");
    const auto value = [](const nlohmann::json& j, const char* kind) {
        return j["run"]["by_kind"][kind]["time"]["value"].get<double>();
    };
    const double k_alone = value(a, "elementwise");
    EXPECT_GT(value(b, "elementwise"), k_alone);
    EXPECT_LT(b["run"]["sim_time"]["value"].get<double>(), k_alone + value(b, "dram_traffic"));
    EXPECT_GT(b["system"]["hbm0"]["queueing"]["value"].get<double>(), 0.0);
}

TEST(Cli, RefusesToOverwriteAnUnrelatedDirectory) {
    testing::TempDir dir;
    dir.write("precious/notes.txt", "keep me");
    expect_bad_input(wallsim("run " + kH100 + " --trace traces/examples/vector_add.yaml --out " +
                                 (dir.path() / "precious").string(),
                             dir),
                     "refusing to overwrite");
    EXPECT_EQ(slurp(dir.path() / "precious" / "notes.txt"), "keep me");
}

TEST(Cli, GarbledTracesAlwaysExitTwoWithOneLine) {
    testing::TempDir dir;
    const std::vector<std::string> cases = {
        "",
        "version: 1\n",
        "version: 1\nops:\n  - {kind: gemm, m: 4, n:",
        "{{{{",
        "version: 1\nops: 7\n",
        "version: one\nops: []\n",
        "\x01\x02\x03\xff",
        "version: 1\nops:\n  - [kind, gemm]\n",
        "version: 1\nops:\n  - {kind: gemm, m: 1e400, n: 1, k: 1}\n",
        "version: 1\nops:\n  - {kind: softmax, rows: 1}\n"};
    for (size_t i = 0; i < cases.size(); ++i) {
        const std::string f = dir.write("g" + std::to_string(i) + ".yaml", cases[i]);
        const Result r = wallsim("validate-trace " + f, dir);
        EXPECT_EQ(r.code, 2) << "case " << i << ": " << r.err;
        EXPECT_EQ(lines(r.err), 1u) << "case " << i << ": " << r.err;
    }
    const std::vector<std::string> jsonl = {"{\"version\": 1}\n{\"kind\": \"gemm\"",
                                            "{\"version\": 1}\nnull\n",
                                            "{\"version\": 1}\n{\"kind\": 3}\n", "[]\n"};
    for (size_t i = 0; i < jsonl.size(); ++i) {
        const std::string f = dir.write("j" + std::to_string(i) + ".jsonl", jsonl[i]);
        const Result r = wallsim("validate-trace " + f, dir);
        EXPECT_EQ(r.code, 2) << "jsonl case " << i << ": " << r.err;
        EXPECT_EQ(lines(r.err), 1u) << "jsonl case " << i << ": " << r.err;
    }
}

}  // namespace
}  // namespace sim
