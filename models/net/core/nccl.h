// SPDX-License-Identifier: MIT
// What NCCL does underneath a collective, as a mechanism: the message is split over channels
// (one CTA each, on the SMs), each channel moves it in chunks through a ring, a tree or the
// NVSwitch's multicast engine (NVLS), and every step pays the protocol's synchronisation:
//   - Simple: whole chunks behind a fence and a flag; full link efficiency, the largest step
//     latency;
//   - LL: 8 B of data and an 8 B flag per 16 B store; half the wire carries data, the receiver
//     polls, the smallest latency, and a CTA moves little per second;
//   - LL128: 120 B of data and an 8 B flag per 128 B line; 15/16 of the wire, a middle latency.
// Sources: NCCL's device and tuning code (github.com/NVIDIA/nccl: src/include/device.h line and
// buffer sizes, src/enqueue.cc chunk and channel choice, src/graph/tuning.cc latencies and
// per-channel limits), cited as docs/references.md [nccl]. Per-step link traffic runs on a
// FlowNetwork, so links are shared by mechanism. Pure C++.
#pragma once

#include <cstdint>
#include <string>

namespace sim::net {

enum class Protocol { Simple, LL, LL128 };

/// The GPUs' generation, which picks the row of NCCL's tuning tables (compute capability 7.x,
/// 8.x, 9.x) and its search's speeds.
enum class GpuGeneration { Volta, Ampere, Hopper };

/// Share of the wire that carries data: LL sends 8 B of flag with every 8 B of data, LL128
/// 8 B with every 120 B (NCCL src/include/device.h).
double wire_efficiency(Protocol p);

/// How one protocol runs: its latencies, what one channel can move, and its chunk.
struct ProtocolParams {
    double base_latency = 0;            ///< s per collective: kernel setup, >= 0
    double ring_hop_latency = 0;        ///< s per ring step: wire, flag wait and fence, >= 0
    double tree_hop_latency = 0;        ///< s per tree step, >= 0
    double channel_bandwidth = 0;       ///< data B/s one ring channel's CTA moves; 0: no limit
    double tree_channel_bandwidth = 0;  ///< the same on a tree; 0: no limit
    double chunk = 0;                   ///< data B a ring channel moves per step at most, > 0
    double tree_chunk = 0;              ///< data B a tree channel moves per step at most, > 0
    uint32_t threads = 512;             ///< threads per channel's CTA (NCCL's maximum)
    uint32_t thread_threshold = 64;     ///< bytes per thread below which channels are dropped
    bool enabled = true;                ///< false: NCCL does not run it here (LL128 over PCIe)
    /// Synchronisation rounds per ring step, each paying ring_hop_latency, >= 1: a Simple ring
    /// chunk moves in CHUNKSTEPS / SLICESTEPS slices, each behind its own flag wait, barrier,
    /// fence and flag post (src/collectives/device/prims_simple.h genericOp); LL and LL128 flag
    /// every line instead, so a step is one round.
    uint32_t ring_slices = 1;
    /// s a ring hop that crosses between nodes takes instead of ring_hop_latency, >= 0: the
    /// network transport's proxy thread posts and completes each send (tuning.cc, hwLat NET).
    /// A chunk meets such hops 2 x nodes times in an AllReduce and nodes - 1 times in an
    /// AllGather or ReduceScatter, as NCCL counts them; the ring's pipeline pays the difference
    /// once per collective.
    double net_ring_hop_latency = 0;
    /// The same for a tree level that crosses between nodes (2 x tree levels per AllReduce).
    double net_tree_hop_latency = 0;
};

/// NCCL's send/receive knobs (models/net/core/p2p.h), each an environment variable of NCCL's;
/// the defaults are NCCL 2.18's on an NVLink path.
struct P2pParams {
    /// Channels a path between two GPUs of a node asks for (ncclTopoGetNchannels): 2 per NVLink
    /// (36 with an H100's 18, 24 with an A100's 12), 2 over PCIe; 1..64.
    uint32_t path_channels = 36;
    uint32_t net_channels_per_peer = 2;  ///< NCCL_NCHANNELS_PER_NET_PEER, 1..32
    double chunk = 512.0 * 1024;         ///< Simple step inside a node: P2P_NVL_CHUNKSIZE, >= 4 KiB
    double net_chunk = 128.0 * 1024;     ///< Simple step across nodes: P2P_NET_CHUNKSIZE, >= 4 KiB
    double ll_threshold = 16384;         ///< B: pieces no larger run LL (P2P_LL_THRESHOLD), >= 0
    /// Data B/s one channel's CTA sends, however many sends share it; 0: no limit. Its warps'
    /// copy loops, not the link, can be the limit (models/net/core/p2p.h).
    double channel_bandwidth = 0;
    /// Throws std::invalid_argument naming the first bad field.
    void validate() const;
};

/// NCCL as it runs on one system: channels, protocols, NVLink SHARP and the host's share.
/// Defaults are NCCL's own constants on NVLink (src/graph/tuning.cc, src/include/device.h,
/// src/init.cc buffer sizes); a network preset sets what depends on the machine.
struct NcclParams {
    GpuGeneration generation = GpuGeneration::Hopper;  ///< the rows of NCCL's tuner it uses
    double launch_latency = 0;       ///< s the host and kernel launch add per collective, >= 0
    uint32_t ring_channels = 1;      ///< channels (CTAs) of a ring collective, >= 1
    uint32_t tree_channels = 1;      ///< channels of a tree AllReduce, >= 1
    uint32_t nvls_channels = 0;      ///< channels of an NVLS AllReduce; 0: no NVLink SHARP
    double nvls_efficiency = 0.85;   ///< share of the link rate multimem traffic reaches, (0, 1]
    double nvls_latency = 25e-6;     ///< s per NVLS collective: multicast barriers, >= 0
    double nvls_chunk = 128 * 1024;  ///< data B per NVLS chunk at most, > 0
    double nvls_chunk_overhead = 0;  ///< s per NVLS chunk round: its barriers, >= 0
    /// NCCL's NVLink figures: base latencies 8.4 / 6.6 / 14 us, ring hop 3.4 / 0.6 / 1.9 us, tree
    /// hop 4.0 / 0.6 / 1.25 us. Chunks: a Simple step is 4 MiB / 8 buffer slots, a ring chunk 4
    /// steps (ALLREDUCE_CHUNKSTEPS), a tree chunk 1; LL steps are 512 KiB / 8 at half data; LL128
    /// steps 120 x 640 x 8 B / 8 at 15/16 data. A Simple ring chunk is 2 slices
    /// (ALLREDUCE_CHUNKSTEPS 4 / ALLREDUCE_SLICESTEPS 2, the same for AllGather and ReduceScatter).
    /// Hops between nodes (hwLat NET): ring 14 / 2.7 / 4.0 us, tree 14 / 5.0 / 8.5 us.
    ProtocolParams simple{8.4e-6, 3.4e-6, 4.0e-6, 0,     0,    2.0 * 1024 * 1024, 512.0 * 1024, 512,
                          64,     true,   2,      14e-6, 14e-6};
    ProtocolParams ll{6.6e-6, 0.6e-6, 0.6e-6, 0, 0,      32.0 * 1024, 32.0 * 1024,
                      512,    8,      true,   1, 2.7e-6, 5.0e-6};
    ProtocolParams ll128{14e-6, 1.9e-6, 1.25e-6, 0, 0,      576000, 576000,
                         640,   8,      true,    1, 4.0e-6, 8.5e-6};

    P2pParams p2p;  ///< sends and receives: AllToAll

    const ProtocolParams& protocol(Protocol p) const;
    /// Throws std::invalid_argument naming the first bad field.
    void validate() const;
};

Protocol parse_protocol(const std::string& s);  ///< simple, ll, ll128; throws invalid_argument
std::string to_string(Protocol p);

/// Channels NCCL runs for `bytes` (src/enqueue.cc): it drops channels while each thread of
/// every channel would get less than the protocol's threshold; ring LL's threshold scales with
/// the number of ranks.
uint32_t channels_for(double bytes,
                      uint32_t max_channels,
                      const ProtocolParams& p,
                      uint32_t ring_ranks);

/// NVLS chunk for `bytes` (src/enqueue.cc): 128 KiB, halved down to 16 KiB when the message gives
/// the concurrent operations (channels x heads; on one node every GPU is a head,
/// src/graph/search.cc) few chunks each.
double nvls_chunk_for(double bytes, uint32_t channels, uint32_t heads, double max_chunk);

}  // namespace sim::net
