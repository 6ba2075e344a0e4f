// SPDX-License-Identifier: MIT
#include "sim/core/calendar_queue.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

namespace sim {
namespace {

TEST(CalendarQueue, EmptyHasNoNextTime) {
    CalendarQueue q;
    EXPECT_TRUE(q.empty());
    EXPECT_EQ(q.next_time(), CalendarQueue::kEmpty);
}

TEST(CalendarQueue, SameCycleComesOutInPushOrder) {
    CalendarQueue q(6);
    q.push(5, 3);
    q.push(5, 1);
    q.push(2, 9);
    q.push(5, 2);
    std::vector<uint32_t> ids;
    EXPECT_EQ(q.pop_earliest(ids), 2u);
    EXPECT_EQ(ids, std::vector<uint32_t>{9});
    ids.clear();
    EXPECT_EQ(q.pop_earliest(ids), 5u);
    EXPECT_EQ(ids, (std::vector<uint32_t>{3, 1, 2}));
    EXPECT_TRUE(q.empty());
}

TEST(CalendarQueue, EventsBeyondTheHorizonWaitAndComeBackInOrder) {
    CalendarQueue q(6);  // a 64-cycle ring
    q.push(1000, 1);
    q.push(70, 2);
    q.push(3, 3);
    q.push(64 + 3, 4);  // same ring slot as cycle 3, one lap later
    std::vector<uint32_t> ids;
    std::vector<uint64_t> times;
    while (!q.empty())
        times.push_back(q.pop_earliest(ids));
    EXPECT_EQ(times, (std::vector<uint64_t>{3, 67, 70, 1000}));
    EXPECT_EQ(ids, (std::vector<uint32_t>{3, 4, 2, 1}));
}

TEST(CalendarQueue, MatchesAnOrderedMapUnderRandomUse) {
    // Pushes at or after the last popped cycle, near and far, interleaved with pops.
    CalendarQueue q(7);
    std::multimap<uint64_t, uint32_t> reference;
    std::mt19937_64 rng(7);
    uint64_t now = 0;
    uint32_t next_id = 0;
    for (int step = 0; step < 20000; ++step) {
        if (rng() % 3 != 0 || reference.empty()) {
            const uint64_t delay = rng() % 4 == 0 ? rng() % 5000 : rng() % 40;
            q.push(now + delay, next_id);
            reference.emplace(now + delay, next_id);
            ++next_id;
        } else {
            ASSERT_EQ(q.next_time(), reference.begin()->first);
            std::vector<uint32_t> ids;
            now = q.pop_earliest(ids);
            const auto [lo, hi] = reference.equal_range(now);
            std::vector<uint32_t> expected;
            for (auto it = lo; it != hi; ++it)
                expected.push_back(it->second);
            reference.erase(lo, hi);
            ASSERT_EQ(ids, expected) << "at cycle " << now;
        }
    }
}

TEST(CalendarQueue, PushIntoThePastIsABug) {
    CalendarQueue q(6);
    q.push(10, 0);
    std::vector<uint32_t> ids;
    q.pop_earliest(ids);
    EXPECT_THROW(q.push(9, 1), SimBug);
}

}  // namespace
}  // namespace sim
