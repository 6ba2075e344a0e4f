// SPDX-License-Identifier: MIT
#include "models/hbm/hbm_params.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "sim/config/loader.h"
#include "tests/testing/config_error.h"
#include "tests/testing/temp_dir.h"

namespace sim::hbm {
namespace {

using sim::testing::config_error;
using ::testing::HasSubstr;

HbmParams h100(const std::vector<std::string>& overrides = {}) {
    return HbmParams::from_config(ConfigNode::root_of(
        load_config(sim::testing::source_path("configs/hw/h100.yaml"), overrides)));
}

TEST(HbmParams, PresetsMatchTheirDatasheetBandwidth) {
    // The cycle-level organisation must give the same peak as the datasheet figure.
    EXPECT_NEAR(h100().peak_bandwidth(), 3.35e12, 0.01 * 3.35e12);
    const HbmParams h = h100();
    EXPECT_EQ(h.core.shape.access_bytes, 32u);   // 32-bit pseudo-channel x BL8
    EXPECT_EQ(h.core.timing.burst, 2u);          // BL8 at 4 beats per clock
    EXPECT_EQ(h.core.clock_hz, 1'307'500'000u);  // 5.23 Gbps / 4
    EXPECT_EQ(h.core.timing.rcd, 19u);           // 14 ns at 1.3075 GHz, rounded up
}

TEST(HbmParams, ImpossibleTimingsAreRejected) {
    EXPECT_THAT(config_error([] { h100({"hbm.timing.t_ras=5ns"}); }),
                AllOf(HasSubstr("hbm.timing.t_ras"), HasSubstr("cannot hold")));
    EXPECT_THAT(config_error([] { h100({"hbm.timing.t_rc=10ns"}); }),
                HasSubstr("t_rc >= t_ras + t_rp"));
    EXPECT_THAT(config_error([] { h100({"hbm.timing.t_ccd_s=1"}); }), HasSubstr("cannot overlap"));
    EXPECT_THAT(config_error([] { h100({"hbm.timing.t_refi=100ns"}); }),
                HasSubstr("hbm.timing.t_refi"));
    EXPECT_THAT(config_error([] { h100({"hbm.timing.t_cl=fast"}); }), HasSubstr("hbm.timing.t_cl"));
}

TEST(HbmParams, BadMappingsAreRejected) {
    EXPECT_THAT(config_error([] {
                    h100(
                        {"hbm.mapping.layout=[offset, column, column, pseudo_channel, channel, "
                         "stack, bank_group, bank, row]"});
                }),
                AllOf(HasSubstr("hbm.mapping.layout"), HasSubstr("overlap")));
    EXPECT_THAT(
        config_error([] {
            h100({"hbm.mapping.layout=[offset, column, channel, stack, bank_group, bank, row]"});
        }),
        HasSubstr("does not cover all of pseudo_channel"));
}

TEST(HbmParams, ControllerLimits) {
    EXPECT_THAT(config_error([] { h100({"hbm.controller.write_low_watermark=50"}); }),
                HasSubstr("below write_high_watermark"));
    EXPECT_THAT(config_error([] { h100({"hbm.controller.read_queue=0"}); }),
                HasSubstr("between 1 and 4096"));
    EXPECT_THAT(config_error([] { h100({"hbm.controller.write_queue=100000"}); }),
                HasSubstr("between 1 and 4096"));
    EXPECT_THAT(config_error([] { h100({"hbm.controller.row_policy=lazy"}); }),
                HasSubstr("not one of: open, closed"));
}

TEST(HbmParams, CapacityMustFitTheOrganisation) {
    EXPECT_THAT(config_error([] { h100({"hbm.organisation.rows_per_bank=1024"}); }),
                HasSubstr("less than hbm.capacity"));
}

}  // namespace
}  // namespace sim::hbm
