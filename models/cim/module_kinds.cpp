// SPDX-License-Identifier: MIT
// The `cim` module kind of a system file: a CimModule from a CIM file (device: cim).
#include "models/cim/cim_module.h"
#include "models/cim/cim_params.h"
#include "models/cim/register.h"
#include "sim/config/resolved.h"
#include "sim/system/kind_registry.h"

namespace sim::cim {

void register_cim_kinds(system::KindRegistry& kinds) {
    kinds.add({"cim",
               "a ReRAM compute-in-memory chip (a CIM file, device: cim): tiles of IMAs of "
               "crossbars; port mem (the memory it streams weights from)",
               true, [](const std::string& name, const ConfigNode& root) {
                   const CimConfig& c = resolved<CimConfig>(root, cim_config_from);
                   auto m = std::make_unique<CimModule>(name.c_str(), c);
                   system::BuiltModule b;
                   b.device = m.get();
                   b.mem_initiator = &m->mem_socket;
                   system::PortSpec mem{"mem", system::PortRole::MemoryInitiator};
                   mem.required = true;
                   b.ports = {mem};
                   b.summary = std::to_string(c.organisation.tiles) + " tiles, " +
                               std::to_string(c.organisation.crossbars()) + " crossbars";
                   b.module = std::move(m);
                   return b;
               }});
}

}  // namespace sim::cim
