// SPDX-License-Identifier: MIT
#include "models/economics/register.h"
#include "sim/config/resolved.h"

#include "models/economics/economics_params.h"
#include "sim/registry/registry.h"

namespace sim::economics {

void register_economics(Registry& r) {
    r.add_component({"economics",
                     "purchase and cloud prices, depreciation, node size and power (wallsim cost)",
                     "gpu", [](const ConfigNode& hw, StatGroup& stats) {
                         resolved<EconomicsParams>(hw).publish(stats);
                     }});
    r.add_command({"cost",
                   "training cost: 6ND, GPU-hours at an MFU, rent vs own, electricity with PUE, "
                   "carbon, side by side (--help)",
                   run_cost_command});
    r.add_params({"economics",
                  "What a GPU costs, for `wallsim cost` (models/economics/economics_params.h).",
                  [] { return economics_param_table().describe(); }});
}

}  // namespace sim::economics
