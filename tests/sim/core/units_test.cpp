// SPDX-License-Identifier: MIT
#include "sim/core/units.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace sim {
namespace {

TEST(Units, ParsesEachDimension) {
    EXPECT_DOUBLE_EQ(parse_quantity("1830MHz", Dimension::Frequency), 1.83e9);
    EXPECT_DOUBLE_EQ(parse_quantity("1.5 GHz", Dimension::Frequency), 1.5e9);
    EXPECT_DOUBLE_EQ(parse_quantity("5.23Gbps", Dimension::PinRate), 5.23e9);
    EXPECT_DOUBLE_EQ(parse_quantity("3.35TB/s", Dimension::Bandwidth), 3.35e12);
    EXPECT_DOUBLE_EQ(parse_quantity("700W", Dimension::Power), 700.0);
    EXPECT_DOUBLE_EQ(parse_quantity("2us", Dimension::Time), 2e-6);
}

TEST(Units, DecimalAndBinarySizes) {
    EXPECT_EQ(parse_size_bytes("80GB"), 80'000'000'000ULL);
    EXPECT_EQ(parse_size_bytes("1GiB"), 1ULL << 30);
    EXPECT_EQ(parse_size_bytes("50 MiB"), 50ULL << 20);
    EXPECT_THROW(parse_size_bytes("0.5B"), std::invalid_argument);
}

TEST(Units, TimeInWholePicoseconds) {
    EXPECT_EQ(parse_time_ps("2us"), 2'000'000ULL);
    EXPECT_EQ(parse_time_ps("1.5ns"), 1500ULL);
    EXPECT_THROW(parse_time_ps("0.5ps"), std::invalid_argument);
}

TEST(Units, RejectsMissingWrongOrNegative) {
    EXPECT_THROW(parse_quantity("1830", Dimension::Frequency), std::invalid_argument);
    EXPECT_THROW(parse_quantity("1830MB", Dimension::Frequency), std::invalid_argument);
    EXPECT_THROW(parse_quantity("-5GB/s", Dimension::Bandwidth), std::invalid_argument);
    EXPECT_THROW(parse_quantity("fast", Dimension::Bandwidth), std::invalid_argument);
    EXPECT_THROW(parse_quantity("infTB/s", Dimension::Bandwidth), std::invalid_argument);
}

TEST(Units, ErrorNamesTheAcceptedUnits) {
    try {
        parse_quantity("3GHzz", Dimension::Frequency);
        FAIL() << "expected an exception";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("MHz"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace sim
