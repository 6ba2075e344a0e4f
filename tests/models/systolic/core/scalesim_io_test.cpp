// SPDX-License-Identifier: MIT
// SCALE-Sim's own files: every shipped reference config and topology parses (they live in
// ../shared/reference/scalesim-inputs next to the repository; the test skips when that folder
// is absent), and bad files give a ConfigError naming the file and line.
#include "models/systolic/core/scalesim_io.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "models/systolic/core/fold_timing.h"
#include "tests/testing/config_error.h"

namespace sim::systolic {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

fs::path reference_dir() {
    return fs::path(WALLSIM_SOURCE_DIR) / ".." / "shared" / "reference" / "scalesim-inputs";
}

const char* kTpuCfg = R"([general]
run_name = GoogleTPU_v1_ws

[architecture_presets]
ArrayHeight:    256
ArrayWidth:     256
IfmapSramSzkB:    6144
FilterSramSzkB:   6144
OfmapSramSzkB:    2048
IfmapOffset:    0
FilterOffset:   10000000
OfmapOffset:    20000000
Dataflow : ws
Bandwidth : 10
MemoryBanks: 1

[run_presets]
InterfaceBandwidth: CALC
)";

TEST(ScaleSimConfig, ReadsEveryKey) {
    const ScaleSimConfig c = parse_scalesim_config(kTpuCfg, "tpu.cfg");
    EXPECT_EQ(c.run_name, "GoogleTPU_v1_ws");
    EXPECT_EQ(c.array.rows, 256u);
    EXPECT_EQ(c.array.cols, 256u);
    EXPECT_EQ(c.array.ifmap_sram_bytes, 6144u * 1024);
    EXPECT_EQ(c.array.filter_sram_bytes, 6144u * 1024);
    EXPECT_EQ(c.array.ofmap_sram_bytes, 2048u * 1024);
    EXPECT_EQ(c.array.dataflow, Dataflow::WeightStationary);
    EXPECT_FALSE(c.user_bandwidth);
    EXPECT_EQ(c.array.dram_bytes_per_cycle, 0.0);  // CALC: unlimited, no stalls
    EXPECT_EQ(c.filter_offset, 10000000u);
}

TEST(ScaleSimConfig, UserBandwidthLimitsDram) {
    std::string text = kTpuCfg;
    text.replace(text.find("CALC"), 4, "USER");
    const ScaleSimConfig c = parse_scalesim_config(text, "tpu.cfg");
    EXPECT_TRUE(c.user_bandwidth);
    EXPECT_EQ(c.array.dram_bytes_per_cycle, 10.0);  // 10 one-byte words per cycle
}

TEST(ScaleSimConfig, BadValuesNameFileLineAndKey) {
    std::string neg = kTpuCfg;
    neg.replace(neg.find("256"), 3, "-4");
    EXPECT_THAT(testing::config_error([&] { parse_scalesim_config(neg, "bad.cfg"); }),
                HasSubstr("bad.cfg:5"));
    EXPECT_THAT(testing::config_error([&] { parse_scalesim_config(neg, "bad.cfg"); }),
                HasSubstr("arrayheight"));
    std::string df = kTpuCfg;
    df.replace(df.find("Dataflow : ws") + 11, 2, "rs");
    EXPECT_THAT(testing::config_error([&] { parse_scalesim_config(df, "bad.cfg"); }),
                HasSubstr("bad.cfg:13"));
    std::string unknown = kTpuCfg;
    unknown.replace(unknown.find("MemoryBanks"), 11, "MemoryBanx");
    EXPECT_THAT(testing::config_error([&] { parse_scalesim_config(unknown, "bad.cfg"); }),
                HasSubstr("bad.cfg:15:1: architecture_presets.memorybanx: unknown key"));
    std::string missing = kTpuCfg;
    missing.erase(missing.find("ArrayWidth"),
                  missing.find("IfmapSram") - missing.find("ArrayWidth"));
    EXPECT_THAT(testing::config_error([&] { parse_scalesim_config(missing, "bad.cfg"); }),
                HasSubstr("arraywidth: required key is missing"));
}

TEST(ScaleSimTopology, ReadsConvAndGemmForms) {
    const Topology conv = parse_topology_csv(
        "Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num "
        "Filter, Strides,\nConv1,224,224,7,7,3,64,2,\nFC,1,1,1,1,512,1000,1",
        "r.csv");
    EXPECT_FALSE(conv.gemm);
    ASSERT_EQ(conv.layers.size(), 2u);
    EXPECT_EQ(conv.layers[0].m(), 109u * 109u);  // (224 - 7) / 2 + 1 = 109
    EXPECT_EQ(conv.layers[0].k(), 147u);
    EXPECT_EQ(conv.layers[1].k(), 512u);
    EXPECT_EQ(conv.layers[1].n(), 1000u);
    const Topology gemm = parse_topology_csv("Layer,M,N,K,\ng,100,50,30,\n", "g.csv");
    EXPECT_TRUE(gemm.gemm);
    ASSERT_EQ(gemm.layers.size(), 1u);
    EXPECT_EQ(gemm.layers[0].m(), 100u);
    EXPECT_EQ(gemm.layers[0].n(), 50u);
    EXPECT_EQ(gemm.layers[0].k(), 30u);
}

