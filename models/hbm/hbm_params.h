// SPDX-License-Identifier: MIT
// Reads the cycle-level HBM description from the hardware file's `hbm:` section: the stack
// organisation, JEDEC timings (in ns, or in memory clocks when written as a plain integer),
// the controller, the address mapping and the energy per event. The memory clock is the pin
// rate divided by the data beats per clock (DDR HBM2e: 2; HBM3/3e: 4).
#pragma once

#include "models/energy/core/energy_table.h"
#include "models/hbm/core/hbm_system.h"
#include "sim/config/config_node.h"
#include "sim/config/param_table.h"

namespace sim::hbm {

/// Energy per event, J: the device's entry in the energy tables (models/energy).
using energy::HbmEnergy;

struct HbmParams {
    HbmCoreConfig core;
    HbmEnergy energy;
    std::string generation;
    uint64_t capacity_bytes = 0;

    /// Throws ConfigError naming the key of any missing, malformed or impossible value (a
    /// timing that cannot hold, a mapping that overlaps or leaves a field uncovered).
    static HbmParams from_config(const ConfigNode& root);
    /// Peak bandwidth of all pseudo-channels, B/s.
    double peak_bandwidth() const;
};

/// hbm.organisation's burst keys, which set the access size and the clock but have no member
/// of their own in HbmCoreConfig. Both are required: no defaults.
struct BurstKeys {
    uint32_t burst_length = 0;
    uint32_t beats_per_clock = 0;
};

/// The keys of hbm.controller: ControllerParams' members with their types, ranges and
/// descriptions; ControllerParams' initialisers are their defaults.
ParamTable<ControllerParams> controller_param_table();
/// The switches of hbm.mapping (its layout, a list, is read by hand); HbmCoreConfig's
/// initialisers are their defaults.
ParamTable<HbmCoreConfig> mapping_param_table();
/// The JEDEC timings of hbm.timing, read in memory clocks (so after HbmCoreConfig::clock_hz
/// is known); checks between them are HbmParams::from_config's.
ParamTable<HbmCoreConfig> timing_param_table();
/// hbm.organisation: the stack's shape (row_bytes is read with the device's figures) and its
/// burst keys.
ParamTable<HbmCoreConfig> organisation_param_table();
ParamTable<BurstKeys> burst_param_table();
/// hbm.command_bus: present, the command buses are modelled.
ParamTable<CommandBusConfig> command_bus_param_table();

}  // namespace sim::hbm
