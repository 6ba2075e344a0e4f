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

uint64_t SectorCache::fill_unused(uint64_t lines) {
    // Spread over the sets as hashed addresses would be; a set taking `ways` fills or more
    // ends up holding only them.
    const uint64_t per_set = lines / sets_, extra = lines % sets_;
    uint64_t dirty = 0;
    for (uint64_t set = 0; set < sets_; ++set) {
        const uint64_t fills = std::min<uint64_t>(per_set + (set < extra ? 1 : 0), ways_);
        Way* ways = &ways_store_[set * ways_];
        for (uint64_t f = 0; f < fills; ++f) {
            Way* victim = &ways[0];
            for (uint32_t i = 0; i < ways_; ++i) {
                Way& c = ways[i];
                if (c.tag == ~0ULL) {
                    victim = &c;
                    break;
                }
                if (c.stamp < victim->stamp) victim = &c;
            }
            if (victim->tag != ~0ULL)
                dirty += static_cast<uint64_t>(__builtin_popcount(victim->dirty));
            // A line no address maps to: real lines are below 2^63.
            *victim = Way{kUnusedLine, ++clock_, 0xF, 0};
        }
    }
    return dirty;
}

}  // namespace sim::gpu
