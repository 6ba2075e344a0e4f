// SPDX-License-Identifier: MIT
#include "models/economics/economics_params.h"

#include <limits>

#include "sim/stats/group.h"

namespace sim::economics {

ParamTable<EconomicsParams> economics_param_table() {
    using P = EconomicsParams;
    constexpr double kNoLimit = std::numeric_limits<double>::infinity();
    ParamTable<P> t;
    t.number("purchase_price", &P::purchase_price, 0, kNoLimit, false, "USD",
             "price of one GPU, bought; 0: not given");
    t.number("cloud_price_per_hour", &P::cloud_price_per_hour, 0, kNoLimit, false, "USD/h",
             "price of one GPU-hour, rented; 0: not given");
    t.number("depreciation_years", &P::depreciation_years, 0, kNoLimit, true, "years",
             "depreciation period of a bought GPU");
    t.integer("gpus_per_node", &P::gpus_per_node, 1, 1024, "GPUs", "GPUs in one node");
    t.quantity("node_power", &P::node_power, Dimension::Power, 0, kNoLimit,
               "power of one node at load; 0: not given");
    return t;
}

EconomicsParams EconomicsParams::from_config(const ConfigNode& root) {
    EconomicsParams p;
    if (const auto e = root.optional_child("economics")) economics_param_table().read(*e, p);
    return p;
}

void EconomicsParams::publish(StatGroup& g) const {
    g.add_scalar("purchase_price", "USD", "price of one GPU, bought").set(purchase_price);
    g.add_scalar("cloud_price_per_hour", "USD/h", "price of one GPU-hour, rented")
        .set(cloud_price_per_hour);
    g.add_scalar("depreciation_years", "years", "depreciation period").set(depreciation_years);
    g.add_counter("gpus_per_node", "count", "GPUs in one node") += gpus_per_node;
    g.add_scalar("node_power", "W", "power of one node at load").set(node_power);
}

}  // namespace sim::economics
