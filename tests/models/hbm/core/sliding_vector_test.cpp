// SPDX-License-Identifier: MIT
// SlidingVector against std::vector: the same sequence after any mix of inserts and erases,
// across the slides and compactions of its storage; and against std::deque as a FIFO.
#include "models/hbm/core/sliding_vector.h"

#include <gtest/gtest.h>

#include <cstdint>
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
    // As MemorySystem uses it for requests a controller refused: push at the back (or fill in
    // place there), pop at the front, across the compactions and growths of its storage.
    std::mt19937 rng(11);
    SlidingVector<int> v;
    std::deque<int> ref;
    for (int step = 0; step < 20000; ++step) {
        if (ref.empty() || rng() % 3 != 0) {
            if (step % 2)
                v.push_back(step);
            else
                v.emplace_back() = step;  // filled in place
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

/// An element that counts how often it is stored: pushed, or moved by a slide or a growth.
struct Counted {
    int value = 0;
    uint64_t* stores = nullptr;
    Counted() = default;
    Counted(int v, uint64_t* s) : value(v), stores(s) {}
    Counted(const Counted&) = default;
    Counted& operator=(const Counted& other) {
        value = other.value;
        stores = other.stores;
        if (stores) ++*stores;
        return *this;
    }
};

TEST(SlidingVector, ALongQueueMovesEachElementOnlyAFewTimes) {
    // A refused-request queue can hold thousands. Sliding them all down whenever the end is
    // reached (even when only a few slots free up at the front) once cost 46 stores per
    // push at this length; growing instead keeps it amortised O(1).
    uint64_t stores = 0;
    SlidingVector<Counted> v;
    constexpr int kLength = 1000, kPushes = 100000;
    for (int i = 0; i < kLength; ++i)
        v.push_back({i, &stores});
    stores = 0;
    for (int i = kLength; i < kLength + kPushes; ++i) {
        v.push_back({i, &stores});
        ASSERT_EQ(v.front().value, i - kLength);
        v.pop_front();
    }
    EXPECT_EQ(v.size(), static_cast<size_t>(kLength));
    EXPECT_EQ(v.front().value, kPushes);
    EXPECT_LT(stores, 3u * kPushes);
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
