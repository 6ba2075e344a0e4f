// SPDX-License-Identifier: MIT
#include "models/net/core/nccl.h"

#include <stdexcept>

namespace sim::net {

double wire_efficiency(Protocol p) {
    switch (p) {
        case Protocol::Simple: return 1.0;
        case Protocol::LL: return 0.5;
        case Protocol::LL128: return 120.0 / 128.0;
    }
    return 1.0;
}

const ProtocolParams& NcclParams::protocol(Protocol p) const {
    switch (p) {
        case Protocol::LL: return ll;
        case Protocol::LL128: return ll128;
        case Protocol::Simple: break;
    }
    return simple;
}

void P2pParams::validate() const {
    auto need = [](bool ok, const char* what) {
        if (!ok) throw std::invalid_argument(what);
    };
    need(path_channels >= 1 && path_channels <= 64, "p2p.path_channels must be in 1..64");
    need(net_channels_per_peer >= 1 && net_channels_per_peer <= 32,
         "p2p.net_channels_per_peer must be in 1..32");
    need(chunk >= 4096, "p2p.chunk must be at least 4 KiB");
    need(net_chunk >= 4096, "p2p.net_chunk must be at least 4 KiB");
    need(ll_threshold >= 0, "p2p.ll_threshold must be >= 0");
    need(channel_bandwidth >= 0, "p2p.channel_bandwidth must be >= 0 (0: no limit)");
}

void NcclParams::validate() const {
    auto need = [](bool ok, const std::string& what) {
        if (!ok) throw std::invalid_argument(what);
    };
    need(launch_latency >= 0, "launch_latency must be >= 0");
    need(ring_channels >= 1 && ring_channels <= 64, "ring_channels must be in 1..64");
    need(tree_channels >= 1 && tree_channels <= 64, "tree_channels must be in 1..64");
    need(nvls_channels <= 64, "nvls_channels must be in 0..64");
    need(nvls_efficiency > 0 && nvls_efficiency <= 1, "nvls_efficiency must be in (0, 1]");
    need(nvls_latency >= 0, "nvls_latency must be >= 0");
    need(nvls_chunk >= 16 * 1024, "nvls_chunk must be at least 16 KiB");
    need(nvls_chunk_overhead >= 0, "nvls_chunk_overhead must be >= 0");
    p2p.validate();
    for (Protocol p : {Protocol::Simple, Protocol::LL, Protocol::LL128}) {
        const ProtocolParams& q = protocol(p);
        const std::string name = to_string(p) + ".";
        need(q.base_latency >= 0, name + "base_latency must be >= 0");
        need(q.ring_hop_latency >= 0, name + "ring_hop_latency must be >= 0");
        need(q.tree_hop_latency >= 0, name + "tree_hop_latency must be >= 0");
        need(q.net_ring_hop_latency >= 0, name + "net_ring_hop_latency must be >= 0");
        need(q.net_tree_hop_latency >= 0, name + "net_tree_hop_latency must be >= 0");
        need(q.channel_bandwidth >= 0, name + "channel_bandwidth must be >= 0 (0: no limit)");
        need(q.tree_channel_bandwidth >= 0,
             name + "tree_channel_bandwidth must be >= 0 (0: no limit)");
        need(q.chunk >= 128, name + "chunk must be at least 128 B");
        need(q.tree_chunk >= 128, name + "tree_chunk must be at least 128 B");
        need(q.ring_slices >= 1 && q.ring_slices <= 8, name + "ring_slices must be in 1..8");
        need(q.threads >= 32 && q.threads % 32 == 0, name + "threads must be a multiple of 32");
    }
}

Protocol parse_protocol(const std::string& s) {
    if (s == "simple") return Protocol::Simple;
    if (s == "ll") return Protocol::LL;
    if (s == "ll128") return Protocol::LL128;
    throw std::invalid_argument("'" + s + "' is not a protocol; expected simple, ll or ll128");
}

std::string to_string(Protocol p) {
    switch (p) {
        case Protocol::Simple: return "simple";
        case Protocol::LL: return "ll";
        case Protocol::LL128: return "ll128";
    }
    return "?";
}

uint32_t channels_for(double bytes,
                      uint32_t max_channels,
                      const ProtocolParams& p,
                      uint32_t ring_ranks) {
    const double threshold = double(p.thread_threshold) * (ring_ranks > 0 ? ring_ranks : 1);
    uint32_t nc = max_channels;
    while (nc > 1 && bytes < double(nc) * p.threads * threshold)
        --nc;
    return nc;
}

double nvls_chunk_for(double bytes, uint32_t channels, uint32_t heads, double max_chunk) {
    const double ops = double(channels) * heads;
    double chunk = max_chunk;
    if (bytes < 64 * ops * chunk && chunk > 65536) chunk = 65536;
    if (bytes < 8 * ops * chunk && chunk > 32768) chunk = 32768;
    if (bytes < 2 * ops * chunk && chunk > 16384) chunk = 16384;
    return chunk;
}

}  // namespace sim::net
