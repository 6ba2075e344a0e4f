// SPDX-License-Identifier: MIT
// What one copy of a collective over named devices sends over its device's links, by
// destination: the traffic pattern of the algorithm that runs it, applied to the group in its
// rank order (the order of `group:`).
#pragma once

#include <string>
#include <vector>

#include "sim/exec/core/job.h"
#include "sim/trace/op.h"

namespace sim::exec {

enum class SendPattern {
    Ring,           ///< everything to the next rank (ring algorithms, send/receive)
    Chain,          ///< half to the next rank, half to the previous (a tree inside a node)
    AllToAll,       ///< an equal part to every other rank
    ThroughSwitch,  ///< up to the switch, which reduces and sends it back (NVLink SHARP)
};

/// op's sends of `bytes` in all over the devices' links; empty when op is neither a copy of a
/// collective over named devices nor a peer copy. Throws SimBug when a peer has no link id (the
/// run checks the wiring before it starts: check_links in sim/engine/run.cpp).
std::vector<LinkSend> group_sends(const Op& op,
                                  SendPattern pattern,
                                  double bytes,
                                  const DeviceExecutor& device);

/// The devices op's copy sends to under pattern (op.device itself for ThroughSwitch); a peer
/// copy (memcpy, direction p2p) sends to its `to:`.
std::vector<std::string> group_peers(const Op& op, SendPattern pattern);

}  // namespace sim::exec
