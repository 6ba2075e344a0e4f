// SPDX-License-Identifier: MIT
// SlidingVector against std::vector: the same sequence after any mix of inserts and erases,
// across the slides and compactions of its storage; and against std::deque as a FIFO.
#include "models/hbm/core/sliding_vector.h"

#include <gtest/gtest.h>

#include <deque>
#include <random>
#include <vector>

namespace sim::hbm {
namespace {

TEST(SlidingVector, ErasingKeepsTheOrder) {
    SlidingVector<int> v;
    v.reserve(4);
    for (int i = 0; i < 4; ++i)
        v.push_back(i);
    v.erase(2);  // 0 1 3: 3 moved down (the shorter side)
    ASSERT_EQ(v.size(), 3u);
    EXPECT_EQ(v[0], 0);
    EXPECT_EQ(v[1], 1);
    EXPECT_EQ(v[2], 3);
    EXPECT_EQ(v.back(), 3);
    v.insert(1, 9);  // 0 9 1 3
    EXPECT_EQ(std::vector<int>(v.begin(), v.end()), (std::vector<int>{0, 9, 1, 3}));
}

TEST(SlidingVector, IsAFirstInFirstOutQueue) {
    // As MemorySystem uses it for requests a controller refused: push at the back, pop at
    // the front, across the compactions and growths of its storage.
    std::mt19937 rng(11);
    SlidingVector<int> v;
    std::deque<int> ref;
    for (int step = 0; step < 20000; ++step) {
        if (ref.empty() || rng() % 3 != 0) {
            v.push_back(step);
            ref.push_back(step);
        } else {
            ASSERT_EQ(v.front(), ref.front()) << step;
            v.pop_front();
            ref.pop_front();
        }
        ASSERT_EQ(v.size(), ref.size()) << step;
        ASSERT_EQ(std::vector<int>(v.begin(), v.end()), std::vector<int>(ref.begin(), ref.end()))
            << step;
    }
}

TEST(SlidingVector, MatchesStdVectorUnderRandomUse) {
    std::mt19937 rng(7);
    SlidingVector<int> v;
    v.reserve(8);
    std::vector<int> ref;
    for (int step = 0; step < 20000; ++step) {
        const bool grow = ref.empty() || (ref.size() < 40 && rng() % 2 == 0);
        if (grow) {
            const size_t at = rng() % (ref.size() + 1);
            v.insert(at, step);
            ref.insert(ref.begin() + static_cast<std::ptrdiff_t>(at), step);
        } else {
            const size_t at = rng() % ref.size();
            v.erase(at);
            ref.erase(ref.begin() + static_cast<std::ptrdiff_t>(at));
        }
        ASSERT_EQ(v.size(), ref.size()) << step;
        ASSERT_EQ(std::vector<int>(v.begin(), v.end()), ref) << step;
    }
}

}  // namespace
}  // namespace sim::hbm
