// SPDX-License-Identifier: MIT
// How NCCL runs sends and receives, and so an AllToAll as nccl-tests' alltoall_perf calls it:
// one ncclSend and one ncclRecv per peer inside a group, each run by the p2p kernel on the
// channels NCCL gives that peer. The schedule follows NCCL 2.18 (docs/references.md [nccl]):
//   - channels: p2pnChannels is the collective channels rounded up to a power of two, and each
//     peer may use p2pnChannelsPerPeer of them: 2 per NVLink of the path between two GPUs, 2 over
//     PCIe, NCCL_NCHANNELS_PER_NET_PEER (2) once any peer is on another node, rounded up to a
//     power of two (src/graph/paths.cc ncclTopoComputeP2pChannels, ncclTopoGetNchannels);
//   - pieces: a send of B bytes is cut into pieces of up to calcP2pChunkSize(B) bytes, each on
//     its own channel; on one node NCCL starts from as many channels per peer as keep one
//     operation per channel and doubles them, up to four operations per channel, while a piece
//     would exceed 32 steps (src/enqueue.cc scheduleP2pTasksToPlan, calcP2pChunkSize);
//   - protocol: LL for a piece of at most NCCL_P2P_LL_THRESHOLD (16 KiB), else Simple, whose
//     steps are P2P_NVL_CHUNKSIZE (512 KiB) over NVLink, P2P_PCI_CHUNKSIZE or P2P_NET_CHUNKSIZE
//     (128 KiB) otherwise (src/init.cc, src/proxy.cc ncclProxyComputeP2p);
//   - works: a channel's CTA runs up to 8 sends and 8 receives at once (one ncclWork,
//     NCCL_MAX_WORK_ELEMENTS_P2P), splitting its 20 warps among them (finishWorkP2p), and its
//     works one after another. What a channel sends per second is capped as a whole
//     (P2pParams::channel_bandwidth): 4, 8 and 16 pieces a peer, one, two and four sends to a
//     channel, reach the same rate per channel on 8 x H100 (docs/network.md).
// Pure C++.
#pragma once

#include <cstdint>

#include "models/net/core/nccl.h"

namespace sim::net {

/// How NCCL runs one send (and its matching receive) of the same size to each of a
/// communicator's peers.
struct P2pPlan {
    Protocol protocol = Protocol::Simple;  ///< the largest piece's
    uint32_t pieces = 1;                   ///< per peer and direction, each on its own channel
    double piece = 0;                      ///< B in the largest piece
    uint32_t channels = 1;                 ///< distinct channels the sends run on
    uint32_t rounds = 1;                   ///< works each channel runs one after another
    uint32_t send_channels = 1;            ///< channels carrying sends to other ranks
};

/// The plan for `bytes_per_peer` to each of ranks - 1 peers, the ranks filling `nodes` nodes,
/// with `collective_channels` ring channels (NCCL's nChannels, <= 32 counted). ll_enabled:
/// whether the LL protocol runs on this network.
P2pPlan p2p_plan(double bytes_per_peer,
                 uint32_t ranks,
                 uint32_t nodes,
                 uint32_t collective_channels,
                 bool ll_enabled,
                 const P2pParams& p);

}  // namespace sim::net
