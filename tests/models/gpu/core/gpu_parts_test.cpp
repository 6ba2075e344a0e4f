// SPDX-License-Identifier: MIT
// The cycle-level GPU's parts on their own: occupancy limits, the coalescer, the sectored cache
// the in-flight line table and the cluster multicast table.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "models/gpu/core/cluster_multicast.h"
#include "models/gpu/core/coalescer.h"
#include "models/gpu/core/line_table.h"
#include "models/gpu/core/occupancy.h"
#include "models/gpu/core/sampling.h"
#include "models/gpu/core/sector_cache.h"

namespace sim::gpu {
namespace {

KernelLaunch kernel(uint32_t threads, uint32_t registers, uint32_t shared = 0) {
    KernelLaunch k;
    k.threads_per_cta = threads;
    k.registers_per_thread = registers;
    k.shared_bytes_per_cta = shared;
    return k;
}

TEST(Occupancy, EachLimitStopsTheNextCtaOnH100) {
    const SmConfig sm;  // H100-class defaults: 64 warps, 2048 threads, 32 CTAs, 64K registers
    EXPECT_EQ(occupancy_of(sm, kernel(256, 32)).ctas_per_sm, 8u);
    EXPECT_EQ(occupancy_of(sm, kernel(256, 32)).limiter, "threads");
    // 128 registers per thread: 4096 per warp, 16 warps per SM = 2 CTAs of 256 threads.
    EXPECT_EQ(occupancy_of(sm, kernel(256, 128)).ctas_per_sm, 2u);
    EXPECT_EQ(occupancy_of(sm, kernel(256, 128)).limiter, "registers");
    // 100 KB of shared memory per CTA: two fit in 228 KB.
    EXPECT_EQ(occupancy_of(sm, kernel(128, 32, 100 * 1024)).ctas_per_sm, 2u);
    EXPECT_EQ(occupancy_of(sm, kernel(128, 32, 100 * 1024)).limiter, "shared_memory");
    // One-warp CTAs: the 32-CTA limit, half the warps.
    EXPECT_EQ(occupancy_of(sm, kernel(32, 32)).ctas_per_sm, 32u);
    EXPECT_DOUBLE_EQ(occupancy_of(sm, kernel(32, 32)).fraction(sm), 0.5);
    // Registers are allocated per warp in granules of 256: 33 per thread cost as much as 40, so
    // a 1024-thread CTA needs 40 960 and one fits; at 255 per thread none does.
    EXPECT_EQ(occupancy_of(sm, kernel(1024, 33)).ctas_per_sm, 1u);
    EXPECT_EQ(occupancy_of(sm, kernel(1024, 255)).ctas_per_sm, 0u);
}

AddressStream stream(uint32_t access_bytes, uint64_t stride = 1) {
    AddressStream s;
    s.access_bytes = access_bytes;
    s.vectors = 1 << 20;
    s.cta_step = 256;
    if (stride > 1) {
        s.layout = AddressStream::Layout::Strided;
        s.stride = stride;
    }
    return s;
}

TEST(Coalescer, SixteenBytesPerThreadAreFourWholeLines) {
    LineAccess out[32];
    const size_t n = coalesce(stream(16), 0, 0, 0, ~0u, out);
    ASSERT_EQ(n, 4u);
    for (size_t i = 0; i < n; ++i) {
        EXPECT_EQ(out[i].line, i * 128);
        EXPECT_EQ(out[i].sectors, 0xF);
    }
}

TEST(Coalescer, FourBytesPerThreadAreOneLine) {
    LineAccess out[32];
    ASSERT_EQ(coalesce(stream(4), 3, 0, 1, ~0u, out), 1u);
    EXPECT_EQ(out[0].line, (3 * 256 + 32) * 4u);  // CTA 3, warp 1
    EXPECT_EQ(out[0].sectors, 0xF);
}

TEST(Coalescer, InactiveLanesMoveNothing) {
    LineAccess out[32];
    ASSERT_EQ(coalesce(stream(4), 0, 0, 0, 0xFF, out), 1u);  // lanes 0-7: one sector
    EXPECT_EQ(out[0].sectors, 0x1);
    EXPECT_EQ(coalesce(stream(4), 0, 0, 0, 0, out), 0u);
}

TEST(Coalescer, AStridedWalkTouchesOneSectorPerThread) {
    LineAccess out[32];
    ASSERT_EQ(coalesce(stream(4, 32), 0, 0, 0, ~0u, out), 32u);
    for (size_t i = 0; i < 32; ++i)
        EXPECT_EQ(__builtin_popcount(out[i].sectors), 1);
}

// A full warp on a linear stream takes a shortcut (one run of bytes); it must give exactly the
// lines and sectors of walking the lanes one by one, whatever the access size, the base's
// offset within a line and the array's end (where the lanes wrap to its start).
TEST(Coalescer, TheContiguousShortcutMatchesTheLaneByLaneWalk) {
    size_t cases = 0;
    for (uint32_t bytes : {1u, 2u, 4u, 8u, 16u}) {
        for (uint64_t base_offset : {0u, 16u, 48u, 96u}) {
            AddressStream s = stream(bytes);
            s.base = 4096 + base_offset / bytes * bytes;  // aligned to the access size
            s.vectors = 1000;                             // not a multiple of 32: lanes wrap
            for (uint64_t cta = 0; cta < 5; ++cta) {
                for (uint32_t warp = 0; warp < 8; ++warp) {
                    LineAccess fast[32], slow[32];
                    const size_t n = coalesce(s, cta, 0, warp, ~0u, fast);
                    // All lanes but one: the shortcut is off, every lane is walked; then add
                    // the last lane by hand.
                    size_t m = coalesce(s, cta, 0, warp, 0x7FFFFFFF, slow);
                    const uint64_t addr = s.address(cta, 0, uint64_t{warp} * 32 + 31);
                    const uint64_t line = addr & ~uint64_t{127};
                    const auto sector = static_cast<uint8_t>(1u << ((addr >> 5) & 3));
                    size_t i = 0;
                    while (i < m && slow[i].line != line)
                        ++i;
                    if (i == m) slow[m++] = {line, 0};
                    slow[i].sectors |= sector;
                    ASSERT_EQ(n, m) << bytes << " B, cta " << cta << ", warp " << warp;
                    for (size_t k = 0; k < n; ++k) {
                        EXPECT_EQ(fast[k].line, slow[k].line);
                        EXPECT_EQ(fast[k].sectors, slow[k].sectors);
                    }
                    ++cases;
                }
            }
        }
    }
    EXPECT_EQ(cases, 5u * 4 * 5 * 8);
}
TEST(SectorCache, SectorsFillOneAtATimeAndLruEvictsDirtyLines) {
    SectorCache c(2 * 128, 2);  // one set of two ways
    SectorCache::Victim v;
    EXPECT_EQ(c.lookup(0, 0xF), 0);
    c.fill(0, 0x3, false, v);
    EXPECT_EQ(c.lookup(0, 0xF), 0x3);
    c.fill(128, 0xF, true, v);  // dirty
    EXPECT_EQ(v.dirty, 0);
    c.lookup(0, 0x1);            // line 0 is now the most recent
    c.fill(256, 0xF, false, v);  // evicts line 128, dirty
    EXPECT_EQ(v.line, 128u);
    EXPECT_EQ(v.dirty, 0xF);
    EXPECT_EQ(c.lookup(128, 0xF), 0);
    c.invalidate(0);
    EXPECT_EQ(c.lookup(0, 0xF), 0);
}

TEST(SectorCache, VictimForNamesTheDirtyLineAFillWouldEvictAndChangesNothing) {
    SectorCache c(2 * 128, 2);  // one set of two ways
    SectorCache::Victim v;
    c.fill(0, 0xF, false, v);
    EXPECT_EQ(c.victim_for(128).dirty, 0) << "a free way: nothing evicted";
    c.fill(128, 0x3, true, v);
    EXPECT_EQ(c.victim_for(0).dirty, 0) << "a present line evicts nothing";
    EXPECT_EQ(c.victim_for(256).dirty, 0) << "the LRU line, 0, is clean";
    c.lookup(0, 0x1);  // line 128, dirty, becomes the least recent
    const SectorCache::Victim next = c.victim_for(256);
    EXPECT_EQ(next.line, 128u);
    EXPECT_EQ(next.dirty, 0x3);
    EXPECT_EQ(c.victim_for(256).line, 128u) << "asking changed nothing";
    c.fill(256, 0xF, false, v);
    EXPECT_EQ(v.line, next.line);
    EXPECT_EQ(v.dirty, next.dirty);
}

// The LRU clock is 16 bits per set: when it would wrap, the set's stamps are renumbered in
// their order, and the least recently used line is still the one evicted.
TEST(SectorCache, LruOrderSurvivesTheClockWrapping) {
    SectorCache c(4 * 128, 4);  // one set of four ways
    SectorCache::Victim v;
    c.set_clock(UINT16_MAX - 5);
    for (uint64_t line = 0; line < 4; ++line)
        c.fill(line * 128, 0xF, true, v);  // stamps max-4 .. max-1
    c.lookup(0, 0xF);                      // stamp max: line 0 is the most recent
    c.lookup(128, 0xF);                    // the clock wraps: renumbered, then line 128
    c.fill(4 * 128, 0xF, false, v);        // evicts line 256, the least recently used
    EXPECT_EQ(v.line, 256u);
    c.fill(5 * 128, 0xF, false, v);  // then line 384
    EXPECT_EQ(v.line, 384u);
    c.fill(6 * 128, 0xF, false, v);  // then line 0, older than 128
    EXPECT_EQ(v.line, 0u);
}

TEST(LineTable, FindsWhatWasInsertedAndForgetsWhatWasErased) {
    LineTable t(4);  // 16 slots: collisions and growth both happen
    for (uint64_t i = 0; i < 100; ++i)
        t.insert(i * 128 * 16, static_cast<uint32_t>(i));
    EXPECT_EQ(t.size(), 100u);
    for (uint64_t i = 0; i < 100; i += 2)
        t.erase(i * 128 * 16);
    for (uint64_t i = 0; i < 100; ++i) {
        EXPECT_EQ(t.find(i * 128 * 16), i % 2 ? i : LineTable::kAbsent) << i;
    }
    EXPECT_EQ(t.size(), 50u);
}

TEST(ClusterMulticast, ACopyGoesOutWhenTheClustersLastMemberIssuesIt) {
    ClusterMulticast table(2);
    std::vector<LoadReturn> members;
    EXPECT_FALSE(table.arrive(0, 0, {3, 10}, members));
    EXPECT_FALSE(table.arrive(2, 0, {5, 12}, members));  // CTA 2 is in the next cluster
    EXPECT_FALSE(table.arrive(0, 1, {3, 11}, members));  // CTA 0 runs ahead to its next copy
    EXPECT_EQ(table.waiting(), 3u);
    ASSERT_TRUE(table.arrive(1, 0, {4, 20}, members));
    ASSERT_EQ(members.size(), 2u);
    EXPECT_EQ(members[0].sm, 3u);
    EXPECT_EQ(members[0].token, 10u);
    EXPECT_EQ(members[1].sm, 4u);
    EXPECT_EQ(table.waiting(), 2u);
}

/// Marks every `mark` units of work over `units` units, for work that finishes in bursts of
/// `burst` units every `period` cycles, each burst spread evenly over `spread` cycles.
void bursty_marks(double burst,
                  uint64_t period,
                  uint64_t spread,
                  double mark,
                  double units,
                  std::vector<uint64_t>& times,
                  std::vector<double>& work) {
    for (double w = mark; w <= units; w += mark) {
        const double b = std::floor((w - 1e-9) / burst);  // the burst that finishes w
        const double into = (w - b * burst) / burst;      // how far into that burst
        times.push_back(uint64_t(b * double(period) + into * double(spread)));
        work.push_back(w);
    }
}

TEST(Sampling, PhaseAveragedRateSeesBurstsThatDoNotMatchTheUnit) {
    // A synthetic pattern like a cluster-split softmax's on H100: bursts of 300 CTAs every
    // 14,000 cycles, waves of 264. The true rate is 14,000 / 300 cycles per CTA. Three waves
    // that each end one burst after the last read 12% slow from their ends; marks every
    // eighth of a wave sampled over a wave's phases come within 2%.
    std::vector<uint64_t> times;
    std::vector<double> work;
    bursty_marks(300, 14000, 2000, 33, 264 * 40, times, work);
    const double truth = 14000.0 / 300.0;
    std::vector<uint64_t> wave_ends;
    std::vector<double> wave_work;
    for (size_t i = 7; i < work.size(); i += 8) {
        wave_ends.push_back(times[i]);
        wave_work.push_back(work[i]);
    }
    // The window of three waves a sampler stopped at: waves 2 to 5 all end one burst apart.
    std::vector<uint64_t> ends(wave_ends.begin(), wave_ends.begin() + 5);
    std::vector<double> done(wave_work.begin(), wave_work.begin() + 5);
    const SpanRate from_ends = span_rate(ends, done, 1, 3, 16);
    ASSERT_EQ(from_ends.spans, 3u);
    EXPECT_GT(from_ends.cycles_per_unit / truth, 1.10);
    const double averaged = phase_averaged_cycles_per_unit(times, work, done[1], done[4], 264, 8);
    EXPECT_NEAR(averaged / truth, 1.0, 0.02);
}

TEST(Sampling, PhaseAveragedRateOfWholeWavesFinishingTogetherIsExact) {
    // A GEMM-like kernel: each wave's 132 CTAs finish within 500 cycles of each other, a wave
    // every 20,000 cycles. Every phase of a wave sees the same whole waves between its ends.
    std::vector<uint64_t> times;
    std::vector<double> work;
    bursty_marks(132, 20000, 500, 16.5, 132 * 20, times, work);
    EXPECT_NEAR(phase_averaged_cycles_per_unit(times, work, 132 * 4, 132 * 10, 132, 8),
                20000.0 / 132.0, 1e-9);
    // Too short a window for a wave of phases: no rate.
    EXPECT_EQ(phase_averaged_cycles_per_unit(times, work, 132 * 4, 132 * 5, 132, 8), 0.0);
}

}  // namespace
}  // namespace sim::gpu
