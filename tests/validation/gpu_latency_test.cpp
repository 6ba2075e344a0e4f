// SPDX-License-Identifier: MIT
// Load-to-use latency of a one-thread pointer chase on the cycle-level GPU against the
// microbenchmarks of Luo et al. (docs/references.md [luo2024]), which chased pointers on an
// A100 PCIe 40 GB (1410 MHz) and an H800 PCIe (an H100 die with 114 SMs, 1755 MHz boost):
//   L1 ≈ 38 / 40.7, L2 ≈ 262 / 263.0, global memory ≈ 466 / 478.8 SM cycles.
// The L1 and L2 cases are consistency checks: a chase there takes exactly the presets' hit
// and crossbar latencies (set from microbenchmarks of this class). Global memory: the path
// from an L2 miss to the memory controller and back, fitted on the A100, validated on the H800.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "models/gpu/core/gpu_core.h"
#include "tests/testing/gpu_presets.h"

namespace sim::gpu {
namespace {

using testing::gpu_preset;

/// Mean SM cycles per timed load of a chase over `footprint` bytes, `stride` apart.
double chase(const GpuParams& p, uint64_t footprint, uint64_t stride, uint64_t steps = 2048) {
    const PointerChaseParams c{footprint, stride, steps};
    const GpuTarget target{p.core, p.tensor};
    SamplingOptions exact;
    exact.enabled = false;
    const KernelLaunch timed = pointer_chase_kernel(c, target, true);
    const KernelLaunch lap = pointer_chase_kernel(c, target, false);
    const uint64_t all = GpuCore(p.core, p.hbm.core, timed).run(exact).cycles;
    const uint64_t warm = GpuCore(p.core, p.hbm.core, lap).run(exact).cycles;
    return double(all - warm) / double(steps);
}

struct Published {
    const char* gpu;
    std::vector<std::string> overrides;  ///< the measured part's clock
    double l1, l2, dram;                 ///< SM cycles [luo2024]
};

const Published kA100{"a100", {}, 38, 262, 466};
// The H800 PCIe's boost clock (1755 MHz, as the H100 PCIe's); the chase measures cycles of it.
const Published kH800{"h100", {"clocks.boost=1755MHz"}, 40.7, 263.0, 478.8};

constexpr double kTolerance = 0.10;

void expect_near_published(double simulated, double published, const char* what) {
    EXPECT_NEAR(simulated, published, kTolerance * published)
        << what << ": simulated " << simulated << " cycles, published " << published;
}

TEST(GpuLatency, ChaseInL1IsTheL1HitLatencyConsistencyCheck) {
    for (const Published& g : {kA100, kH800}) {
        const GpuParams p = gpu_preset(g.gpu, g.overrides);
        EXPECT_DOUBLE_EQ(chase(p, 4096, 128), p.core.l1.hit_latency) << g.gpu;
    }
}

TEST(GpuLatency, ChaseInL2IsTheL2PathConsistencyCheck) {
    for (const Published& g : {kA100, kH800}) {
        const GpuParams p = gpu_preset(g.gpu, g.overrides);
        // 4 MiB: far beyond L1, well inside L2.
        EXPECT_DOUBLE_EQ(chase(p, 4 << 20, 128),
                         p.core.l2.hit_latency + 2 * p.core.l2.crossbar_latency)
            << g.gpu;
    }
}

TEST(GpuLatency, TheControllerPathAddsItsLatencyBothWaysToEveryDramLoad) {
    const GpuParams base =
        gpu_preset("h100", {"hbm.timing.t_refi=1000us", "l2.controller_latency=0"});
    const GpuParams slow =
        gpu_preset("h100", {"hbm.timing.t_refi=1000us", "l2.controller_latency=100"});
    const double l2 = chase(base, 4 << 20, 128), dram = chase(base, 1ULL << 30, 4096);
    EXPECT_GT(dram, l2);
    EXPECT_NEAR(chase(slow, 1ULL << 30, 4096) - dram, 200, 2);
    EXPECT_DOUBLE_EQ(chase(slow, 4 << 20, 128), l2);  // hits never leave the L2
}

// The presets' l2.controller_latency (65 SM cycles each way) is fitted to one figure: the
// DRAM - L2 increment of [luo2024]'s A100 chase, 466 - 262 = 204 cycles. Consistency check.
TEST(GpuLatency, TheControllerLatencyFitReproducesTheA100IncrementConsistencyCheck) {
    const GpuParams p = gpu_preset(kA100.gpu, kA100.overrides);
    const double increment = chase(p, 1ULL << 30, 4096) - chase(p, 4 << 20, 128);
    EXPECT_NEAR(increment, kA100.dram - kA100.l2, 0.03 * (kA100.dram - kA100.l2));
}

// Validation on data the fit did not see: [luo2024]'s H800 (another die, HBM generation,
// refresh policy and clock), its global-memory latency and its DRAM - L2 increment (216).
TEST(GpuLatency, ChaseInDramMatchesLuoEtAlOnH800) {
    const GpuParams p = gpu_preset(kH800.gpu, kH800.overrides);
    const double dram = chase(p, 1ULL << 30, 4096);
    expect_near_published(dram, kH800.dram, "H800 global memory");
    expect_near_published(dram - chase(p, 4 << 20, 128), kH800.dram - kH800.l2,
                          "H800 DRAM - L2 increment");
}

// Not asserted, a known gap (configs/validation/memory.yaml, chase_dram_a100): the A100's
// absolute global-memory latency is about 400 cycles against 466, because its L2 hits take 200
// cycles in the preset (the near partition of [luo2025], 202.8) where [luo2024]'s chase took
// 262: wallsim has no near and far L2 partitions.

}  // namespace
}  // namespace sim::gpu
