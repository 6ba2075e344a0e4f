// SPDX-License-Identifier: MIT
#include "sim/core/index_calendar.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

namespace sim {
namespace {

TEST(IndexCalendar, EmptyHasNoNextTime) {
    IndexCalendar q(10);
    EXPECT_TRUE(q.empty());
    EXPECT_EQ(q.next_time(), IndexCalendar::kEmpty);
}

TEST(IndexCalendar, ACyclesIndicesComeOutInIncreasingOrderEachOnce) {
    IndexCalendar q(200, 6);
    for (uint32_t index : {150u, 3u, 64u, 3u, 199u, 0u})
        q.push(5, index);
    q.push(2, 9);
    std::vector<uint32_t> out;
    EXPECT_EQ(q.pop_earliest(out), 2u);
    EXPECT_EQ(out, std::vector<uint32_t>{9});
    out.clear();
    EXPECT_EQ(q.pop_earliest(out), 5u);
    EXPECT_EQ(out, (std::vector<uint32_t>{0, 3, 64, 150, 199}));
    EXPECT_TRUE(q.empty());
}

TEST(IndexCalendar, EventsBeyondTheHorizonJoinTheirCyclesSet) {
    IndexCalendar q(8, 6);  // a 64-cycle ring
    q.push(1000, 1);
    q.push(70, 2);
    q.push(3, 3);
    q.push(64 + 3, 4);  // same ring slot as cycle 3, one lap later
    std::vector<uint32_t> out;
    EXPECT_EQ(q.pop_earliest(out), 3u);
    q.push(70, 0);  // joins the event that waited beyond the horizon
    std::vector<uint64_t> times;
    while (!q.empty())
        times.push_back(q.pop_earliest(out));
    EXPECT_EQ(times, (std::vector<uint64_t>{67, 70, 1000}));
    EXPECT_EQ(out, (std::vector<uint32_t>{3, 4, 0, 2, 1}));
}

TEST(IndexCalendar, MatchesAnOrderedSetUnderRandomUse) {
    // Pushes at or after the last popped cycle, near and far, repeated indices included,
    // interleaved with pops.
    constexpr uint32_t kCount = 150;
    IndexCalendar q(kCount, 7);
    std::map<uint64_t, std::set<uint32_t>> reference;
    std::mt19937_64 rng(11);
    uint64_t now = 0;
    for (int step = 0; step < 20000; ++step) {
        if (rng() % 3 != 0 || reference.empty()) {
            const uint64_t delay = rng() % 4 == 0 ? rng() % 5000 : rng() % 40;
            const auto index = static_cast<uint32_t>(rng() % kCount);
            q.push(now + delay, index);
            reference[now + delay].insert(index);
        } else {
            std::vector<uint32_t> out;
            now = q.pop_earliest(out);
            ASSERT_EQ(now, reference.begin()->first);
            ASSERT_EQ(out, std::vector<uint32_t>(reference.begin()->second.begin(),
                                                 reference.begin()->second.end()));
            reference.erase(reference.begin());
        }
    }
    EXPECT_EQ(q.empty(), reference.empty());
}

}  // namespace
}  // namespace sim
