// SPDX-License-Identifier: MIT
// The `economics:` section of a hardware file: what a GPU costs to buy and to rent, how long
// it is depreciated over, and the node it sits in (GPUs per node, node power at load). Read by
// `wallsim cost`; prices change, so the presets mark theirs as assumptions to check.
#pragma once

#include <cstdint>

#include "sim/config/config_node.h"
#include "sim/config/param_table.h"

namespace sim {
class StatGroup;
}

namespace sim::economics {

struct EconomicsParams {
    double purchase_price = 0;        ///< $ per GPU; 0: not given
    double cloud_price_per_hour = 0;  ///< $ per GPU-hour; 0: not given
    double depreciation_years = 3;    ///< > 0
    uint32_t gpus_per_node = 8;       ///< >= 1
    double node_power = 0;            ///< W of a node at load; 0: not given

    /// Throws ConfigError naming the key of a negative price, zero life or empty node.
    static EconomicsParams from_config(const ConfigNode& root);
    void publish(StatGroup& g) const;
};

/// The described keys of a hardware file's economics: section; EconomicsParams' initialisers
/// are the defaults.
ParamTable<EconomicsParams> economics_param_table();

}  // namespace sim::economics
