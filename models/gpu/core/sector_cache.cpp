// SPDX-License-Identifier: MIT
#include "models/gpu/core/sector_cache.h"

#include <algorithm>
#include <cstdint>
#include <limits>

#include "sim/core/prefetch.h"

namespace sim::gpu {

namespace {

/// The first index of v whose element starts a 64-byte block (v has 64 bytes to spare).
template <typename T>
size_t aligned_base(const std::vector<T>& v) {
    const auto address = reinterpret_cast<uintptr_t>(v.data());
    return ((64 - address % 64) % 64) / sizeof(T);
}

}  // namespace

SectorCache::SectorCache(uint64_t bytes, uint32_t ways)
    : sets_(std::max<uint64_t>(1, bytes / (128ULL * std::max(1u, ways)))),
      ways_(std::max(1u, ways)),
      tags_(sets_ * ways_ + 64 / sizeof(uint64_t), kFree),
      meta_(sets_ * ways_ + 64 / sizeof(Meta)),
      tag_base_(aligned_base(tags_)),
      meta_base_(aligned_base(meta_)) {}

size_t SectorCache::set_start(uint64_t line) const {
    // Hash the line number so power-of-two strides spread over the sets.
    const uint64_t n = line >> 7;
    return static_cast<size_t>((n ^ (n >> 13) ^ (n >> 23)) % sets_) * ways_;
}

size_t SectorCache::find(size_t first, uint64_t line) const {
    for (size_t w = first; w < first + ways_; ++w) {
        if (tag(w) == line) return w;
    }
    return kMissing;
}

size_t SectorCache::victim_way(size_t first) const {
    size_t victim = first;
    for (size_t w = first; w < first + ways_; ++w) {
        if (tag(w) == kFree) return w;
        if (meta(w).stamp < meta(victim).stamp) victim = w;
    }
    return victim;
}

void SectorCache::prefetch(uint64_t line) const {
    const size_t first = set_start(line);
    prefetch_bytes(&tags_[tag_base_ + first], ways_ * sizeof(uint64_t));
    prefetch_bytes(&meta_[meta_base_ + first], ways_ * sizeof(Meta));
}

uint32_t SectorCache::next_stamp() {
    if (clock_ == std::numeric_limits<uint32_t>::max()) renumber_stamps();
    return ++clock_;
}

void SectorCache::renumber_stamps() {
    // Only the order of the stamps within a set matters (LRU picks the smallest).
    std::vector<size_t> order(ways_);
    for (size_t first = 0; first < sets_ * ways_; first += ways_) {
        for (size_t w = 0; w < ways_; ++w)
            order[w] = first + w;
        std::stable_sort(order.begin(), order.end(),
                         [this](size_t a, size_t b) { return meta(a).stamp < meta(b).stamp; });
        uint32_t rank = 0;
        for (size_t w : order) {
            if (meta(w).stamp != 0) meta(w).stamp = ++rank;
        }
    }
    clock_ = ways_;
}

uint8_t SectorCache::lookup(uint64_t line, uint8_t sectors) {
    const size_t w = find(set_start(line), line);
    if (w == kMissing) return 0;
    meta(w).stamp = next_stamp();
    return meta(w).valid & sectors;
}

void SectorCache::fill(uint64_t line, uint8_t sectors, bool dirty, Victim& victim) {
    victim = {};
    const size_t first = set_start(line);
    size_t w = find(first, line);
    if (w == kMissing) {
        w = victim_way(first);
        if (tag(w) != kFree && meta(w).dirty) victim = {tag(w), meta(w).dirty};
        tag(w) = line;
        meta(w) = Meta{};
    }
    Meta& m = meta(w);
    m.stamp = next_stamp();
    m.valid |= sectors;
    if (dirty) m.dirty |= sectors;
}

void SectorCache::invalidate(uint64_t line) {
    const size_t w = find(set_start(line), line);
    if (w == kMissing) return;
    tag(w) = kFree;
    meta(w) = Meta{};
}

uint64_t SectorCache::fill_unused(uint64_t lines) {
    // Spread over the sets as hashed addresses would be; a set taking `ways` fills or more
    // ends up holding only them.
    const uint64_t per_set = lines / sets_, extra = lines % sets_;
    uint64_t dirty = 0;
    for (uint64_t set = 0; set < sets_; ++set) {
        const uint64_t fills = std::min<uint64_t>(per_set + (set < extra ? 1 : 0), ways_);
        for (uint64_t f = 0; f < fills; ++f) {
            const size_t w = victim_way(static_cast<size_t>(set) * ways_);
            if (tag(w) != kFree) dirty += static_cast<uint64_t>(__builtin_popcount(meta(w).dirty));
            // A line no address maps to: real lines are below 2^63.
            tag(w) = kUnusedLine;
            meta(w) = Meta{next_stamp(), 0xF, 0};
        }
    }
    return dirty;
}

}  // namespace sim::gpu
