// SPDX-License-Identifier: MIT
// HBM parameters from the shipped presets, for the HBM tests.
#pragma once

#include <string>
#include <vector>

#include "models/hbm/hbm_params.h"
#include "sim/config/loader.h"
#include "tests/testing/temp_dir.h"

namespace sim::testing {

/// configs/hw/<name>.yaml with overrides, read as the HBM model reads it.
inline hbm::HbmParams hbm_preset(const std::string& name,
                                 const std::vector<std::string>& overrides = {}) {
    return hbm::HbmParams::from_config(
        ConfigNode::root_of(load_config(source_path("configs/hw/" + name + ".yaml"), overrides)));
}

/// One HBM3 pseudo-channel of the H100 preset: quick, and every constraint still applies.
inline hbm::HbmParams one_hbm_pseudo_channel(std::vector<std::string> extra = {}) {
    std::vector<std::string> o{
        "hbm.stacks=1",
        "hbm.bus_width_bits=32",
        "hbm.organisation.channels_per_stack=1",
        "hbm.organisation.pseudo_channels_per_channel=1",
        "hbm.capacity=512MB",
        "hbm.mapping.layout=[offset, column:1, bank_group, bank, column, row]"};
    o.insert(o.end(), extra.begin(), extra.end());
    return hbm_preset("h100", o);
}

}  // namespace sim::testing
