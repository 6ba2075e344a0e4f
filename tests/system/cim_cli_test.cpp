// SPDX-License-Identifier: MIT
// End-to-end tests of `wallsim cim`: outputs and their fields, determinism, the MLP file, and
// bad input (exit code 2, one line on stderr, nothing left in --out).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

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

double value(const nlohmann::json& j) {
    return j["value"].get<double>();
}

const std::string kTeaching = "cim --cim configs/cim/teaching.yaml";

TEST(CimCli, GemmOnTheTeachingPresetWritesStats) {
    testing::TempDir dir;
    const auto out = dir.path() / "run";
    const Result r = wallsim(kTeaching + " --gemm 8,64,16 --out " + out.string(), dir);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("effective bits"));
    for (const char* f : {"stats.json", "stats.txt", "resolved_config.yaml"})
        EXPECT_TRUE(std::filesystem::exists(out / f)) << f;
    const auto s = nlohmann::json::parse(slurp(out / "stats.json"));
    EXPECT_EQ(s["meta"]["cim_name"], "teaching crossbar (32x32, 2-bit cells, differential)");
    EXPECT_EQ(s["meta"]["layer_bound"], "crossbar_read");
    const auto& layer = s["cim_layer"];
    // 64 rows in 2 chunks; 16 weights of 8 columns at 4 per crossbar: 4 chunks.
    EXPECT_EQ(value(layer["mapping"]["crossbars"]), 8);
    EXPECT_EQ(value(layer["mapping"]["utilisation"]), 1.0);
    // 8 vectors x 8 cycles of 100 ns; 8 crossbars replicate twice on 16: 4 rounds.
    EXPECT_DOUBLE_EQ(value(layer["timing"]["compute_time"]), 4 * 8 * 100e-9);
    double sum = 0;
    for (const char* c : {"cells", "dac", "sample_hold", "adc", "shift_add", "ima_buffers",
                          "tile_buffer", "network", "tile_digital", "chip_io", "programming"})
        sum += value(layer["energy"][c]);
    EXPECT_NEAR(sum, value(layer["energy"]["total"]), 1e-12 * sum);
    EXPECT_GT(value(layer["energy"]["adc_share"]), 0.0);
    const auto& acc = s["cim_accuracy"];
    EXPECT_GT(value(acc["vs_float"]["effective_bits"]), 3.0);
    EXPECT_LT(value(acc["vs_float"]["effective_bits"]), 8.0);
    EXPECT_GT(value(s["cim_peak"]["tops_per_w"]), 0.0);
    // Same inputs and seed: byte-identical stats; another seed: different device draws.
    const auto again = dir.path() / "again";
    ASSERT_EQ(wallsim(kTeaching + " --gemm 8,64,16 --out " + again.string(), dir).code, 0);
    EXPECT_EQ(slurp(out / "stats.json"), slurp(again / "stats.json"));
    const auto seed2 = dir.path() / "seed2";
    ASSERT_EQ(wallsim(kTeaching + " --gemm 8,64,16 --seed 2 --out " + seed2.string(), dir).code, 0);
    EXPECT_NE(slurp(out / "stats.json"), slurp(seed2 / "stats.json"));
}

TEST(CimCli, MlpReportsPerLayerAndEndToEndError) {
    testing::TempDir dir;
    const auto out = dir.path() / "mlp";
    const Result r =
        wallsim(kTeaching + " --mlp traces/examples/cim_mlp.json --out " + out.string(), dir);
    ASSERT_EQ(r.code, 0) << r.err;
    const auto s = nlohmann::json::parse(slurp(out / "stats.json"));
    for (const char* l : {"layer0", "layer1", "layer2"}) {
        EXPECT_GT(value(s["cim_mlp"][l]["accuracy"]["vs_float"]["rms_error"]), 0.0) << l;
        EXPECT_GT(value(s["cim_mlp"][l]["timing"]["time"]), 0.0) << l;
    }
    EXPECT_GT(value(s["cim_mlp"]["end_to_end"]["effective_bits"]), 2.0);
    // An ideal device with an ADC that resolves every sum only carries the 8-bit quantisation.
    const auto ideal = dir.path() / "ideal";
    ASSERT_EQ(
        wallsim(kTeaching +
                    " --mlp traces/examples/cim_mlp.json --set nonideality.variation_sigma=0"
                    " --set nonideality.write_noise_sigma=0 --set nonideality.drift_nu=0"
                    " --set nonideality.nonlinearity=0 --set nonideality.wire_resistance_ohm=0"
                    " --out " +
                    ideal.string(),
                dir)
            .code,
        0);
    const auto si = nlohmann::json::parse(slurp(ideal / "stats.json"));
    EXPECT_EQ(value(si["cim_mlp"]["layer0"]["accuracy"]["vs_integer"]["rms_error"]), 0.0);
    EXPECT_GT(value(si["cim_mlp"]["end_to_end"]["effective_bits"]),
              value(s["cim_mlp"]["end_to_end"]["effective_bits"]));
}

