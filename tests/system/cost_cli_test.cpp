// SPDX-License-Identifier: MIT
// `wallsim cost` end to end, and the energy figures of `wallsim run`: the textbook's example on
// the shipped presets, MFU and power taken from a simulated run, and bad input (exit code 2,
// one line, nothing written).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/testing/temp_dir.h"
#include "tests/testing/wallsim_process.h"

namespace sim {
namespace {

using ::testing::HasSubstr;

using Result = testing::ProcessResult;
using testing::slurp;
using testing::wallsim;

TEST(CostCli, ComparesPresetsAndWritesCostJson) {
    testing::TempDir dir;
    const auto out = dir.path() / "cost";
    const Result r = wallsim(
        "cost --params 70B --tokens 10T --hw configs/hw/a100.yaml "
        "--hw configs/hw/h100.yaml --gpus 2048 --out " +
            out.string(),
        dir);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("GPU-hours"));
    const auto json = nlohmann::json::parse(slurp(out / "cost.json"));
    ASSERT_EQ(json["columns"].size(), 2u);
    const auto& h100 = json["columns"][1];
    EXPECT_EQ(h100["hardware"], "NVIDIA H100 SXM5 80GB");
    EXPECT_NEAR(h100["gpu_hours"].get<double>(), 2.95e6, 0.03e6);
    EXPECT_NEAR(h100["rent_cost"].get<double>(), 5.9e6, 0.06e6);
    EXPECT_NEAR(h100["electricity_cost"].get<double>(), 0.25e6, 0.01e6);
    // A100: a third of the FLOP/s, so about 3.2 times the GPU-hours.
    EXPECT_NEAR(json["columns"][0]["gpu_hours"].get<double>() / h100["gpu_hours"].get<double>(),
                3.17, 0.05);
}

TEST(CostCli, TakesMfuAndPowerFromASimulatedRun) {
    testing::TempDir dir;
    const auto run = dir.path() / "run";
    ASSERT_EQ(wallsim("run --hw configs/hw/h100.yaml --fidelity analytic "
                      "--trace traces/examples/transformer_layer.yaml --out " +
                          run.string(),
                      dir)
                  .code,
              0);
    const auto stats = nlohmann::json::parse(slurp(run / "stats.json"));
    const double flops = stats["run"]["flops"]["value"];
    const double seconds = stats["run"]["sim_time"]["value"];
    const double power = stats["run"]["energy"]["average_power"]["value"];
    EXPECT_GT(power, 0.0);
    EXPECT_LE(power, 700.0 * 1.01);  // a calibrated H100 stays within its TDP

    const auto out = dir.path() / "cost";
    ASSERT_EQ(
        wallsim("cost --params 7B --tokens 1T --run " + run.string() + " --out " + out.string(),
                dir)
            .code,
        0);
    const auto cost = nlohmann::json::parse(slurp(out / "cost.json"))["columns"][0];
    EXPECT_EQ(cost["mfu_source"], "simulated");
    EXPECT_NEAR(cost["mfu"].get<double>(), flops / seconds / 989.42976e12, 1e-6);
    EXPECT_NEAR(cost["mfu"].get<double>(), stats["run"]["mfu"]["value"].get<double>(), 1e-6);
    EXPECT_NEAR(cost["gpu_power_w"].get<double>(), power, 1e-6);
}

TEST(CostCli, BadInputIsOneLineExitTwoAndWritesNothing) {
    testing::TempDir dir;
    const auto out = dir.path() / "cost";
    const std::string h100 = " --hw configs/hw/h100.yaml --out " + out.string();
    const struct {
        std::string args, fragment;
    } cases[] = {
        {"cost --params 70B --tokens -10T" + h100, "--tokens"},
        {"cost --params 70B --tokens 10T --mfu 1.5" + h100, "--mfu"},
        {"cost --params 70X --tokens 10T" + h100, "unknown suffix"},
        {"cost --params 70B --tokens 10T --pue 0.8" + h100, "--pue"},
        {"cost --params 70B --tokens 10T --set economics.purchase_price=-1" + h100,
         "economics.purchase_price"},
        {"cost --params 70B --tokens 10T --set economics.price=3" + h100, "economics.price"},
        {"cost --params 70B --tokens 10T --run /nonexistent --out " + out.string(), "--run"},
        {"cost --params 70B --tokens 10T --out " + out.string(), "--hw"},
    };
    for (const auto& c : cases) {
        const Result r = wallsim(c.args, dir);
        EXPECT_EQ(r.code, 2) << c.args << "\n" << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
        EXPECT_THAT(r.err, HasSubstr(c.fragment)) << c.args;
        EXPECT_FALSE(std::filesystem::exists(out)) << c.args;
    }
}

TEST(EnergyCli, UnknownEnergyKeysAreRejected) {
    testing::TempDir dir;
    const Result r =
        wallsim("validate-config configs/hw/h100.yaml --set energy.static_pwoer=50W", dir);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_THAT(r.err, HasSubstr("energy.static_pwoer"));
}

}  // namespace
}  // namespace sim
