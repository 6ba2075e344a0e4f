// SPDX-License-Identifier: MIT
#include "models/gpu/core/sector_cache.h"

#include <algorithm>

namespace sim::gpu {

SectorCache::SectorCache(uint64_t bytes, uint32_t ways)
    : sets_(std::max<uint64_t>(1, bytes / (128ULL * std::max(1u, ways)))),
      ways_(std::max(1u, ways)),
      tags_(sets_ * ways_, kEmpty),
      state_(sets_ * ways_) {}

uint64_t SectorCache::set_of(uint64_t line) const {
    // Hash the line number so power-of-two strides spread over the sets.
    const uint64_t n = line >> 7;
    return (n ^ (n >> 13) ^ (n >> 23)) % sets_;
}

size_t SectorCache::find(uint64_t line) const {
    const size_t first = set_of(line) * ways_;
    const uint64_t* set = &tags_[first];
    for (uint32_t w = 0; w < ways_; ++w) {
        if (set[w] == line) return first + w;
    }
    return kAbsent;
}

uint8_t SectorCache::lookup(uint64_t line, uint8_t sectors) {
    const size_t w = find(line);
    if (w == kAbsent) return 0;
    state_[w].stamp = ++clock_;
    return state_[w].valid & sectors;
}

void SectorCache::fill(uint64_t line, uint8_t sectors, bool dirty, Victim& victim) {
    victim = {};
    size_t w = find(line);
    if (w == kAbsent) {
        // The first empty way, else the least recently used one.
        const size_t first = set_of(line) * ways_;
        w = first;
        for (size_t i = first; i < first + ways_; ++i) {
            if (tags_[i] == kEmpty) {
                w = i;
                break;
            }
            if (state_[i].stamp < state_[w].stamp) w = i;
        }
        if (tags_[w] != kEmpty && state_[w].dirty) victim = {tags_[w], state_[w].dirty};
        tags_[w] = line;
        state_[w] = WayState{};
    }
    state_[w].stamp = ++clock_;
    state_[w].valid |= sectors;
    if (dirty) state_[w].dirty |= sectors;
}

void SectorCache::invalidate(uint64_t line) {
    const size_t w = find(line);
    if (w == kAbsent) return;
    tags_[w] = kEmpty;
    state_[w] = WayState{};
}

}  // namespace sim::gpu
