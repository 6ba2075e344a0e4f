// SPDX-License-Identifier: MIT
// SCALE-Sim v2's three reports, replayed by its rules (scalesim_replay.h), against values
// worked by hand from those rules (docs/references.md [scalesim], the files named in
// scalesim_replay.h at commit 22f88b1) on small layers: ws, os and is in CALC mode, and USER
// mode with and without read stalls; Python's float printing; SCALE-Sim's ceil output size.
#include "models/systolic/core/scalesim_replay.h"

#include <gtest/gtest.h>

#include "models/systolic/core/reports.h"
#include "models/systolic/core/scalesim_demand.h"
#include "sim/core/error.h"

namespace sim::systolic {
namespace {

// A SCALE-Sim .cfg: R x C array, 1 KiB buffers (1024 one-byte words: sets and lines of 10).
ScaleSimConfig config(
    uint32_t r, uint32_t c, const char* df, const char* mode, uint64_t bw = 10, uint64_t kib = 1) {
    const std::string k = std::to_string(kib);
    return parse_scalesim_config(
        "[general]\nrun_name = t\n[architecture_presets]\nArrayHeight: " + std::to_string(r) +
            "\nArrayWidth: " + std::to_string(c) + "\nIfmapSramSzkB: " + k +
            "\nFilterSramSzkB: " + k + "\nOfmapSramSzkB: " + k +
            "\nIfmapOffset: 0\nFilterOffset: 10000000\nOfmapOffset: 20000000\nDataflow: " + df +
            "\nBandwidth: " + std::to_string(bw) +
            "\nMemoryBanks: 1\n[run_presets]\nInterfaceBandwidth: " + mode + "\n",
        "t.cfg");
}

std::string row_of(const std::string& csv) {
    return csv.substr(csv.find('\n') + 1);
}

struct Reports {
    std::string compute, bandwidth, detail;
};

Reports run(const ScaleSimConfig& cfg, const Layer& l) {
    const std::vector<ScaleSimLayerReport> r = {replay_scalesim_layer(cfg, l)};
    return {row_of(compute_report_csv(r)), row_of(bandwidth_report_csv(r)),
            row_of(detailed_access_report_csv(r))};
}

TEST(PythonFloat, PrintsAsPythonRepr) {
    EXPECT_EQ(python_float(100.0), "100.0");
    EXPECT_EQ(python_float(-2.0), "-2.0");
    EXPECT_EQ(python_float(0.0), "0.0");
    EXPECT_EQ(python_float(1.0 / 3.0), "0.3333333333333333");
    EXPECT_EQ(python_float(80.0 / 288.0 * 100), "27.77777777777778");
    EXPECT_EQ(python_float(0.0001), "0.0001");
    EXPECT_EQ(python_float(0.00001), "1e-05");
    EXPECT_EQ(python_float(1.5e16), "1.5e+16");
    EXPECT_EQ(python_float(1e15), "1000000000000000.0");
    EXPECT_EQ(python_float(1.0 / 0.0), "inf");
}

TEST(ScaleSimOperands, StridedOutputRoundsThePartialWindowUp) {
    // 8 x 8 input, 3 x 3 kernel, stride 2: (8 - 3) / 2 + 1 = 3 whole windows, but SCALE-Sim
    // makes ceil((8 - 3 + 2) / 2) = 4 rows and columns; the 4th window starts at column 6 and
    // its third tap (column 8) is off the edge: -1.
    Layer l;
    l.ifmap_h = l.ifmap_w = 8;
    l.filter_h = l.filter_w = 3;
    l.channels = 1;
    l.num_filters = 2;
    l.stride = 2;
    const ScaleSimOperands ops(l);
    EXPECT_EQ(ops.ofmap_h, 4u);
    EXPECT_EQ(ops.m, 16u);
    EXPECT_EQ(ops.ifmap(3, 0), 6);   // pixel (0, 3): window at column 6, tap (0, 0)
    EXPECT_EQ(ops.ifmap(3, 1), 7);   // tap (0, 1): column 7
    EXPECT_EQ(ops.ifmap(3, 2), -1);  // tap (0, 2): column 8, outside
    EXPECT_EQ(l.ofmap_h(), 3u);      // wallsim's own convention: whole windows only
}

TEST(ScaleSimReplay, WeightStationaryCalcByHand) {
    // 4 x 4 ws, GEMM M=5, N=4, K=4: one fold of 2R + C + T - 2 = 15 demand lines, so the last
    // ofmap line is served at cycle 14 (Total Cycles, 0-based). Overall util 80 MACs x 100 /
    // (14 x 16) = 35.714...; compute util 80 / (16 x (15 + C - 1)) = 27.77...%.
    // SRAM: ifmap T x rows 5 x 4, filter 4 x 4, ofmap T x cols 5 x 4. The ifmap is demanded on
    // lines 4 (after the R preload lines) to 11 (T + R - 2 later), served one cycle later;
    // weights on lines 0..3; outputs on lines 2R - 1 = 7 to 14, served at once.
    // DRAM (CALC): 20 distinct ifmap words fill two sets of 10; never 50 sets, so at the end
    // both arrive in ceil(20 / 10) = 2 cycles ending two cycles before the first request:
    // rows at cycles -3..-2, answered at -2..-1. The 16 weights: a set of 10 and one of 6, again
    // 2 cycles. 20 outputs, never a drain (1 KiB): drained at the end from cycle 14, 4 words
    // (the array's width) a cycle: 14..18.
    const Reports r = run(config(4, 4, "ws", "CALC"), Layer::gemm("g", 5, 4, 4));
    EXPECT_EQ(r.compute, "0, 14, 0, 35.714285714285715, 100.0, 27.77777777777778,\n");
    EXPECT_EQ(r.bandwidth,
              "0, 1.4285714285714286, 1.1428571428571428, 1.4285714285714286, 10.0, 8.0, 4.0,\n");
    EXPECT_EQ(r.detail,
              "0, 5.0, 12.0, 20, 1.0, 4.0, 16, 7.0, 14.0, 20, -2.0, -1.0, 20, -2.0, -1.0, 16, "
              "14.0, 18.0, 20,\n");
}

TEST(ScaleSimReplay, OutputStationaryCalcByHand) {
    // 4 x 4 os, GEMM M=5, N=4, K=4: Sr = M = 5 (two row folds: 4 rows, then 1), Sc = 4, T = 4;
    // two folds of R + C + T - 2 = 10 lines: last line 19. Mapping (16 + 4) / 32 = 62.5%;
    // compute util over the fold's own 10 lines: (64 / 160 + 16 / 160) / 2 = 25%.
    // SRAM: ifmap T x rows = 16 + 4; filter T x cols = 16 twice; ofmap rows x cols plus R + C
    // per fold: (16 + 8) + (4 + 8) = 36. Ifmap lines 0..6 and 10..13 (one used row), served a
    // cycle later; filter 0..6 and 10..16; outputs after T - 1 = 3 lines, flipped so that the
    // second fold's single row leaves last: lines 3..9 and 16..19.
    // DRAM: 20 ifmap words (2 sets); the 16 weights are asked twice but the second fold hits
    // the set of 10 just completed and the set of 6 still open: 16 words.
    const Reports r = run(config(4, 4, "os", "CALC"), Layer::gemm("g", 5, 4, 4));
    EXPECT_EQ(r.compute, "0, 19, 0, 26.31578947368421, 62.5, 25.0,\n");
    EXPECT_EQ(r.bandwidth,
              "0, 1.0526315789473684, 1.6842105263157894, 1.894736842105263, 10.0, 8.0, 4.0,\n");
    EXPECT_EQ(r.detail,
              "0, 1.0, 14.0, 20, 1.0, 17.0, 32, 3.0, 19.0, 36, -2.0, -1.0, 20, -2.0, -1.0, 16, "
              "19.0, 23.0, 20,\n");
}

TEST(ScaleSimReplay, InputStationaryCalcByHand) {
    // 4 x 4 is, GEMM M=5, N=4, K=4: Sr = K = 4, Sc = M = 5 (two column folds: 4, then 1),
    // T = N = 4; two folds of 2R + C + T - 2 = 14 lines: last line 27. Overall 8000 / (27 x 16).
    // Compute util over 14 + C - 1 = 17 lines: (64 + 16) / (2 x 16 x 17) = 14.70...%.
    // SRAM: ifmap rows x cols 16 + 4; filter T x rows 16 twice; ofmap T x cols 16 + 4. The
    // ifmap tile (flipped) is read on lines 0..3 of each fold (the second fold's single column
    // too); weights stream after the R preload lines: 4..10 and 18..24; outputs from 2R - 1:
    // lines 7..13 and 21..24 (one column).
    const Reports r = run(config(4, 4, "is", "CALC"), Layer::gemm("g", 5, 4, 4));
    EXPECT_EQ(r.compute, "0, 27, 0, 18.51851851851852, 62.5, 14.705882352941178,\n");
    EXPECT_EQ(r.detail,
              "0, 1.0, 18.0, 20, 5.0, 25.0, 32, 7.0, 24.0, 20, -2.0, -1.0, 20, -2.0, -1.0, 16, "
              "27.0, 31.0, 20,\n");
}

TEST(ScaleSimReplay, UserModeCountsWholeFetchLines) {
    // The ws case above with InterfaceBandwidth USER, 10 words per cycle: both operands fit
    // the active half, so no read ever misses and nothing stalls. Before cycle 0 the active
    // half is fetched in rows of 10 words: the ifmap's 20 words in 2 rows (cycles -2..-1),
    // the filter's 16 words also in 2 rows, counted as 20 words (SCALE-Sim counts whole
    // rows). Outputs drain 10 a cycle from cycle 14: 2 rows, 14..15.
    const Reports r = run(config(4, 4, "ws", "USER", 10), Layer::gemm("g", 5, 4, 4));
    EXPECT_EQ(r.compute, "0, 14, 0, 35.714285714285715, 100.0, 27.77777777777778,\n");
    EXPECT_EQ(r.detail,
              "0, 5.0, 12.0, 20, 1.0, 4.0, 16, 7.0, 14.0, 20, -2.0, -1.0, 20, -2.0, -1.0, 20, "
              "14.0, 15.0, 20,\n");
}

TEST(ScaleSimReplay, UserModeStallsWhenTheIfmapOutgrowsItsActiveHalf) {
    // Consistency check of the mechanism (not a hand-worked count): with a 1 KiB ifmap buffer
    // (512 active words), an 800-word ifmap must be prefetched while the array runs, and at 1
    // word per cycle the reads wait; at 100 words per cycle they never do.
    const Layer l = Layer::gemm("g", 200, 4, 4);
    const ScaleSimLayerReport slow = replay_scalesim_layer(config(4, 4, "ws", "USER", 1), l);
    const ScaleSimLayerReport fast = replay_scalesim_layer(config(4, 4, "ws", "USER", 100), l);
    EXPECT_GT(slow.stall_cycles, 0u);
    EXPECT_EQ(slow.total_cycles, fast.total_cycles + slow.stall_cycles - fast.stall_cycles);
    EXPECT_GT(slow.ifmap_dram.words, 800u);
}

TEST(ScaleSimReplay, BatchOtherThanOneIsAnError) {
    Layer l = Layer::gemm("g", 5, 4, 4);
    l.batch = 2;
    EXPECT_THROW(replay_scalesim_layer(config(4, 4, "ws", "CALC"), l), ConfigError);
}

// Reports written by SCALE-Sim v2 itself (scalesim_golden/README.md): every byte the same.
TEST(ScaleSimReplay, GoldenReportsOfScaleSimItself) {
    const std::string dir =
        std::string(WALLSIM_SOURCE_DIR) + "/tests/models/systolic/core/scalesim_golden/";
    int cases = 0;
    for (const char* name : {"t_ws_CALC_10_a", "t_ws_USER_1_b", "t_os_CALC_10_b", "t_os_USER_3_c",
                             "t_is_CALC_10_c", "t_is_USER_1_a"}) {
        const ScaleSimConfig cfg = read_scalesim_config(dir + name + ".cfg");
        for (const char* topo : {"conv", "gemm"}) {
            std::vector<ScaleSimLayerReport> layers;
            for (const Layer& l : read_topology_csv(dir + topo + ".csv").layers)
                layers.push_back(replay_scalesim_layer(cfg, l));
            const std::string golden = dir + name + "/" + topo + "/";
            EXPECT_EQ(compute_report_csv(layers), read_text_file(golden + "COMPUTE_REPORT.csv"))
                << name << " " << topo;
            EXPECT_EQ(bandwidth_report_csv(layers), read_text_file(golden + "BANDWIDTH_REPORT.csv"))
                << name << " " << topo;
            EXPECT_EQ(detailed_access_report_csv(layers),
                      read_text_file(golden + "DETAILED_ACCESS_REPORT.csv"))
                << name << " " << topo;
            ++cases;
        }
    }
    EXPECT_EQ(cases, 12);
}

}  // namespace
}  // namespace sim::systolic
