// SPDX-License-Identifier: MIT
// The `hbm` module kind of a system file: the hbm: section of a hardware file (through
// extends:) as a memory target, plus queue: (chunk requests it holds before END_REQ waits).
#include "models/hbm/hbm_module.h"
#include "models/hbm/register.h"
#include "sim/config/resolved.h"
#include "sim/system/kind_registry.h"

#include <cstdio>

namespace sim::hbm {

void register_hbm_kinds(system::KindRegistry& kinds) {
    kinds.add({"hbm",
               "HBM stacks (the hbm: section of a hardware file, via extends:), serving chunk "
               "requests at the stacks' peak bandwidth; stacks and channels as children; port in",
               false, [](const std::string& name, const ConfigNode& root) {
                   const HbmParams& p = resolved<HbmParams>(root);
                   uint64_t queue = 16;
                   root.get("queue", queue);
                   if (queue < 1 || queue > 1u << 20)
                       root.fail("queue", "must be in 1..1048576 chunks");
                   // The rest of a hardware file it extends belongs to the device that file
                   // describes; only hbm: and queue: are the memory's.
                   auto m =
                       std::make_unique<HbmModule>(name.c_str(), p, static_cast<uint32_t>(queue));
                   system::BuiltModule b;
                   b.mem_target = &m->tgt_socket;
                   char buf[96];
                   std::snprintf(buf, sizeof buf, "%s, %u stacks, %.0f GB/s", p.generation.c_str(),
                                 p.core.stacks, p.peak_bandwidth() / 1e9);
                   b.summary = buf;
                   b.ports = {{"in", system::PortRole::MemoryTarget}};
                   b.module = std::move(m);
                   return b;
               }});
}

}  // namespace sim::hbm
