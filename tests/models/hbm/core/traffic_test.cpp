// SPDX-License-Identifier: MIT
// The HBM model under traffic: conservation, streaming near peak, random clearly lower,
// loaded-latency floor, back-pressure, refresh, determinism. Uses the shipped presets.
#include "models/hbm/core/traffic.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>

#include "models/hbm/hbm_params.h"
#include "sim/config/loader.h"
#include "tests/testing/hbm_presets.h"
#include "tests/testing/temp_dir.h"

namespace sim::hbm {
namespace {

using sim::testing::hbm_preset;
using sim::testing::one_hbm_pseudo_channel;

double utilisation(const HbmParams& p, const TrafficResult& r) {
    const double seconds = r.cycles / double(p.core.clock_hz);
    return (r.bytes_read + r.bytes_written) / seconds / p.peak_bandwidth();
}

TrafficResult run(const HbmParams& p, TrafficParams tp) {
    HbmSystem system(p.core);
    return run_traffic(system, tp);
}

TEST(HbmTraffic, EveryRequestCompletesOnceAndBytesAreConserved) {
    const HbmParams p = hbm_preset("h100");
    for (Pattern pattern : {Pattern::Stream, Pattern::WriteStream, Pattern::Read2Write1,
                            Pattern::Copy, Pattern::Random, Pattern::Strided}) {
        TrafficParams tp;
        tp.pattern = pattern;
        tp.bytes = 4 << 20;
        HbmSystem system(p.core);
        const TrafficResult r = run_traffic(system, tp);
        EXPECT_EQ(r.read_latency.count() + r.write_latency.count(), tp.bytes / tp.request_bytes)
            << to_string(pattern);
        EXPECT_EQ(r.bytes_read + r.bytes_written, tp.bytes) << to_string(pattern);
        uint64_t bursts = 0, queued = 0;
        for (size_t i = 0; i < system.pseudo_channel_count(); ++i) {
            const ChannelCounters& c = system.pseudo_channel(i).counters();
            bursts += c.read_bursts + c.write_bursts;
            queued += system.pseudo_channel(i).queued();
        }
        EXPECT_EQ(bursts * p.core.shape.access_bytes, tp.bytes);
        EXPECT_EQ(queued, 0u);
    }
}

// All-bank refresh (the A100's HBM2e) locks a pseudo-channel for about 9% of the time; per-bank
// refresh (the H100's HBM3) one bank at a time, which a stream over the other banks hides.
TEST(HbmTraffic, LongSequentialStreamsRunAt85To97PercentOfPeakOrAbove97PerBank) {
    for (const char* name : {"a100", "h100"}) {
        const HbmParams p = hbm_preset(name);
        TrafficParams tp;
        tp.bytes = 64 << 20;
        const double u = utilisation(p, run(p, tp));
        EXPECT_GT(u, 0.85) << name;
        EXPECT_LT(u, p.core.controller.per_bank_refresh ? 0.995 : 0.97) << name;
    }
}

TEST(HbmTraffic, RandomTrafficIsClearlySlowerThanStreaming) {
    const HbmParams p = hbm_preset("h100");
    TrafficParams tp;
    tp.bytes = 16 << 20;
    const double stream = utilisation(p, run(p, tp));
    tp.pattern = Pattern::Random;
    const double random = utilisation(p, run(p, tp));
    EXPECT_LT(random, 0.8 * stream);
}

// Bigger write batches mean fewer bus turnarounds, so a deeper write queue must not slow mixed
// traffic down. It did while the generator counted queued writes against its window until their
// data reached the DRAM: writes waiting for a drain crowded the reads out. 48 requests in flight
// on one pseudo-channel are about the H100 default (8192 over 160).
TEST(HbmTraffic, DeeperWriteQueueDoesNotSlowMixedTraffic) {
    TrafficParams tp;
    tp.pattern = Pattern::Read2Write1;
    tp.bytes = 64 * 3000;
    tp.outstanding = 48;
    const HbmParams shallow = one_hbm_pseudo_channel();  // write queue 32, watermarks 24 and 8
    const HbmParams deep = one_hbm_pseudo_channel({"hbm.controller.write_queue=128",
                                                   "hbm.controller.write_high_watermark=96",
                                                   "hbm.controller.write_low_watermark=32"});
    EXPECT_GE(utilisation(deep, run(deep, tp)), utilisation(shallow, run(shallow, tp)));
}

TEST(HbmTraffic, LightLoadLatencyIsActivatePlusCasPlusBurstPlusController) {
    const HbmParams p = one_hbm_pseudo_channel({"hbm.controller.row_policy=closed"});
    TrafficParams tp;
    tp.pattern = Pattern::Random;
    tp.bytes = 64 * 200;
    tp.offered_bandwidth = 0.2e9;  // one request every 320 ns: the channel is idle between them
    const TrafficResult r = run(p, tp);
    const DramTiming& t = p.core.timing;
    // A 64 B request: ACT, first burst after tRCD, second burst tCCD_L later (same bank group),
    // its data done tCL + burst after that.
    const uint64_t expected = p.core.controller.frontend_cycles + t.rcd + t.ccd_l + t.cl + t.burst;
    EXPECT_EQ(r.read_latency.quantile(0.5), expected);
}

TEST(HbmTraffic, FullQueuesPushBackAndNothingIsLost) {
    const HbmParams p = one_hbm_pseudo_channel({"hbm.controller.read_queue=2"});
    TrafficParams tp;
    tp.bytes = 64 * 1000;
    tp.outstanding = 64;
    const TrafficResult r = run(p, tp);
    EXPECT_GT(r.stalled_enqueues, 0u);
    EXPECT_EQ(r.read_latency.count(), 1000u);
}

TEST(HbmTraffic, RefreshHappensEveryTrefi) {
    const HbmParams p = one_hbm_pseudo_channel({"hbm.controller.refresh=all_bank"});
    TrafficParams tp;
    tp.bytes = 64 * 400;
    tp.offered_bandwidth = 1e9;  // spread over ~25 us
    HbmSystem system(p.core);
    const TrafficResult r = run_traffic(system, tp);
    const uint64_t refreshes = system.pseudo_channel(0).counters().refreshes;
    const uint64_t expected = r.cycles / p.core.timing.refi;
    EXPECT_GE(refreshes + 1, expected);
    EXPECT_LE(refreshes, expected + 1);
}

/// Mean latency of a dependent chain of 32 B reads that visits the pseudo-channels in index
/// order, one at a time, each issued `gap` memory cycles after the previous one completed (a
/// pointer chase whose stride walks the partitions).
double chain_latency(const HbmParams& p, uint64_t gap, uint32_t steps, double& median) {
    HbmSystem system(p.core);
    const HbmCoreConfig& c = p.core;
    std::vector<Completion> done;
    std::vector<uint64_t> latencies;
    uint64_t now = 0;
    for (uint32_t n = 0; n < steps; ++n) {
        while (system.next_event() <= now)
            system.advance(system.next_event(), done);
        const size_t pc = n % system.pseudo_channel_count();
        AddressParts at;
        at.pseudo_channel = static_cast<uint32_t>(pc % c.pseudo_channels_per_channel);
        at.channel =
            static_cast<uint32_t>(pc / c.pseudo_channels_per_channel % c.channels_per_stack);
        at.stack = static_cast<uint32_t>(pc / c.pseudo_channels_per_channel / c.channels_per_stack);
        at.row = n % c.shape.rows;
        done.clear();
        EXPECT_TRUE(system.try_enqueue(n, at, false, c.shape.access_bytes, now));
        while (done.empty())
            system.advance(system.next_event(), done);
        latencies.push_back(done.front().done - now);
        now = done.front().done + gap;
    }
    std::sort(latencies.begin(), latencies.end());
    median = double(latencies[latencies.size() / 2]);
    double sum = 0;
    for (uint64_t l : latencies)
        sum += double(l);
    return sum / double(latencies.size());
}

// All-bank refresh locks a pseudo-channel for tRFC every tREFI (9% of the time on HBM3), so a
// chain of single reads meets it on about that share of its reads and waits about tRFC / 2
// when it does. With refresh phases that grew linearly with the pseudo-channel index, a chain
// walking the pseudo-channels in order fell into step with them at some paces: after waiting
// out one refresh it reached the next pseudo-channel just as that one began its own, and paid
// most of tRFC on nearly every read (a pointer chase at some strides: 770 instead of ~360 SM
// cycles on H100). No pace may do that.
TEST(HbmRefresh, NoAccessPaceFallsIntoStepWithTheRefreshSchedule) {
    const HbmParams p = hbm_preset("h100");
    const double rfc = p.core.timing.rfc;
    for (uint64_t gap = 0; gap < 1200; gap += 37) {
        double median = 0;
        const double mean = chain_latency(p, gap, 1500, median);
        EXPECT_LT(mean - median, 0.15 * rfc) << "gap " << gap << " cycles";
    }
}

TEST(HbmTraffic, SameSeedSameResult) {
    const HbmParams p = hbm_preset("h100");
    TrafficParams tp;
    tp.pattern = Pattern::Random;
    tp.bytes = 1 << 20;
    tp.seed = 42;
    const TrafficResult a = run(p, tp);
    const TrafficResult b = run(p, tp);
    EXPECT_EQ(a.cycles, b.cycles);
    EXPECT_EQ(a.read_latency.quantile(0.99), b.read_latency.quantile(0.99));
    tp.seed = 43;
    EXPECT_NE(run(p, tp).cycles, a.cycles);
}

namespace {
struct SchedulerCase {
    Pattern pattern;
    std::vector<std::string> overrides;
    double offered;
    uint32_t arrival_jitter = 0;
};

// Traffic that exercises every scheduler path: mixed reads and writes, copies, random rows,
// strided and write-only streams, light load with idle gaps and skipped refreshes, closed rows,
// short drains, shallow queues (frequent switches between reads and writes) and requests that
// arrive out of the order they were queued in.
std::vector<SchedulerCase> scheduler_cases() {
    return {
        {Pattern::Read2Write1, {}, 0},
        {Pattern::Copy, {}, 0},
        {Pattern::Random, {}, 0},
        {Pattern::Random, {}, 20e9},  // light load: idle gaps, refresh skipping
        {Pattern::Copy, {}, 20e9},    // reads often absent: drains started by an empty queue
        {Pattern::Stream, {"hbm.controller.row_policy=closed"}, 0},
        {Pattern::Copy,
         {"hbm.controller.write_high_watermark=4", "hbm.controller.write_low_watermark=1"},
         0},
        {Pattern::Read2Write1,
         {"hbm.controller.write_high_watermark=4", "hbm.controller.write_low_watermark=1"},
         0},
        {Pattern::Read2Write1,
         {"hbm.controller.read_queue=8", "hbm.controller.write_queue=8",
          "hbm.controller.write_high_watermark=6", "hbm.controller.write_low_watermark=2"},
         0},
        {Pattern::Strided, {}, 0},
        {Pattern::WriteStream, {}, 0},
        {Pattern::Read2Write1, {}, 20e9},
        {Pattern::Copy, {"hbm.controller.row_policy=closed"}, 0},
        // Requests arriving out of queueing order, as the GPU's do.
        {Pattern::Read2Write1, {}, 0, 40},
        {Pattern::Random, {}, 0, 40},
        {Pattern::Copy, {}, 20e9, 40},
    };
}

// Runs c on one pseudo-channel as configured and again with `change` applied to its
// controller; every figure must be the same, and with same_wakeups the cycles at which the
// scheduler woke as well.
void expect_same_schedule(const SchedulerCase& c,
                          const std::function<void(ControllerParams&)>& change,
                          bool same_wakeups = false) {
    HbmParams p = one_hbm_pseudo_channel(c.overrides);
    TrafficParams tp;
    tp.pattern = c.pattern;
    tp.bytes = 64 * 3000;
    tp.offered_bandwidth = c.offered;
    tp.outstanding = 48;
    tp.arrival_jitter = c.arrival_jitter;
    HbmSystem plain(p.core);
    const TrafficResult a = run_traffic(plain, tp);
    change(p.core.controller);
    HbmSystem changed(p.core);
    const TrafficResult b = run_traffic(changed, tp);
    const std::string what = to_string(c.pattern) + " " + std::to_string(c.offered) + " jitter " +
                             std::to_string(c.arrival_jitter);
    EXPECT_EQ(a.cycles, b.cycles) << what;
    EXPECT_EQ(a.read_latency.mean(), b.read_latency.mean()) << what;
    EXPECT_EQ(a.write_latency.mean(), b.write_latency.mean()) << what;
    EXPECT_EQ(a.stalled_enqueues, b.stalled_enqueues) << what;
    const ChannelCounters& x = plain.pseudo_channel(0).counters();
    const ChannelCounters& y = changed.pseudo_channel(0).counters();
    EXPECT_EQ(x.activates, y.activates) << what;
    EXPECT_EQ(x.precharges, y.precharges) << what;
    EXPECT_EQ(x.refreshes, y.refreshes) << what;
    EXPECT_EQ(x.row_hits, y.row_hits) << what;
    EXPECT_EQ(x.row_conflicts, y.row_conflicts) << what;
    EXPECT_EQ(x.queue_integral, y.queue_integral) << what;
    if (same_wakeups) {
        EXPECT_EQ(x.wakeups, y.wakeups) << what;
    }
}
}  // namespace

// The controllers sleep until the next cycle a command can legally issue. Waking them every
// cycle instead must change nothing: a missed wake-up (a command issued later than it could
// have been) or a decision that depends on when the scheduler happens to look would show here.
TEST(HbmTraffic, EventDrivenSchedulingMatchesEvaluatingEveryCycle) {
    for (const SchedulerCase& c : scheduler_cases())
        expect_same_schedule(c, [](ControllerParams& cp) { cp.tick_every_cycle = true; });
}

// The row-command scheduler resumes after the requests it has already found blocked (and until
// when); rescanning the whole queue on every call must choose the same commands at the same
// cycles and wake the controller exactly as often (an early wake-up is harmless here, but the
// GPU's memory system feeds requests dated in the future and would see it). Also every cycle,
// where the resumed scans are the most frequent.
TEST(HbmTraffic, ResumedRowScansMatchFullScans) {
    for (const SchedulerCase& c : scheduler_cases()) {
        expect_same_schedule(
            c, [](ControllerParams& cp) { cp.full_row_scan = true; }, /*same_wakeups=*/true);
        expect_same_schedule(c, [](ControllerParams& cp) {
            cp.full_row_scan = true;
            cp.tick_every_cycle = true;
        });
    }
}

// A write drain that starts because no read is queued runs to the low watermark, like one
// started at the high watermark: reads that arrive meanwhile wait for it instead of turning the
// bus around after every write (as Ramulator 2 and DRAMSys do).
TEST(HbmController, DrainStartedByAnEmptyReadQueueRunsToTheLowWatermark) {
    const HbmParams p = one_hbm_pseudo_channel();  // write queue 32, watermarks 24 and 8
    const ControllerParams& c = p.core.controller;
    PseudoChannel ch(p.core.timing, p.core.shape, c, /*refresh_phase=*/1'000'000);
    const uint32_t writes = c.write_low_watermark + 8;  // between the watermarks
    uint64_t id = 0;
    for (uint32_t i = 0; i < writes; ++i) {
        MemRequest w;
        w.id = id++;
        w.write = true;
        w.bursts = 2;
        w.bank_group = static_cast<uint16_t>(i % 4);
        w.bank = static_cast<uint16_t>(i / 4 % 4);
        ch.enqueue(w, 0);
    }
    std::vector<Completion> done;  // in the order the requests' last commands issued
    uint64_t now = 0;
    while (done.empty()) {
        now = ch.next_event();
        ch.advance(now, done);
    }
    for (uint16_t g = 0; g < 4; ++g) {
        MemRequest r;
        r.id = id++;
        r.bursts = 2;
        r.bank_group = g;
        r.row = 1;
        ch.enqueue(r, now);
    }
    while (ch.queued() > 0) {
        now = ch.next_event();
        ch.advance(now, done);
    }
    ASSERT_EQ(done.size(), writes + 4);
    const auto first_read =
        std::find_if(done.begin(), done.end(), [](const Completion& d) { return !d.write; });
    EXPECT_GE(first_read - done.begin(), writes - c.write_low_watermark);
}

// A request may be sent before an earlier-stamped one (the GPU's L2 slices send requests
// stamped with their own latency). The controller serves requests in arrival order, and none
// before it has arrived: the late one's ACT waits for its arrival.
TEST(HbmController, RequestsAreServedInArrivalOrderNotQueueingOrder) {
    const HbmParams p = one_hbm_pseudo_channel();
    const DramTiming& t = p.core.timing;
    const ControllerParams& c = p.core.controller;
    PseudoChannel ch(t, p.core.shape, c, /*refresh_phase=*/1'000'000);
    const uint64_t late_arrival = 200, early_arrival = 10;
    MemRequest late;  // queued first, arrives last
    late.id = 1;
    late.bank = 0;
    MemRequest early;
    early.id = 2;
    early.bank = 1;
    ch.send(late, late_arrival);
    ch.send(early, early_arrival);
    std::vector<Completion> done;
    while (ch.queued() > 0)
        ch.advance(ch.next_event(), done);
    ASSERT_EQ(done.size(), 2u);
    EXPECT_EQ(done[0].id, 2u);
    EXPECT_EQ(done[1].id, 1u);
    // Both banks closed, nothing else queued: each takes frontend + ACT + tRCD + CL + burst
    // from its own arrival.
    for (const Completion& d : done) {
        EXPECT_EQ(d.done, d.arrival + c.frontend_cycles + t.rcd + t.cl + t.burst) << d.id;
    }
    EXPECT_EQ(done[1].arrival, late_arrival);
    // Each is counted as queued from its arrival until its RD issues (frontend + ACT + tRCD).
    ch.finish(done[1].done);
    EXPECT_EQ(ch.counters().queue_integral, 2 * (c.frontend_cycles + t.rcd));
}

TEST(HbmTraffic, RequestsLargerThanTheInterleaveGranuleAreRejected) {
    const HbmParams p = hbm_preset("h100");
    TrafficParams tp;
    tp.request_bytes = 512;  // the preset keeps 256 B in one pseudo-channel row
    HbmSystem system(p.core);
    EXPECT_THROW(run_traffic(system, tp), std::invalid_argument);
}

}  // namespace
}  // namespace sim::hbm
