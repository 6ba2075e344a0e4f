// SPDX-License-Identifier: MIT
#include "sim/import/register.h"

#include "sim/import/commands.h"
#include "sim/registry/registry.h"

namespace sim::import {

void register_import(Registry& r) {
    r.add_command({"import",
                   "turn a PyTorch profiler (Kineto) or Chakra trace into an operator trace "
                   "whose ops carry their measured times (--help)",
                   run_import_command});
    r.add_command({"compare",
                   "a run of an imported trace: measured vs simulated time per op class, "
                   "error and MAPE; writes compare.csv (--help)",
                   run_compare_command});
}

}  // namespace sim::import
