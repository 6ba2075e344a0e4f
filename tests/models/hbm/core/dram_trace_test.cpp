// SPDX-License-Identifier: MIT
// Reading DRAM address traces in Ramulator 2's LoadStoreTrace and DRAMSim3's formats, and
// replaying them the way those tools' front ends do: in order, at most what the controller
// queues hold outstanding, DRAMSim3 accesses not before their cycle.
#include "models/hbm/core/dram_trace.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "models/hbm/core/trace_replay.h"
#include "sim/core/error.h"
#include "tests/testing/hbm_presets.h"
#include "tests/testing/temp_dir.h"

namespace sim::hbm {
namespace {

using sim::testing::one_hbm_pseudo_channel;
using ::testing::HasSubstr;

std::string error_of(const std::string& text, TraceFormat f = TraceFormat::Auto) {
    try {
        parse_dram_trace(text, "t.trace", f);
    } catch (const ConfigError& e) {
        return e.what();
    }
    return "";
}

TEST(DramTrace, ReadsRamulatorLoadStoreLinesInDecimalAndHex) {
    const DramTrace t = parse_dram_trace("LD 0x1f40\nST 4096\n\nLD 0X10\n", "t", TraceFormat::Auto);
    EXPECT_EQ(t.format, TraceFormat::LoadStore);
    ASSERT_EQ(t.accesses.size(), 3u);
    EXPECT_EQ(t.accesses[0].addr, 0x1f40u);
    EXPECT_FALSE(t.accesses[0].write());
    EXPECT_EQ(t.accesses[1].addr, 4096u);
    EXPECT_TRUE(t.accesses[1].write());
    EXPECT_EQ(t.accesses[2].addr, 0x10u);
    EXPECT_EQ(t.accesses[2].cycle(), 0u);
    EXPECT_EQ(t.reads, 2u);
    EXPECT_EQ(t.writes, 1u);
}

TEST(DramTrace, ReadsDramSim3LinesWithTheirCycles) {
    // DRAMSim3 reads the address as hex with or without 0x (std::hex) and the cycle in decimal.
    const DramTrace t = parse_dram_trace(
        "0x2000D5C0 READ  30\n1FF96FC0 WRITE\t160\r\n"
        "40 P_MEM_WR 165\n80 P_FETCH 166\n",
        "t", TraceFormat::Auto);
    EXPECT_EQ(t.format, TraceFormat::DramSim3);
    ASSERT_EQ(t.accesses.size(), 4u);
    EXPECT_EQ(t.accesses[0].addr, 0x2000D5C0u);
    EXPECT_EQ(t.accesses[0].cycle(), 30u);
    EXPECT_FALSE(t.accesses[0].write());
    EXPECT_EQ(t.accesses[1].addr, 0x1FF96FC0u);
    EXPECT_TRUE(t.accesses[1].write());
    EXPECT_EQ(t.accesses[1].cycle(), 160u);
    EXPECT_TRUE(t.accesses[2].write());
    EXPECT_FALSE(t.accesses[3].write());
}

TEST(DramTrace, AMalformedLineIsAnErrorAtItsFileAndLine) {
    EXPECT_THAT(error_of("LD 0x10\nLD\n"), HasSubstr("t.trace:2: expected 2 fields"));
    EXPECT_THAT(error_of("LD 0x10\nRD 0x20\n"), HasSubstr("t.trace:2: access type 'RD' is not LD"));
    EXPECT_THAT(error_of("LD 0x10\nLD 0xZZ\n"), HasSubstr("t.trace:2: address '0xZZ'"));
    EXPECT_THAT(error_of("LD 12ab\n"), HasSubstr("t.trace:1: address '12ab'"));
    EXPECT_THAT(error_of("LD 1 2\n", TraceFormat::LoadStore), HasSubstr("t.trace:1: expected 2"));
    EXPECT_THAT(error_of("10 READ 5\n10 REED 6\n"), HasSubstr("t.trace:2: access type 'REED'"));
    EXPECT_THAT(error_of("10 READ 5\n10 READ -6\n"), HasSubstr("t.trace:2: cycle '-6'"));
    EXPECT_THAT(error_of("10 READ\n", TraceFormat::DramSim3), HasSubstr("t.trace:1: expected 3"));
    EXPECT_THAT(error_of("\n\n"), HasSubstr("no accesses"));
    // A file of one format read as the other: the first line says what was expected.
    EXPECT_THAT(error_of("LD 0x10\n", TraceFormat::DramSim3), HasSubstr("t.trace:1: expected 3"));
}

TEST(DramTrace, AMissingFileIsAnError) {
    EXPECT_THROW(read_dram_trace("/nonexistent/x.trace", TraceFormat::Auto), ConfigError);
    EXPECT_THROW(parse_trace_format("gem5"), std::invalid_argument);
}

// The closed-row read latency of one pseudo-channel under no load, as the existing light-load
// test derives it: front end, tRCD, tCL, one burst.
uint64_t unloaded_read(const HbmParams& p) {
    const DramTiming& t = p.core.timing;
    return p.core.controller.frontend_cycles + t.rcd + t.cl + t.burst;
}

TEST(TraceReplay, DramSim3AccessesGoNoEarlierThanTheirCycle) {
    const HbmParams p = one_hbm_pseudo_channel();
    HbmSystem system(p.core);
    // Two reads to different bank groups, far apart: each one alone on the memory.
    const DramTrace t = parse_dram_trace("0 READ 100\n40 READ 3000\n", "t", TraceFormat::Auto);
    TraceReplayParams rp;
    rp.request_bytes = 32;
    const TrafficResult r = replay_trace(system, t, rp);
    EXPECT_EQ(r.requests, 2u);
    EXPECT_EQ(r.read_latency.max(), unloaded_read(p));
    EXPECT_EQ(r.cycles, 3000 + unloaded_read(p));
}

TEST(TraceReplay, OneAccessPerCycleWhenTheFrontEndSaysSo) {
    const HbmParams p = one_hbm_pseudo_channel();
    const uint32_t access = p.core.shape.access_bytes;
    // Reads of one row, sent one a clock: the last is sent at clock n - 1.
    std::string text;
    const int n = 6;
    for (int i = 0; i < n; ++i)
        text += "LD " + std::to_string(i * access) + "\n";
    const DramTrace t = parse_dram_trace(text, "t", TraceFormat::Auto);
    TraceReplayParams rp;
    rp.request_bytes = access;
    rp.issue_per_cycle = 1000;
    HbmSystem fast(p.core);
    const TrafficResult all_at_once = replay_trace(fast, t, rp);
    rp.issue_per_cycle = 1;
    HbmSystem slow(p.core);
    const TrafficResult one_a_clock = replay_trace(slow, t, rp);
    EXPECT_EQ(all_at_once.read_latency.quantile(0), unloaded_read(p));
    // Sent at once, the row hits queue behind each other; sent a clock apart, the later ones
    // wait less in the queue, and the whole takes no longer (the data bus is the limit).
    EXPECT_LT(one_a_clock.read_latency.mean(), all_at_once.read_latency.mean());
    EXPECT_EQ(one_a_clock.cycles, all_at_once.cycles);
}

TEST(TraceReplay, ARefusedAccessHoldsBackAllAfterIt) {
    // Two pseudo-channels with 4-entry read queues. Five reads to the first and one to the
    // second: the fifth read of the first is refused, and when the second's read comes after
    // it in the trace, it waits behind it although its own queue is empty.
    HbmParams p = one_hbm_pseudo_channel({"hbm.bus_width_bits=64",
                                          "hbm.organisation.pseudo_channels_per_channel=2",
                                          "hbm.capacity=1GB", "hbm.controller.read_queue=4",
                                          "hbm.mapping.layout=[offset, column:1, pseudo_channel, "
                                          "bank_group, bank, column, row]"});
    const uint32_t access = p.core.shape.access_bytes;
    std::string first_pc;
    for (int i = 0; i < 5; ++i)
        first_pc += "LD " + std::to_string(i * 64 * access) + "\n";
    const std::string second_pc = "LD " + std::to_string(2 * access) + "\n";
    TraceReplayParams rp;
    rp.request_bytes = access;
    HbmSystem last(p.core);
    ASSERT_EQ(last.pseudo_channel_of(2 * access), 1u);
    ASSERT_EQ(last.pseudo_channel_of(4 * 64 * access), 0u);
    const TrafficResult behind =
        replay_trace(last, parse_dram_trace(first_pc + second_pc, "t", TraceFormat::Auto), rp);
    HbmSystem first(p.core);
    const TrafficResult ahead =
        replay_trace(first, parse_dram_trace(second_pc + first_pc, "t", TraceFormat::Auto), rp);
    EXPECT_EQ(behind.stalled_enqueues, 1u);
    EXPECT_EQ(ahead.stalled_enqueues, 1u);
    EXPECT_EQ(behind.requests, 6u);
    // Ahead, the second pseudo-channel's read is done after one unloaded read; behind, it is
    // sent only when the first pseudo-channel frees an entry (its first RD), and the run ends
    // with it.
    EXPECT_GT(behind.cycles, ahead.cycles);
    EXPECT_GE(behind.cycles,
              p.core.controller.frontend_cycles + p.core.timing.rcd + unloaded_read(p));
}

TEST(TraceReplay, EveryAccessCompletesOnceAndBytesAreConserved) {
    const HbmParams p = sim::testing::hbm_preset("h100");
    HbmSystem system(p.core);
    std::string text;
    for (uint64_t i = 0; i < 20000; ++i)
        text +=
            (i % 3 == 2 ? "ST " : "LD ") + std::to_string((i * 2654435761u) % (1u << 30)) + "\n";
    const DramTrace t = parse_dram_trace(text, "t", TraceFormat::Auto);
    TraceReplayParams rp;
    rp.request_bytes = 64;
    const TrafficResult r = replay_trace(system, t, rp);
    EXPECT_EQ(r.read_latency.count(), t.reads);
    EXPECT_EQ(r.write_latency.count(), t.writes);
    EXPECT_EQ(r.bytes_read + r.bytes_written, 64 * t.accesses.size());
    EXPECT_EQ(system.queued(), 0u);
}

}  // namespace
}  // namespace sim::hbm
