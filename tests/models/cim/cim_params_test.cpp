// SPDX-License-Identifier: MIT
// Reading configs/cim files: presets load, overrides apply, bad values name their key.
#include "models/cim/cim_params.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/testing/config_error.h"
#include "tests/testing/temp_dir.h"

namespace sim::cim {
namespace {

using sim::testing::config_error;
using ::testing::AllOf;
using ::testing::HasSubstr;

CimConfig isaac(const std::vector<std::string>& overrides = {}) {
    return load_cim_config(sim::testing::source_path("configs/cim/isaac.yaml"), overrides);
}

TEST(CimParams, PresetsLoad) {
    const CimConfig c = isaac();
    EXPECT_EQ(c.crossbar.rows, 128u);
    EXPECT_EQ(c.crossbar.sign, SignEncoding::Offset);
    EXPECT_TRUE(c.crossbar.flip_columns);
    EXPECT_DOUBLE_EQ(c.crossbar.adc_sample_rate_hz, 1.28e9);
    EXPECT_DOUBLE_EQ(c.energy.adc_conversion_j, 1.5625e-12);
    EXPECT_EQ(c.organisation.crossbars(), 16128u);
    const CimConfig t = load_cim_config(sim::testing::source_path("configs/cim/teaching.yaml"), {});
    EXPECT_EQ(t.crossbar.rows, 32u);
    EXPECT_EQ(t.crossbar.sign, SignEncoding::Differential);
    EXPECT_DOUBLE_EQ(t.nonideality.time_since_programming_s, 86400);
    EXPECT_DOUBLE_EQ(t.energy.adc_conversion_j, 1.5625e-12);  // inherited through extends
}

TEST(CimParams, OverridesApply) {
    EXPECT_EQ(isaac({"crossbar.adc_bits=6"}).crossbar.adc_bits, 6u);
    EXPECT_DOUBLE_EQ(isaac({"nonideality.drift_t0=10s"}).nonideality.drift_t0_s, 10);
}

TEST(CimParams, BadValuesNameTheirKeyAndFileLine) {
    EXPECT_THAT(config_error([] { isaac({"crossbar.rowz=3"}); }),
                AllOf(HasSubstr("crossbar.rowz"), HasSubstr("unknown key"),
                      HasSubstr("did you mean 'rows'")));
    EXPECT_THAT(config_error([] { isaac({"nonideality.variation_sigma=-0.1"}); }),
                AllOf(HasSubstr("nonideality.variation_sigma"), HasSubstr("must not be negative")));
    EXPECT_THAT(config_error([] { isaac({"crossbar.rows=0"}); }),
                AllOf(HasSubstr("crossbar.rows"), HasSubstr("from 1 to 4096")));
    EXPECT_THAT(config_error([] { isaac({"crossbar.columns_per_adc=3"}); }),
                AllOf(HasSubstr("crossbar.columns_per_adc"), HasSubstr("must divide")));
    EXPECT_THAT(config_error([] { isaac({"crossbar.on_off_ratio=1"}); }),
                HasSubstr("crossbar.on_off_ratio"));
    EXPECT_THAT(config_error([] { isaac({"crossbar.read_time=-1ns"}); }),
                HasSubstr("crossbar.read_time"));
    EXPECT_THAT(config_error([] {
                    isaac({"crossbar.columns=4", "crossbar.columns_per_adc=4"});
                }),
                AllOf(HasSubstr("crossbar.columns"), HasSubstr("cannot hold one weight")));
    EXPECT_THAT(config_error([] { isaac({"crossbar.sign_encoding=twos"}); }),
                HasSubstr("crossbar.sign_encoding"));
    // A value in the file itself is reported at its line.
    sim::testing::TempDir dir;
    const std::string path =
        dir.write("bad.yaml", "extends: " + sim::testing::source_path("configs/cim/isaac.yaml") +
                                  "\nnonideality:\n  wire_resistance_ohm: -2\n");
    EXPECT_THAT(config_error([&] { load_cim_config(path, {}); }),
                AllOf(HasSubstr("bad.yaml:3:"), HasSubstr("nonideality.wire_resistance_ohm")));
}

}  // namespace
}  // namespace sim::cim
