// SPDX-License-Identifier: MIT
// The `systolic` module kind of a system file: a SystolicModule from a systolic hardware file.
#include "models/systolic/register.h"
#include "models/systolic/systolic_module.h"
#include "sim/config/resolved.h"
#include "sim/system/kind_registry.h"

namespace sim::systolic {

void register_systolic_kinds(system::KindRegistry& kinds) {
    kinds.add({"systolic",
               "a systolic-array accelerator (a hardware file with device: systolic): MAC array, "
               "unified buffer, weight FIFO, accumulators; ports mem, pcie",
               true, [](const std::string& name, const ConfigNode& root) {
                   const SystolicParams& p = resolved<SystolicParams>(root);
                   auto m = std::make_unique<SystolicModule>(name.c_str(), p);
                   system::BuiltModule b;
                   b.device = m.get();
                   b.link_node = m.get();
                   b.mem_initiator = &m->mem_socket;
                   system::PortSpec mem{"mem", system::PortRole::MemoryInitiator};
                   mem.required = true;
                   b.ports = {mem, {"pcie", system::PortRole::Link}};
                   b.summary = std::to_string(p.array.rows) + "×" + std::to_string(p.array.cols) +
                               " array at " + std::to_string(p.array.clock_hz / 1e6) + " MHz";
                   b.module = std::move(m);
                   return b;
               }});
}

}  // namespace sim::systolic