TEST(CimCli, TraceGemmsRunOnTheCimDevice) {
    testing::TempDir dir;
    const auto out = dir.path() / "run";
    const Result r = wallsim(
        "run --hw configs/cim/isaac.yaml --trace traces/examples/gemm_sweep.yaml"
        " --out " +
            out.string(),
        dir);
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string csv = slurp(out / "ops.csv");
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 10);
    EXPECT_THAT(csv, HasSubstr(",cycle,cim.crossbar,"));
    const auto s = nlohmann::json::parse(slurp(out / "stats.json"));
    EXPECT_EQ(s["meta"]["device"], "cim");
    EXPECT_NEAR(value(s["hw"]["ops_per_s"]), 41.29e12, 0.01e12);
    const auto& m = s["models"];
    ASSERT_FALSE(m.empty());
    // gemm_4096 and larger exceed the 16128 crossbars: more than one weight load each.
    EXPECT_GT(value(m.begin().value()["passes"]), 9);
    // The run's energy is the model's energy per component, regrouped.
    EXPECT_NEAR(value(s["run"]["energy"]["total"]), value(m.begin().value()["energy"]["total"]),
                1e-9 * value(s["run"]["energy"]["total"]));
    EXPECT_GT(value(s["run"]["energy"]["compute"]), value(s["run"]["energy"]["sram"]));
    // The validator prints the derived peaks; a layernorm has no crossbar to run on.
    EXPECT_THAT(wallsim("validate-config configs/cim/isaac.yaml", dir).out,
                HasSubstr("hw.tops_per_w 0.627"));
    expect_bad_input(wallsim("run --hw configs/cim/isaac.yaml --trace "
                             "traces/examples/transformer_layer.yaml --out " +
                                 (dir.path() / "t").string(),
                             dir),
                     "no model can run this layernorm operator on device 'cim'");
}

TEST(CimCli, BadInputIsOneLineExitTwoAndLeavesNoOutput) {
    testing::TempDir dir;
    const auto out = dir.path() / "bad";
    const std::string o = " --gemm 4,4,4 --out " + out.string();
    const std::string bad = dir.write("bad.yaml", "extends: " + std::string(WALLSIM_SOURCE_DIR) +
                                                      "/configs/cim/teaching.yaml\n"
                                                      "crossbar:\n  adc_bits: -3\n");
    expect_bad_input(wallsim("cim --cim " + bad + o, dir), "bad.yaml:3:");
    expect_bad_input(wallsim(kTeaching + " --set crossbar.colums=8" + o, dir),
                     "crossbar.colums: unknown key");
    expect_bad_input(wallsim(kTeaching + " --set nonideality.drift_nu=-1" + o, dir),
                     "nonideality.drift_nu");
    expect_bad_input(wallsim(kTeaching + " --set crossbar.rows=0" + o, dir), "crossbar.rows");
    expect_bad_input(wallsim(kTeaching + " --gemm 4,0,4", dir), "--gemm");
    expect_bad_input(wallsim(kTeaching + " --gemm 4,4", dir), "--gemm");
    expect_bad_input(wallsim(kTeaching + " --conv 1,3,4,4,8,9", dir), "--conv");
    expect_bad_input(wallsim(kTeaching + " --gemm 4,4,4 --mlp traces/examples/cim_mlp.json", dir),
                     "at most one");
    const std::string mlp = dir.write("m.json", R"({"layers": [{"weights": [[1, 2]]}],
                                                      "input": [[1, 2]]})");
    expect_bad_input(wallsim(kTeaching + " --mlp " + mlp, dir), "layers[0].weights");
    const std::string garbled = dir.write("g.json", "{\"layers\": [");
    expect_bad_input(wallsim(kTeaching + " --mlp " + garbled, dir), "malformed JSON");
    EXPECT_FALSE(std::filesystem::exists(out));
}

}  // namespace
}  // namespace sim
