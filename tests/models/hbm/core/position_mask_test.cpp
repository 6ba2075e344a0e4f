// SPDX-License-Identifier: MIT
// PositionMask against a std::vector<bool> that shifts the same way: every bit and every
// next_set/next_clear answer agree after any mix of inserts, erases, sets and clears, across
// word boundaries.
#include "models/hbm/core/position_mask.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace sim::hbm {
namespace {

size_t reference_next(const std::vector<bool>& ref, size_t from, size_t limit, bool value) {
    for (size_t i = from; i < limit; ++i) {
        if (ref[i] == value) return i;
    }
    return limit;
}

TEST(PositionMask, InsertAndEraseShiftTheBitsAbove) {
    PositionMask m;
    m.resize(8);
    m.set(1);
    m.set(3);           // 0 1 0 1
    m.insert(2, true);  // 0 1 1 0 1
    EXPECT_TRUE(m.test(1));
    EXPECT_TRUE(m.test(2));
    EXPECT_FALSE(m.test(3));
    EXPECT_TRUE(m.test(4));
    m.erase(1);  // 0 1 0 1
    EXPECT_TRUE(m.test(1));
    EXPECT_FALSE(m.test(2));
    EXPECT_TRUE(m.test(3));
    EXPECT_FALSE(m.test(4));
    EXPECT_EQ(m.next_set(2, 8), 3u);
    EXPECT_EQ(m.next_clear(1, 8), 2u);
    EXPECT_EQ(m.next_set(4, 8), 8u);
}

TEST(PositionMask, MatchesAShiftedBitVectorUnderRandomUse) {
    for (size_t room : {size_t{32}, size_t{64}, size_t{200}}) {
        std::mt19937 rng(static_cast<unsigned>(room));
        PositionMask m;
        m.resize(room);
        std::vector<bool> ref;
        for (int step = 0; step < 20000; ++step) {
            const unsigned op = rng() % 4;
            if (op == 0 && ref.size() < room) {
                const size_t at = rng() % (ref.size() + 1);
                const bool value = rng() % 2;
                m.insert(at, value);
                ref.insert(ref.begin() + static_cast<std::ptrdiff_t>(at), value);
            } else if (op == 1 && !ref.empty()) {
                const size_t at = rng() % ref.size();
                m.erase(at);
                ref.erase(ref.begin() + static_cast<std::ptrdiff_t>(at));
            } else if (!ref.empty()) {
                const size_t at = rng() % ref.size();
                ref[at] = op == 2;
                if (op == 2)
                    m.set(at);
                else
                    m.clear(at);
            }
            for (size_t i = 0; i < room; ++i)
                ASSERT_EQ(m.test(i), i < ref.size() && ref[i]) << room << " " << step << " " << i;
            const size_t from = rng() % (ref.size() + 1), limit = ref.size();
            ASSERT_EQ(m.next_set(from, limit), reference_next(ref, from, limit, true));
            ASSERT_EQ(m.next_clear(from, limit), reference_next(ref, from, limit, false));
        }
    }
}

}  // namespace
}  // namespace sim::hbm
