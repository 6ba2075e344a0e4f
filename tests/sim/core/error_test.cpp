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

// Found by fuzz/config_fuzzer: yaml-cpp names the offending character in its message, and a
// newline there split the one-line error main prints.
TEST(ConfigError, WhatIsOneLineWhateverTheInputHeld) {
    const ConfigError e({"a.yaml", 3, 1}, "key\nwith newline",
                        "unknown escape character: \n, \r, \x01 and a\ttab");
    EXPECT_EQ(std::string(e.what()),
              "a.yaml:3:1: key\\nwith newline: unknown escape character: \\n, \\r, \\x01 and "
              "a\ttab");
    EXPECT_EQ(e.message(), "unknown escape character: \n, \r, \x01 and a\ttab");
}

}  // namespace
}  // namespace sim
