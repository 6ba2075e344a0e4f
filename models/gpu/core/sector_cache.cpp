// SPDX-License-Identifier: MIT
#include "models/gpu/core/sector_cache.h"

#include <algorithm>
#include <cstdint>
#include <numeric>

#include "sim/core/prefetch.h"

namespace sim::gpu {

SectorCache::SectorCache(uint64_t bytes, uint32_t ways)
    : sets_(std::max<uint64_t>(1, bytes / (128ULL * std::max(1u, ways)))),
      ways_(std::max(1u, ways)),
      stride_((Set::clock_offset(ways_) + sizeof(uint16_t) + 63) / 64 * 64) {
    storage_.assign((sets_ * stride_ + 64) / sizeof(uint64_t), 0);
    const auto address = reinterpret_cast<uintptr_t>(storage_.data());
    base_ = reinterpret_cast<unsigned char*>(storage_.data()) + (64 - address % 64) % 64;
    for (uint64_t i = 0; i < sets_; ++i)
        std::fill_n(set_at(i).tags(), ways_, kFree);
}

SectorCache::Set SectorCache::set_at(uint64_t index) const {
    return {base_ + index * stride_, ways_};
}

SectorCache::Set SectorCache::set_of(uint64_t line) const {
    // Hash the line number so power-of-two strides spread over the sets.
    const uint64_t n = line >> 7;
    return set_at((n ^ (n >> 13) ^ (n >> 23)) % sets_);
}

size_t SectorCache::find(const Set& s, uint64_t line) {
    const uint64_t* tags = s.tags();
    for (size_t w = 0; w < s.ways; ++w) {
        if (tags[w] == line) return w;
    }
    return kMissing;
}

size_t SectorCache::victim_way(const Set& s) {
    const uint64_t* tags = s.tags();
    const uint16_t* stamps = s.stamps();
    size_t victim = 0;
    for (size_t w = 0; w < s.ways; ++w) {
        if (tags[w] == kFree) return w;
        if (stamps[w] < stamps[victim]) victim = w;
    }
    return victim;
}

uint16_t SectorCache::next_stamp(const Set& s) {
    uint16_t& clock = s.clock();
    if (clock == UINT16_MAX) {
        uint16_t* stamps = s.stamps();
        std::vector<size_t> order(s.ways);
        std::iota(order.begin(), order.end(), size_t{0});
        std::stable_sort(order.begin(), order.end(),
                         [stamps](size_t a, size_t b) { return stamps[a] < stamps[b]; });
        uint16_t rank = 0;
        for (size_t w : order) {
            if (stamps[w] != 0) stamps[w] = ++rank;
        }
        clock = rank;
    }
    return ++clock;
}

void SectorCache::set_clock(uint16_t clock) {
    for (uint64_t i = 0; i < sets_; ++i)
        set_at(i).clock() = clock;
}

void SectorCache::prefetch(uint64_t line) const {
    prefetch_bytes(set_of(line).at, stride_);
}

uint8_t SectorCache::lookup(uint64_t line, uint8_t sectors) {
    const Set s = set_of(line);
    const size_t w = find(s, line);
    if (w == kMissing) return 0;
    s.stamps()[w] = next_stamp(s);
    return valid_of(s.bits()[w]) & sectors;
}

void SectorCache::fill(uint64_t line, uint8_t sectors, bool dirty, Victim& victim) {
    victim = {};
    const Set s = set_of(line);
    size_t w = find(s, line);
    if (w == kMissing) {
        w = victim_way(s);
        uint64_t& tag = s.tags()[w];
        const uint8_t evicted = dirty_of(s.bits()[w]);
        if (tag != kFree && evicted) victim = {tag, evicted};
        tag = line;
        s.bits()[w] = 0;
    }
    uint8_t& bits = s.bits()[w];
    s.stamps()[w] = next_stamp(s);
    bits |= sectors & 0xF;
    if (dirty) bits |= static_cast<uint8_t>((sectors & 0xF) << 4);
}

SectorCache::Victim SectorCache::victim_for(uint64_t line) const {
    const Set s = set_of(line);
    if (find(s, line) != kMissing) return {};
    const size_t w = victim_way(s);
    const uint64_t tag = s.tags()[w];
    const uint8_t evicted = dirty_of(s.bits()[w]);
    return tag != kFree && evicted ? Victim{tag, evicted} : Victim{};
}

void SectorCache::invalidate(uint64_t line) {
    const Set s = set_of(line);
    const size_t w = find(s, line);
    if (w == kMissing) return;
    s.tags()[w] = kFree;
    s.stamps()[w] = 0;
    s.bits()[w] = 0;
}

uint64_t SectorCache::fill_unused(uint64_t lines) {
    // Spread over the sets as hashed addresses would be; a set taking `ways` fills or more
    // ends up holding only them.
    const uint64_t per_set = lines / sets_, extra = lines % sets_;
    uint64_t dirty = 0;
    // The ways in the order victim_way() would pick them: the free ones by index, then the
    // others from the least recently used (ties by index). A way just filled is the most
    // recent of its set, so the fills take the ways in this order, each once: one sort per
    // set instead of a scan of the set per fill.
    std::vector<uint64_t> order(ways_);
    for (uint64_t set = 0; set < sets_; ++set) {
        const Set s = set_at(set);
        const uint64_t fills = std::min<uint64_t>(per_set + (set < extra ? 1 : 0), ways_);
        if (fills == 0) continue;
        for (uint32_t w = 0; w < ways_; ++w) {
            const uint64_t age = s.tags()[w] == kFree ? 0 : uint64_t{s.stamps()[w]} + 1;
            order[w] = age << 32 | w;
        }
        std::sort(order.begin(), order.end());
        for (uint64_t f = 0; f < fills; ++f) {
            const auto w = static_cast<size_t>(order[f] & 0xFFFFFFFFu);
            if (s.tags()[w] != kFree)
                dirty += static_cast<uint64_t>(__builtin_popcount(dirty_of(s.bits()[w])));
            // A line no address maps to: real lines are below 2^63.
            s.tags()[w] = kUnusedLine;
            s.stamps()[w] = next_stamp(s);
            s.bits()[w] = 0xF;
        }
    }
    return dirty;
}

}  // namespace sim::gpu
