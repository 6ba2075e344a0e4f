// SPDX-License-Identifier: MIT
#include "models/economics/economics_params.h"

#include "sim/stats/group.h"

namespace sim::economics {

EconomicsParams EconomicsParams::from_config(const ConfigNode& root) {
    EconomicsParams p;
    const auto e = root.optional_child("economics");
    if (!e) return p;
    if (e->get("purchase_price", p.purchase_price) && !(p.purchase_price >= 0))
        e->fail("purchase_price", "must not be negative (US dollars per GPU)");
    if (e->get("cloud_price_per_hour", p.cloud_price_per_hour) && !(p.cloud_price_per_hour >= 0))
        e->fail("cloud_price_per_hour", "must not be negative (US dollars per GPU-hour)");
    if (e->get("depreciation_years", p.depreciation_years) && !(p.depreciation_years > 0))
        e->fail("depreciation_years", "must be greater than 0");
    if (e->get("gpus_per_node", p.gpus_per_node) && (p.gpus_per_node < 1 || p.gpus_per_node > 1024))
        e->fail("gpus_per_node", "must be between 1 and 1024");
    if (e->get_quantity("node_power", Dimension::Power, p.node_power) && !(p.node_power >= 0))
        e->fail("node_power", "must not be negative");
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
