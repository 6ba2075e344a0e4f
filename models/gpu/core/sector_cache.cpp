// SPDX-License-Identifier: MIT
#include "models/gpu/core/sector_cache.h"

#include <algorithm>

namespace sim::gpu {

SectorCache::SectorCache(uint64_t bytes, uint32_t ways)
    : sets_(std::max<uint64_t>(1, bytes / (128ULL * std::max(1u, ways)))),
      ways_(std::max(1u, ways)),
      ways_store_(sets_ * ways_) {}

uint64_t SectorCache::set_of(uint64_t line) const {
    // Hash the line number so power-of-two strides spread over the sets.
    const uint64_t n = line >> 7;
    return (n ^ (n >> 13) ^ (n >> 23)) % sets_;
}

SectorCache::Way* SectorCache::find(uint64_t line) {
    Way* set = &ways_store_[set_of(line) * ways_];
    for (uint32_t w = 0; w < ways_; ++w) {
        if (set[w].tag == line) return &set[w];
    }
    return nullptr;
}

uint8_t SectorCache::lookup(uint64_t line, uint8_t sectors) {
    Way* w = find(line);
    if (!w) return 0;
    w->stamp = ++clock_;
    return w->valid & sectors;
}

void SectorCache::fill(uint64_t line, uint8_t sectors, bool dirty, Victim& victim) {
    victim = {};
    Way* w = find(line);
    if (!w) {
        Way* set = &ways_store_[set_of(line) * ways_];
        for (uint32_t i = 0; i < ways_; ++i) {
            Way& c = set[i];
            if (!w || c.tag == ~0ULL || (w->tag != ~0ULL && c.stamp < w->stamp)) w = &c;
            if (c.tag == ~0ULL) break;
        }
        if (w->tag != ~0ULL && w->dirty) victim = {w->tag, w->dirty};
        *w = Way{line, 0, 0, 0};
    }
    w->stamp = ++clock_;
    w->valid |= sectors;
    if (dirty) w->dirty |= sectors;
}

void SectorCache::invalidate(uint64_t line) {
    if (Way* w = find(line)) *w = Way{};
}

}  // namespace sim::gpu
