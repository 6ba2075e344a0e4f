// SPDX-License-Identifier: MIT
#include "models/cim/register.h"

#include "sim/registry/registry.h"

namespace sim::cim {

void register_cim(Registry& r) {
    r.add_command({"cim",
                   "ReRAM compute-in-memory: map a GEMM, conv or MLP onto crossbars; timing, "
                   "energy, area and accuracy vs float (--help)",
                   run_cim_command});
}

}  // namespace sim::cim
