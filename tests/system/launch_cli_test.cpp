// SPDX-License-Identifier: MIT
// Launching kernels from the host (wallsim run, the trace header's launch:): a chain of tiny
// kernels on a stream runs at the host's launch rate, the same chain as a CUDA graph at the
// device's node-to-node gap; large kernels take their compute or memory time either way. The
// figures are the H100 preset's runtime: section (configs/hw/h100.yaml).
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

constexpr double kStreamLaunch = 2.7e-6;  // runtime.stream_launch
constexpr double kStreamGap = 0.9e-6;     // runtime.stream_gap
constexpr double kGraphLaunch = 3.5e-6;   // runtime.graph_launch
constexpr double kGraphNodeGap = 0.5e-6;  // runtime.graph_node_gap

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

TEST(Launch, TinyKernelsOnAStreamRunAtTheHostsLaunchRate) {
    testing::TempDir dir;
    constexpr int n = 200;
    const double stream = sim_time(run(dir, "stream", chain("stream", n, 1)));
    // The host enqueues one kernel per stream_launch; the device, faster, waits for each. The
    // last kernel ends its gap (and 12 bytes of work) after its launch.
    EXPECT_NEAR(stream, n * kStreamLaunch + kStreamGap, 1e-8);
    // No header is a stream launch.
    EXPECT_DOUBLE_EQ(sim_time(run(dir, "plain", chain("", n, 1))), stream);
}

TEST(Launch, AGraphOfTinyKernelsPaysOneHostLaunchAndTheNodeGaps) {
    testing::TempDir dir;
    constexpr int n = 200;
    const double graph = sim_time(run(dir, "graph", chain("graph", n, 1)));
    EXPECT_NEAR(graph, kGraphLaunch + n * kGraphNodeGap, 1e-8);
    EXPECT_LT(graph, n * kStreamLaunch / 4);  // more than four times faster than the stream
    const auto stats = run(dir, "graph_stats", chain("graph", 2, 1));
    EXPECT_EQ(stats["models"]["gpu_analytic"]["launch_bound_ops"]["value"], 2);
    EXPECT_DOUBLE_EQ(stats["hw"]["launch"]["graph_node_gap"]["value"].get<double>(), kGraphNodeGap);
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
    EXPECT_NEAR(s - g, n * (kStreamGap - kGraphNodeGap) + kStreamLaunch - kGraphLaunch, 1e-8);
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
