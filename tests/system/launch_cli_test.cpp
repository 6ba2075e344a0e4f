// SPDX-License-Identifier: MIT
// Launching kernels from the host (wallsim run, the trace header's launch:): a chain of tiny
// kernels on a stream runs at the host's launch rate, the same chain as a CUDA graph at the
// device's node-to-node gap; large kernels take their compute or memory time either way. The
// figures are the H100 preset's runtime: section (configs/hw/h100.yaml), read back from each
// run's stats.json (hw.launch).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/testing/temp_dir.h"
#include "tests/testing/wallsim_process.h"

namespace sim {
namespace {

using testing::expect_bad_input;
using testing::slurp;
using testing::wallsim;

// n element-wise kernels of `elements` FP32 elements, one after another on stream 0.
std::string chain(const std::string& launch, int n, uint64_t elements) {
    std::string t = "version: 1\n" + (launch.empty() ? "" : "launch: " + launch + "\n") +
                    "ops:\n  - repeat: " + std::to_string(n) + "\n    ops:\n      - {name: k, " +
                    "kind: elementwise, elements: " + std::to_string(elements) + "}\n";
    return t;
}

nlohmann::json run(testing::TempDir& dir, const std::string& name, const std::string& trace) {
    const auto out = dir.path() / name;
    const auto r =
        wallsim("run --hw configs/hw/h100.yaml --fidelity analytic --no-progress --trace " +
                    dir.write(name + ".yaml", trace) + " --out " + out.string(),
                dir);
    EXPECT_EQ(r.code, 0) << r.err;
    return nlohmann::json::parse(slurp(out / "stats.json"));
}

double sim_time(const nlohmann::json& stats) {
    return stats["run"]["sim_time"]["value"].get<double>();
}

// One of the runtime: figures the run used (seconds): stream_launch, stream_gap, graph_launch or
// graph_node_gap.
double launch_cost(const nlohmann::json& stats, const std::string& key) {
    return stats["hw"]["launch"][key]["value"].get<double>();
}

TEST(Launch, TinyKernelsOnAStreamRunAtTheHostsLaunchRate) {
    testing::TempDir dir;
    constexpr int n = 200;
    const auto stats = run(dir, "stream", chain("stream", n, 1));
    const double stream = sim_time(stats);
    const double launch = launch_cost(stats, "stream_launch"),
                 gap = launch_cost(stats, "stream_gap");
    ASSERT_LT(gap, launch);  // the device is faster than the host at a tiny kernel
    // The host enqueues one kernel per stream_launch; the device, faster, waits for each. The
    // last kernel ends its gap (and 12 bytes of work) after its launch.
    EXPECT_NEAR(stream, n * launch + gap, 1e-8);
    // No header is a stream launch.
    EXPECT_DOUBLE_EQ(sim_time(run(dir, "plain", chain("", n, 1))), stream);
}

TEST(Launch, AGraphOfTinyKernelsPaysOneHostLaunchAndTheNodeGaps) {
    testing::TempDir dir;
    constexpr int n = 200;
    const auto graph_run = run(dir, "graph", chain("graph", n, 1));
    const double graph = sim_time(graph_run);
    const double node_gap = launch_cost(graph_run, "graph_node_gap");
    EXPECT_NEAR(graph, launch_cost(graph_run, "graph_launch") + n * node_gap, 1e-8);
    // The device's gap between nodes, not the host's launches, sets the pace: faster than the
    // stream by as much as the node gap is shorter than a stream launch.
    ASSERT_LT(node_gap, launch_cost(graph_run, "stream_launch"));
    EXPECT_LT(graph, n * launch_cost(graph_run, "stream_launch"));
    const auto stats = run(dir, "graph_stats", chain("graph", 2, 1));
    EXPECT_EQ(stats["models"]["gpu_analytic"]["launch_bound_ops"]["value"], 2);
    // The preset's figure, unless a --set changed it: the same in every run of the preset.
    EXPECT_DOUBLE_EQ(launch_cost(stats, "graph_node_gap"), node_gap);
    // A --set moves it, and the time with it.
    const auto out = dir.path() / "graph_set";
    const auto r = wallsim(
        "run --hw configs/hw/h100.yaml --fidelity analytic --no-progress "
        "--set runtime.graph_node_gap=0.25us --trace " +
            dir.write("graph_set.yaml", chain("graph", n, 1)) + " --out " + out.string(),
        dir);
    ASSERT_EQ(r.code, 0) << r.err;
    const auto set = nlohmann::json::parse(slurp(out / "stats.json"));
    EXPECT_DOUBLE_EQ(launch_cost(set, "graph_node_gap"), 0.25e-6);
    EXPECT_NEAR(sim_time(set), launch_cost(set, "graph_launch") + n * 0.25e-6, 1e-8);
}

TEST(Launch, LargeKernelsTakeTheirMemoryTimeEitherWay) {
    testing::TempDir dir;
    constexpr int n = 8;
    constexpr uint64_t elements = 268435456;  // 3 GiB of FP32 traffic each
    const auto stream = run(dir, "stream", chain("stream", n, elements));
    const auto graph = run(dir, "graph", chain("graph", n, elements));
    EXPECT_EQ(stream["models"]["gpu_analytic"]["memory_bound_ops"]["value"], n);
    EXPECT_EQ(graph["models"]["gpu_analytic"]["memory_bound_ops"]["value"], n);
    // The host runs ahead; the launches differ only by their device-side gaps and the first
    // host call: microseconds in milliseconds.
    const double s = sim_time(stream), g = sim_time(graph);
    EXPECT_GT(s, 0.9e-3 * n);  // 3.2 GB at 3.35 TB/s: 0.96 ms each
    EXPECT_NEAR(s - g,
                n * (launch_cost(stream, "stream_gap") - launch_cost(graph, "graph_node_gap")) +
                    launch_cost(stream, "stream_launch") - launch_cost(graph, "graph_launch"),
                1e-8);
    EXPECT_LT(std::abs(s - g) / s, 1e-3);
}

TEST(Launch, AnUnknownLaunchModeIsOneLineAtItsTraceLine) {
    testing::TempDir dir;
    const std::string trace = dir.write("bad.yaml",
                                        "version: 1\nlaunch: eager\nops:\n"
                                        "  - {kind: elementwise, elements: 4}\n");
    expect_bad_input(
        wallsim("run --hw configs/hw/h100.yaml --trace " + trace + " --out " +
                    (dir.path() / "o").string(),
                dir),
        "bad.yaml:2:9: launch: 'eager' is not a launch mode; expected stream or graph");
    expect_bad_input(wallsim("validate-trace " + trace, dir), "expected stream or graph");
}

}  // namespace
}  // namespace sim
