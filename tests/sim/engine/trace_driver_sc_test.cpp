// SPDX-License-Identifier: MIT
// The SystemC trace driver with a scripted model: program order per stream, overlap across
// streams, after: dependencies. Each TEST elaborates its own top and calls sc_start once, so
// ctest runs every TEST in its own process (gtest_discover_tests); SystemC cannot restart.
#include <gtest/gtest.h>

#include <cstdlib>

#include "sim/engine/host_launch.h"
#include "sim/engine/trace_driver.h"
#include "sim/trace/trace_parser.h"

namespace sim {
namespace {

// Every op takes a fixed 10 ns; no shared engine, so streams overlap freely.
class FixedDelayModel final : public OpModel {
  public:
    bool supports(const Op&) const override { return true; }
    std::string why_unsupported(const Op&) const override { return {}; }
    OpResult execute(const Op&) override {
        OpResult r;
        r.start = TimePs{sc_core::sc_time_stamp().value()};
        sc_core::wait(10, sc_core::SC_NS);
        r.end = TimePs{sc_core::sc_time_stamp().value()};
        r.bound = "compute";
        return r;
    }
    // The host spends 25 ns per stream launch, 40 ns on a graph launch.
    HostLaunch host_launch(const Op& op) const override {
        if (op.launch == LaunchMode::Graph) return {TimePs{0}, TimePs{40'000}};
        return {TimePs{25'000}, TimePs{0}};
    }
};

struct Harness {
    /// host: start no op before the host has launched it (host_issue_times); otherwise at once.
    explicit Harness(const std::string& yaml, bool host = false)
        : trace(parse_trace_yaml(yaml, "t.yaml")),
          models(trace.ops.size(), &model),
          driver("driver",
                 trace,
                 models,
                 host ? host_issue_times(trace, models) : std::vector<TimePs>{},
                 [this](uint64_t n) { completions = n; }) {}
    const OpResult& result(size_t i) const { return driver.results()[i]; }

    Trace trace;
    FixedDelayModel model;
    std::vector<OpModel*> models;
    uint64_t completions = 0;
    TraceDriver driver;
};

constexpr uint64_t kNs = 1000;  // ps

TEST(TraceDriver, OneStreamRunsInProgramOrder) {
    Harness h(
        "version: 1\nops:\n"
        "  - {kind: elementwise, elements: 1}\n"
        "  - {kind: elementwise, elements: 1}\n"
        "  - {kind: elementwise, elements: 1}\n");
    sc_core::sc_start();
    ASSERT_TRUE(h.driver.finished());
    EXPECT_EQ(h.completions, 3u);
    EXPECT_EQ(h.result(0).start, TimePs{0});
    EXPECT_EQ(h.result(1).start, TimePs{10 * kNs});
    EXPECT_EQ(h.result(2).end, TimePs{30 * kNs});
}

// Ops of 10 ns launched every 25 ns run at the host's rate, one per launch.
TEST(TraceDriver, AStreamWaitsForTheHostToLaunchEachOp) {
    Harness h(
        "version: 1\nops:\n"
        "  - {kind: elementwise, elements: 1}\n"
        "  - {kind: elementwise, elements: 1}\n"
        "  - {kind: elementwise, elements: 1, stream: 1}\n",
        true);
    sc_core::sc_start();
    EXPECT_EQ(h.result(0).start, TimePs{25 * kNs});
    EXPECT_EQ(h.result(1).start, TimePs{50 * kNs});
    EXPECT_EQ(h.result(2).start, TimePs{75 * kNs});  // one host thread for every stream
}

// A graph is launched once; its ops then follow one another as fast as the device runs them.
TEST(TraceDriver, AGraphIsLaunchedOnce) {
    Harness h(
        "version: 1\nlaunch: graph\nops:\n"
        "  - {kind: elementwise, elements: 1}\n"
        "  - {kind: elementwise, elements: 1}\n"
        "  - {kind: elementwise, elements: 1}\n",
        true);
    sc_core::sc_start();
    EXPECT_EQ(h.result(0).start, TimePs{40 * kNs});
    EXPECT_EQ(h.result(1).start, TimePs{50 * kNs});
    EXPECT_EQ(h.result(2).end, TimePs{70 * kNs});
}

TEST(TraceDriver, StreamsOverlap) {
    Harness h(
        "version: 1\nops:\n"
        "  - {kind: elementwise, elements: 1, stream: 0}\n"
        "  - {kind: elementwise, elements: 1, stream: 1}\n");
    sc_core::sc_start();
    EXPECT_EQ(h.result(0).start, TimePs{0});
    EXPECT_EQ(h.result(1).start, TimePs{0});
}

TEST(TraceDriver, AfterWaitsForOtherStreams) {
    Harness h(
        "version: 1\nops:\n"
        "  - {name: a, kind: elementwise, elements: 1, stream: 0}\n"
        "  - {name: b, kind: elementwise, elements: 1, stream: 0}\n"
        "  - {name: c, kind: elementwise, elements: 1, stream: 1, after: [b]}\n"
        "  - {name: d, kind: elementwise, elements: 1, stream: 2, after: [a, c]}\n");
    sc_core::sc_start();
    ASSERT_TRUE(h.driver.finished());
    EXPECT_EQ(h.result(2).start, TimePs{20 * kNs});  // after b ends
    EXPECT_EQ(h.result(3).start, TimePs{30 * kNs});  // after the later of a and c
}

TEST(TraceDriver, DependencyAlreadyDoneDoesNotBlock) {
    Harness h(
        "version: 1\nops:\n"
        "  - {name: a, kind: elementwise, elements: 1, stream: 0}\n"
        "  - {name: b, kind: elementwise, elements: 1, stream: 1}\n"
        "  - {name: c, kind: elementwise, elements: 1, stream: 1}\n"
        "  - {name: d, kind: elementwise, elements: 1, stream: 1, after: [a]}\n");
    sc_core::sc_start();
    EXPECT_EQ(h.result(3).start, TimePs{20 * kNs});  // a finished long before
}

}  // namespace
}  // namespace sim
