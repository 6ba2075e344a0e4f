// SPDX-License-Identifier: MIT
#include "sim/core/error.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace sim {
namespace {

using ::testing::HasSubstr;

int checked_half(int v) {
    SIM_ASSERT(v % 2 == 0, "odd value " << v << " of " << 2 * v / 2);
    return v / 2;
}

TEST(SimAssert, PassesQuietlyAndThrowsSimBugWithWhereWhatAndTheMessage) {
    EXPECT_EQ(checked_half(8), 4);
    try {
        checked_half(7);
        FAIL() << "no SimBug";
    } catch (const SimBug& e) {
        const std::string what = e.what();
        EXPECT_THAT(what, HasSubstr("error_test.cpp:"));
        EXPECT_THAT(what, HasSubstr("assertion 'v % 2 == 0' failed: odd value 7 of 7"));
    }
}

}  // namespace
}  // namespace sim
