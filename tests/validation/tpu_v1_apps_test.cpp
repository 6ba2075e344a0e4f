// SPDX-License-Identifier: MIT
// TPU v1 on its six production applications (traces/examples/tpu_v1_apps.yaml, from Table 1 of
// Jouppi et al., ISCA 2017; docs/references.md [jouppi2017]) against the paper's Table 3:
// per-app TOPS (row 9, measured on production code, host time excluded) within 20%, where the
// mechanisms of core/tpu_pipeline.h reach it, and the matrix-unit breakdown (rows 1, 4, 5, 6).
// Nothing in the preset is fitted to Table 3, nor anything in the trace to its TOPS or time
// breakdown; the trace's MLP1 and LSTM0 widths take how full Table 3 says their weight tiles
// are (rows 2 and 3). Prints the table docs/systolic.md shows.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>

#include "models/systolic/core/op_layer.h"
#include "models/systolic/systolic_params.h"
#include "sim/config/loader.h"
#include "sim/trace/trace_parser.h"

namespace sim::systolic {
namespace {

struct App {
    uint64_t cycles = 0, active = 0, stall = 0, shift = 0, non_matrix = 0, macs = 0;
    uint64_t host = 0;  // of non_matrix: PCIe transfers
    double useful = 0;
};

struct Published {
    double tops;                              ///< Table 3 row 9
    double active, stall, shift, non_matrix;  ///< rows 1, 4, 5, 6, fractions
    double useful;                            ///< row 2, fraction of the peak MACs
};

// [jouppi2017] Table 3.
const std::map<std::string, Published> kTable3 = {
    {"MLP0", {12.3, 0.127, 0.539, 0.159, 0.175, 0.125}},
    {"MLP1", {9.7, 0.106, 0.442, 0.134, 0.319, 0.094}},
    {"LSTM0", {3.7, 0.082, 0.581, 0.158, 0.179, 0.082}},
    {"LSTM1", {2.8, 0.105, 0.621, 0.171, 0.103, 0.063}},
    {"CNN0", {86.0, 0.782, 0.0, 0.0, 0.218, 0.782}},
    {"CNN1", {14.1, 0.462, 0.281, 0.070, 0.187, 0.225}},
};

std::map<std::string, App> run_apps() {
    const auto doc = load_config(std::string(WALLSIM_SOURCE_DIR) + "/configs/hw/tpu_v1.yaml");
    const SystolicParams p = SystolicParams::from_config(ConfigNode::root_of(doc));
    const Trace trace =
        parse_trace_file(std::string(WALLSIM_SOURCE_DIR) + "/traces/examples/tpu_v1_apps.yaml");
    std::map<std::string, App> apps;
    for (const Op& op : trace.ops) {
        const TpuTiming t = tpu_op_timing(op, p.array, p.tpu);
        App& a = apps[op.name.substr(0, op.name.find('/'))];
        a.cycles += t.cycles;
        a.active += t.active_cycles;
        a.stall += t.weight_stall_cycles;
        a.shift += t.weight_shift_cycles;
        a.non_matrix += t.non_matrix_cycles;
        if (op.kind == OpKind::Memcpy) a.host += t.cycles;
        a.macs += t.macs;
        a.useful += t.useful_mac_cycles;
    }
    return apps;
}

double tops(const App& a) {
    return 2.0 * double(a.macs) / (double(a.cycles) / 700e6) / 1e12;  // TPU v1 clock, Table 2
}

/// Of the MAC slots of the active cycles, the share that holds no weight (partial tiles).
double unused_share(const App& a) {
    return 1.0 - a.useful / double(a.active);
}

TEST(TpuV1Apps, TraceHasTheSixApplicationsOfTable1) {
    const auto apps = run_apps();
    EXPECT_EQ(apps.size(), 6u);
    for (const auto& [name, pub] : kTable3)
        EXPECT_TRUE(apps.count(name)) << name;
}

TEST(TpuV1Apps, BreakdownAddsUp) {
    // Consistency check: every cycle is active, a weight stall, a shift or non-matrix.
    for (const auto& [name, a] : run_apps())
        EXPECT_EQ(a.active + a.stall + a.shift + a.non_matrix, a.cycles) << name;
}

TEST(TpuV1Apps, WeightTilesAreAboutAsFullAsTable3Says) {
    // Consistency check of the trace's layer shapes, not a validation: where Table 1 leaves
    // the widths open, MLP1's and LSTM0's were chosen so that their weight tiles are as full
    // as Table 3 says (rows 2 and 3: useful and unused MACs of the active cycles). The others
    // follow from Table 1 and the paper's text; LSTM1's 600 x 600 matrices (Sec. 7) leave its
    // tiles fuller than Table 3's 40% unused, hence the tolerance.
    const auto apps = run_apps();
    for (const auto& [name, pub] : kTable3)
        EXPECT_NEAR(unused_share(apps.at(name)), 1 - pub.useful / pub.active, 0.12) << name;
}

TEST(TpuV1Apps, TopsAgainstTable3) {
    const auto apps = run_apps();
    std::printf(
        "app    TOPS  paper  diff | active   stall   shift  non-mat (host) unused | paper: active "
        "stall shift non-mat unused\n");
    int within = 0;
    for (const auto& [name, pub] : kTable3) {
        const App& a = apps.at(name);
        const double c = double(a.cycles), t = tops(a);
        std::printf(
            "%-5s %5.1f %6.1f %+5.0f%% | %5.1f%% %6.1f%% %6.1f%% %6.1f%% (%4.1f%%) %5.1f%% | "
            "%5.1f%% %5.1f%% %5.1f%% %5.1f%% %5.1f%%\n",
            name.c_str(), t, pub.tops, 100 * (t / pub.tops - 1), 100 * a.active / c,
            100 * a.stall / c, 100 * a.shift / c, 100 * a.non_matrix / c, 100 * a.host / c,
            100 * unused_share(a), 100 * pub.active, 100 * pub.stall, 100 * pub.shift,
            100 * pub.non_matrix, 100 * (1 - pub.useful / pub.active));
        if (std::abs(t / pub.tops - 1) <= 0.20) ++within;
    }
    // MLP0, MLP1 and LSTM0 (Weight-FIFO bound) and CNN0 (matrix bound) land within 20% of
    // Table 3. LSTM1 and CNN1 do not (docs/systolic.md says why).
    for (const char* name : {"MLP0", "MLP1", "LSTM0", "CNN0"}) {
        EXPECT_NEAR(tops(apps.at(name)), kTable3.at(name).tops, 0.20 * kTable3.at(name).tops)
            << name;
    }
    // MLPs and LSTMs wait on weights most of the time, CNN0 does not (Table 3 rows 4 and 1).
    for (const char* name : {"MLP0", "MLP1", "LSTM0", "LSTM1"}) {
        const App& a = apps.at(name);
        EXPECT_GT(a.stall, a.active) << name;
    }
    EXPECT_GT(apps.at("CNN0").active, 5 * apps.at("CNN0").stall);
    std::printf("%d of 6 apps within 20%% of Table 3's TOPS\n", within);
}

}  // namespace
}  // namespace sim::systolic