TEST(ScaleSimTopology, DepthwiseLayersExpandPerChannel) {
    const Topology t = parse_topology_csv(
        "Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num "
        "Filter, Strides,\nDP1,16,16,3,3,4,1,1,\n",
        "dw.csv");
    ASSERT_EQ(t.layers.size(), 4u);
    EXPECT_EQ(t.layers[3].name, "DP1Channel_3");
    EXPECT_EQ(t.layers[3].channels, 1u);
}

// Found by fuzz/scalesim_topology_fuzzer: a depthwise row with 4294967296 channels expanded to
// as many layers, until memory ran out.
TEST(ScaleSimTopology, DepthwiseExpansionIsBounded) {
    const std::string header =
        "Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num "
        "Filter, Strides,\n";
    EXPECT_THAT(testing::config_error([&] {
                    parse_topology_csv(header + "DP1,16,16,3,3,4294967296,1,1,\n", "dw.csv");
                }),
                HasSubstr("dw.csv:2: DP1.channels: a depthwise layer runs one layer per channel"));
    EXPECT_THAT(testing::config_error([&] {
                    parse_topology_csv(
                        header + "DP1,16,16,3,3,60000,1,1,\nDP2,16,16,3,3,60000,1,1,\n", "dw.csv");
                }),
                HasSubstr("dw.csv:3: DP2.channels"));
    EXPECT_EQ(parse_topology_csv(header + "DP1,16,16,3,3,100000,1,1,\n", "dw.csv").layers.size(),
              100000u);
}

TEST(ScaleSimTopology, BadRowsNameFileAndLine) {
    const std::string header =
        "Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num "
        "Filter, Strides,\n";
    EXPECT_THAT(testing::config_error([&] {
                    parse_topology_csv(header + "c1,8,8,3,3,4,4,1,\nc2,8,8,3,3,4,\n", "t.csv");
                }),
                HasSubstr("t.csv:3:1: c2: has 6 columns, expected 8 (missing 'Num Filter')"));
    EXPECT_THAT(testing::config_error(
                    [&] { parse_topology_csv(header + "c1,8,-8,3,3,4,4,1,\n", "t.csv"); }),
                HasSubstr("t.csv:2: c1.IFMAP Width: '-8' is not a whole number"));
    EXPECT_THAT(
        testing::config_error([&] { parse_topology_csv(header + "c1,8,8,9,3,4,4,1,\n", "t.csv"); }),
        HasSubstr("t.csv:2: c1.filter_h: must be <= the ifmap height"));
    EXPECT_THAT(testing::config_error([&] { parse_topology_csv("a,b,c\n1,2,3\n", "t.csv"); }),
                HasSubstr("t.csv:1:1: header"));
    EXPECT_THAT(
        testing::config_error([&] { parse_topology_csv("Layer,M,N,K,\ng,0,1,1,\n", "g.csv"); }),
        HasSubstr("g.csv:2: g.M: must be >= 1"));
}

TEST(ScaleSimReference, EveryShippedFileParses) {
    const fs::path dir = reference_dir();
    if (!fs::exists(dir)) GTEST_SKIP() << dir << " is absent (it sits next to the repository)";
    size_t cfgs = 0, topologies = 0;
    std::vector<ScaleSimConfig> configs;
    for (const auto& e : fs::directory_iterator(dir / "configs")) {
        SCOPED_TRACE(e.path().string());
        configs.push_back(read_scalesim_config(e.path().string()));
        ++cfgs;
    }
    for (const auto& e : fs::directory_iterator(dir / "topologies")) {
        SCOPED_TRACE(e.path().string());
        const Topology t = read_topology_csv(e.path().string());
        EXPECT_FALSE(t.layers.empty());
        ++topologies;
        // and every layer times on every config
        for (const ScaleSimConfig& c : configs) {
            for (const Layer& l : t.layers)
                EXPECT_GT(time_layer(c.array, l).total_cycles, 0u);
        }
    }
    EXPECT_GE(cfgs, 10u);
    EXPECT_GE(topologies, 9u);
    const Topology resnet = read_topology_csv((dir / "topologies" / "Resnet18.csv").string());
    EXPECT_EQ(resnet.layers.size(), 21u);
    EXPECT_EQ(resnet.layers.back().name, "FC");
    const ScaleSimConfig user =
        read_scalesim_config((dir / "configs" / "sa32_ws_userbw10.cfg").string());
    EXPECT_TRUE(user.user_bandwidth);
    EXPECT_EQ(user.array.dram_bytes_per_cycle, 10.0);
}

}  // namespace
}  // namespace sim::systolic
