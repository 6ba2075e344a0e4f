// SPDX-License-Identifier: MIT
// The bulk-copy microbenchmark (Luo et al.'s TMA bandwidth test, docs/references.md [luo2024])
// on the cycle-level GPU, by mechanism: with one copy in flight per CTA the bandwidth is the
// bytes in flight over the round trip (Little's law), so twice the copies in flight move twice
// the bytes while the memory is lightly loaded; no load passes the pins; and the TMA unit's walk
// (sm.tma_bytes_per_clock) lengthens a large copy's round trip by its bytes over the walk's
// rate; and it is simulated whole at every fidelity. Its validation against Luo et al.'s
// measured curves is configs/validation/bulk_copy.yaml (`wallsim validate --filter bulk_copy`,
// run by validation_cases_test).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "models/gpu/core/gpu_core.h"
#include "models/hbm/core/hbm_system.h"
#include "tests/testing/gpu_presets.h"

namespace sim::gpu {
namespace {

using testing::gpu_preset;

/// The H800 PCIe as the validation cases run it: the H100 preset at its SM count, boost clock
/// and memory bandwidth.
GpuParams h800(std::vector<std::string> extra = {}) {
    std::vector<std::string> o{"sm.count=114", "clocks.boost=1755MHz", "hbm.pin_rate=3.125Gbps"};
    o.insert(o.end(), extra.begin(), extra.end());
    return gpu_preset("h100", o);
}

/// Cycles a bulk-copy kernel takes at cycle level.
uint64_t cycles(const GpuParams& p, const BulkCopyParams& c) {
    SamplingOptions exact;
    exact.enabled = false;
    return GpuCore(p.core, p.hbm.core, bulk_copy_kernel(c, {p.core, p.tensor})).run(exact).cycles;
}

/// Bytes per SM cycle.
double rate(const GpuParams& p, const BulkCopyParams& c) {
    return double(c.bytes()) / double(cycles(p, c));
}

BulkCopyParams copies_of(uint64_t ctas, uint64_t copy_bytes, uint64_t copies, uint64_t in_flight) {
    BulkCopyParams c;
    c.ctas = ctas;
    c.copy_bytes = copy_bytes;
    c.copies = copies;
    c.in_flight = in_flight;
    return c;
}

TEST(BulkCopy, TwiceTheCopiesInFlightMoveTwiceTheBytesWhileTheMemoryIsLightlyLoaded) {
    const GpuParams p = h800();
    // 114 KiB in flight is about 5% of what 2 TB/s needs at this round trip.
    const double one = rate(p, copies_of(114, 1024, 96, 1));
    const double two = rate(p, copies_of(114, 1024, 96, 2));
    EXPECT_GT(two / one, 1.8);
    EXPECT_LT(two / one, 2.05);
}

TEST(BulkCopy, NoLoadPassesThePins) {
    const GpuParams p = h800();
    const double pins = hbm::HbmSystem(p.hbm.core).peak_bytes_per_cycle() *
                        double(p.hbm.core.clock_hz) / double(p.core.clock_hz);  // per SM cycle
    const double saturated = rate(p, copies_of(456, 16384, 12, 1));
    EXPECT_LT(saturated, pins);
    EXPECT_GT(saturated, 0.9 * pins) << "four 16 KiB copies per SM saturate the memory";
}

TEST(BulkCopy, TheTmaWalkLengthensALargeCopysRoundTripByItsBytesOverTheWalkRate) {
    // One CTA: the memory is idle, so the walk is all the difference. The last of a 16 KiB
    // copy's 128 lines leaves (16384 - 128) / 32 = 508 cycles after its first.
    const BulkCopyParams c = copies_of(1, 16384, 16, 1);
    const double at_once = double(cycles(h800({"sm.tma_bytes_per_clock=0"}), c)) / 16;
    const double walked = double(cycles(h800({"sm.tma_bytes_per_clock=32"}), c)) / 16;
    EXPECT_NEAR(walked - at_once, 508, 0.1 * 508);
    // A copy of one line is not walked: the same round trip either way.
    const BulkCopyParams line = copies_of(1, 128, 16, 1);
    EXPECT_NEAR(double(cycles(h800({"sm.tma_bytes_per_clock=32"}), line)),
                double(cycles(h800({"sm.tma_bytes_per_clock=0"}), line)), 16);
}

TEST(BulkCopy, IsSimulatedWholeAtEveryFidelity) {
    // Sampled, the k-loop jump would extrapolate the first rounds, CTAs still in step and the
    // memory still filling: 7% faster than the rate the copies settle to (1 KiB, 456 CTAs).
    const GpuParams p = h800();
    const KernelLaunch k = bulk_copy_kernel(copies_of(456, 1024, 64, 1), {p.core, p.tensor});
    EXPECT_FALSE(k.may_sample);
    SamplingOptions sampled;
    ASSERT_TRUE(sampled.enabled);
    const KernelResult r = GpuCore(p.core, p.hbm.core, k).run(sampled);
    EXPECT_FALSE(r.extrapolated);
    EXPECT_EQ(r.cycles, cycles(p, copies_of(456, 1024, 64, 1)));
    KernelLaunch sampleable = k;
    sampleable.may_sample = true;
    EXPECT_TRUE(GpuCore(p.core, p.hbm.core, sampleable).run(sampled).extrapolated)
        << "the same kernel, were it not a microbenchmark, would be fast-forwarded";
}

}  // namespace
}  // namespace sim::gpu
