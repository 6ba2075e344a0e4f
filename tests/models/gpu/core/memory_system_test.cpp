// SPDX-License-Identifier: MIT
// The GPU memory system driven directly: a bulk copy (TMA) returns once, when its last line is
// back, and at the cycle its latest line would have been back on its own; a walked copy's lines
// leave at the walk's rate; a multicast returns to every receiver; bulk stores all reach L2; a miss
// from the other L2 partition crosses.
#include "models/gpu/core/memory_system.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "tests/testing/gpu_presets.h"

namespace sim::gpu {
namespace {

struct Returned {
    uint64_t at;
    LoadReturn load;
};

/// Runs the events and the DRAM (which refreshes, so never idles) until `returns` loads have
/// come back and nothing is left on the calendar; what came back, in order.
std::vector<Returned> drain(MemorySystem& memory, EventQueue& events, size_t returns) {
    std::vector<Returned> out;
    std::vector<Event> batch;
    std::vector<LoadReturn> done;
    while (out.size() < returns || !events.empty()) {
        const uint64_t t_core = events.empty() ? ~0ULL : events.next_time();
        const uint64_t t_dram = memory.next_dram_cycle();
        if (t_dram <= t_core) {
            memory.advance_dram(t_dram);
            continue;
        }
        const uint64_t now = events.pop_earliest(batch);
        done.clear();
        for (const Event& e : batch)
            memory.on_event(e, now, done);
        for (const LoadReturn& r : done)
            out.push_back({now, r});
    }
    return out;
}

/// Lines 0, 4 KiB, 8 KiB, ...: different DRAM rows and L2 slices.
std::vector<LineAccess> tile(size_t n) {
    std::vector<LineAccess> lines;
    for (size_t i = 0; i < n; ++i)
        lines.push_back({i * 4096, 0xF});
    return lines;
}

TEST(MemorySystem, ABulkCopyReturnsOnceWhenItsLatestLineIsBack) {
    const GpuParams p = testing::small_h100();
    const std::vector<LineAccess> lines = tile(16);

    EventQueue events;
    MemorySystem memory(p.core, p.hbm.core, events);
    memory.bulk_load(2, 7, lines.data(), lines.size(), 0);
    const std::vector<Returned> copy = drain(memory, events, 1);
    ASSERT_EQ(copy.size(), 1u);
    EXPECT_EQ(copy[0].load.sm, 2u);
    EXPECT_EQ(copy[0].load.token, 7u);
    EXPECT_EQ(copy[0].load.lines, 16u);
    EXPECT_EQ(memory.counters().l2_read_sectors, 16u * 4);
    EXPECT_EQ(memory.counters().dram_read_bytes, 16u * 128);

    // The same lines as sixteen one-line copies leaving together: they return one by one, the
    // last at the cycle the sixteen-line copy returned.
    EventQueue single_events;
    MemorySystem single(p.core, p.hbm.core, single_events);
    for (size_t i = 0; i < lines.size(); ++i)
        single.bulk_load(2, static_cast<uint32_t>(i), &lines[i], 1, 0);
    const std::vector<Returned> one_by_one = drain(single, single_events, 16);
    ASSERT_EQ(one_by_one.size(), 16u);
    EXPECT_LT(one_by_one.front().at, one_by_one.back().at);
    EXPECT_EQ(one_by_one.back().at, copy[0].at);

    // Loaded again, the lines are L2 hits: back sooner, with no DRAM traffic.
    memory.bulk_load(2, 8, lines.data(), lines.size(), copy[0].at);
    const std::vector<Returned> again = drain(memory, events, 1);
    ASSERT_EQ(again.size(), 1u);
    EXPECT_LT(again[0].at - copy[0].at, copy[0].at);
    EXPECT_EQ(memory.counters().l2_hit_sectors, 16u * 4);
    EXPECT_EQ(memory.counters().dram_read_bytes, 16u * 128);
}

TEST(MemorySystem, AWalkedCopysLinesLeaveOneAfterAnotherAtTheWalkRate) {
    const GpuParams p = testing::small_h100();
    const std::vector<LineAccess> lines = tile(16);
    EventQueue events;
    MemorySystem memory(p.core, p.hbm.core, events);
    memory.bulk_load(2, 0, lines.data(), lines.size(), 0);  // now in L2: the copies below hit
    uint64_t now = drain(memory, events, 1).back().at;
    const auto round_trip = [&](uint32_t walk_bytes_per_clock) {
        memory.bulk_load(2, 1, lines.data(), lines.size(), now, walk_bytes_per_clock);
        const uint64_t back = drain(memory, events, 1).back().at;
        const uint64_t took = back - now;
        now = back;
        return took;
    };
    const uint64_t at_once = round_trip(0);
    // At 32 bytes a cycle the last of the 16 lines leaves 15 x 128 / 32 = 60 cycles after the
    // first, and the copy is back that much later; at 1 KiB a cycle, 15 x 128 / 1024 = 1.
    EXPECT_EQ(round_trip(32), at_once + 60);
    EXPECT_EQ(round_trip(1024), at_once + 1);
    EXPECT_EQ(memory.counters().dram_read_bytes, 16u * 128) << "the walked copies hit in L2";
}

TEST(MemorySystem, AMulticastReturnsToEveryReceiverFromOneL2Read) {
    const GpuParams p = testing::small_h100();
    const std::vector<LineAccess> lines = tile(8);
    EventQueue events;
    MemorySystem memory(p.core, p.hbm.core, events);
    // Each receiver is owed the lines it awaits: the copy's own 8, or (a member a main-loop
    // jump paired with a copy of another tile) its own count.
    memory.multicast_load({{0, 1, 8}, {1, 5, 4}}, lines.data(), lines.size(), 0);
    const std::vector<Returned> back = drain(memory, events, 2);
    ASSERT_EQ(back.size(), 2u);
    EXPECT_EQ(back[0].at, back[1].at);
    EXPECT_EQ(back[0].load.sm, 0u);
    EXPECT_EQ(back[1].load.sm, 1u);
    EXPECT_EQ(back[1].load.token, 5u);
    EXPECT_EQ(back[0].load.lines, 8u);
    EXPECT_EQ(back[1].load.lines, 4u);
    EXPECT_EQ(memory.counters().l2_read_sectors, 8u * 4);
}

TEST(MemorySystem, AnSmToSmMessageReachesEveryReceiverWithoutTouchingL2) {
    const GpuParams p = testing::small_h100();
    EventQueue events;
    MemorySystem memory(p.core, p.hbm.core, events);
    memory.sm_to_sm({{0, 1}, {3, 7}}, 180);
    const std::vector<Returned> back = drain(memory, events, 2);
    ASSERT_EQ(back.size(), 2u);
    EXPECT_EQ(back[0].at, 180u);
    EXPECT_EQ(back[1].at, 180u);
    EXPECT_EQ(back[1].load.sm, 3u);
    EXPECT_EQ(back[1].load.token, 7u);
    EXPECT_EQ(back[1].load.lines, 1u);
    EXPECT_EQ(memory.counters().l2_read_sectors, 0u);
    EXPECT_EQ(memory.counters().l1_sectors, 0u);
}

TEST(MemorySystem, BulkStoresAllReachL2) {
    const GpuParams p = testing::small_h100();
    const std::vector<LineAccess> lines = tile(8);
    EventQueue events;
    MemorySystem memory(p.core, p.hbm.core, events);
    memory.bulk_store(lines.data(), lines.size(), 0);
    EXPECT_EQ(memory.stores_in_flight(), 8u);
    EXPECT_TRUE(drain(memory, events, 0).empty());
    EXPECT_EQ(memory.stores_in_flight(), 0u);
    EXPECT_EQ(memory.counters().l2_write_sectors, 8u * 4);
}

// With two L2 partitions (8 SMs and 8 slices: SMs 0-3 and slices 0-3 in the first), a line's
// miss from an SM of the other partition than its slice's crosses there and back, and the same
// line's hit does not. One line, loaded by SM 0 and by SM 7 into separate memory systems:
// exactly one of the two crosses.
TEST(MemorySystem, AMissFromTheOtherPartitionCrossesBothWaysAndAHitDoesNot) {
    const auto back_at = [](uint32_t latency, uint32_t sm) {
        const GpuParams p =
            testing::small_h100(8, {"hbm.timing.t_refi=1000us", "l2.partitions=2",
                                    "l2.partition_latency=" + std::to_string(latency)});
        const std::vector<LineAccess> line = tile(1);
        EventQueue events;
        MemorySystem memory(p.core, p.hbm.core, events);
        memory.bulk_load(sm, 0, line.data(), 1, 0);
        const uint64_t miss = drain(memory, events, 1).at(0).at;
        memory.bulk_load(sm, 1, line.data(), 1, miss);
        const uint64_t hit = drain(memory, events, 1).at(0).at - miss;
        return std::pair{miss, hit};
    };
    EXPECT_EQ(back_at(0, 0), back_at(0, 7));
    const auto [sm0_miss, sm0_hit] = back_at(100, 0);
    const auto [sm7_miss, sm7_hit] = back_at(100, 7);
    const int64_t crossed = int64_t(sm7_miss) - int64_t(sm0_miss);
    EXPECT_NEAR(std::abs(crossed), 200, 2);  // the DRAM clock's edges
    EXPECT_EQ(sm0_hit, sm7_hit);
    // The SM on the line's own side does not notice the latency.
    EXPECT_EQ(back_at(100, crossed > 0 ? 0 : 7).first, back_at(0, 0).first);
}

}  // namespace
}  // namespace sim::gpu
