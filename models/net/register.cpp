// SPDX-License-Identifier: MIT
#include "models/net/register.h"

#include "sim/registry/registry.h"

namespace sim::net {

void register_net(Registry& r) {
    r.add_command({"net",
                   "collectives over a cluster network: time, algbw and busbw per message size "
                   "as nccl-tests reports them, link utilisation (--help)",
                   run_net_command});
}

}  // namespace sim::net
