// SPDX-License-Identifier: MIT
#include "models/net/core/p2p.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace sim::net {

namespace {

constexpr uint32_t kMaxChannels = 32;     // NCCL's MAXCHANNELS
constexpr uint32_t kSendsPerWork = 8;     // NCCL_MAX_WORK_ELEMENTS_P2P / 2
constexpr uint32_t kChunksPerPiece = 32;  // a piece on one node grows to 32 steps at most

uint32_t next_pow2(uint32_t v) {
    uint32_t p = 1;
    while (p < v)
        p <<= 1;
    return p;
}

// calcP2pChunkSize: start from min_channels pieces (none under min_size) and double them, up to
// max_channels, while a piece would exceed max_size; pieces are whole multiples of min_size.
double piece_size(
    double bytes, uint32_t min_channels, uint32_t max_channels, double min_size, double max_size) {
    double size = std::max(min_size, std::ceil(bytes / min_channels));
    uint32_t channels = min_channels;
    while (size > max_size && channels <= max_channels / 2) {
        channels *= 2;
        size = std::ceil(bytes / channels);
    }
    return std::ceil(size / min_size) * min_size;
}

}  // namespace

P2pPlan p2p_plan(double bytes_per_peer,
                 uint32_t ranks,
                 uint32_t nodes,
                 uint32_t collective_channels,
                 bool ll_enabled,
                 const P2pParams& p) {
    if (ranks < 2) throw std::invalid_argument("sends need two ranks or more");
    if (!(bytes_per_peer > 0)) throw std::invalid_argument("a send must carry bytes");
    const uint32_t raw = std::min(collective_channels, kMaxChannels);
    const uint32_t p2p_channels = next_pow2(raw);
    const uint32_t path =
        nodes > 1 ? std::min(p.path_channels, p.net_channels_per_peer) : p.path_channels;
    const uint32_t per_peer = next_pow2(std::min(raw, path));
    uint32_t min_channels = per_peer, max_channels = per_peer;
    if (nodes == 1) {
        while (min_channels * ranks > p2p_channels && min_channels > 1)
            min_channels /= 2;
        while (max_channels * ranks > 4 * p2p_channels && max_channels > 1)
            max_channels /= 2;
    }
    const double step = nodes > 1 ? p.net_chunk : p.chunk;
    const double max_size = nodes > 1 ? step : step * kChunksPerPiece;
    const double largest =
        piece_size(bytes_per_peer, min_channels, max_channels, step / 8, max_size);
    P2pPlan plan;
    plan.pieces = static_cast<uint32_t>(std::max(1.0, std::ceil(bytes_per_peer / largest)));
    plan.piece = std::min(bytes_per_peer, largest);
    plan.protocol = ll_enabled && plan.piece <= p.ll_threshold ? Protocol::LL : Protocol::Simple;
    // Every rank's pieces, its copy to itself among them, spread over the channels (NCCL
    // mirrors each peer's base channel across the channel space, ncclChannelCompute).
    const uint64_t sends = uint64_t{ranks} * plan.pieces;
    plan.channels = static_cast<uint32_t>(std::min<uint64_t>(p2p_channels, sends));
    const uint64_t per_channel = (sends + plan.channels - 1) / plan.channels;
    plan.rounds = static_cast<uint32_t>((per_channel + kSendsPerWork - 1) / kSendsPerWork);
    plan.send_channels =
        static_cast<uint32_t>(std::min<uint64_t>(p2p_channels, uint64_t{ranks - 1} * plan.pieces));
    return plan;
}

}  // namespace sim::net
