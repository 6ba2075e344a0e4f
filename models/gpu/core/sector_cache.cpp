// SPDX-License-Identifier: MIT
#include "models/gpu/core/sector_cache.h"

#include <algorithm>
#include <new>
#include <numeric>
#include <vector>

#include "sim/core/error.h"

namespace sim::gpu {

namespace {
constexpr std::align_val_t kHostLine{64};
}

void SectorCache::FreeAligned::operator()(uint64_t* p) const {
    ::operator delete[](p, kHostLine);
}

SectorCache::SectorCache(uint64_t bytes, uint32_t ways, uint64_t stamp_limit)
    : sets_(std::max<uint64_t>(1, bytes / (128ULL * std::max(1u, ways)))),
      ways_(std::max(1u, ways)),
      stamp_limit_(std::min<uint64_t>(stamp_limit, 0xFFFFFFFFULL)) {
    SIM_ASSERT(ways_ <= 64, "a cache of more than 64 ways");
    SIM_ASSERT(stamp_limit_ > 2 * ways_, "an LRU stamp limit below twice the ways");
    const size_t words = sets_ * 2 * ways_;
    store_.reset(static_cast<uint64_t*>(::operator new[](words * sizeof(uint64_t), kHostLine)));
    for (uint64_t s = 0; s < sets_; ++s) {
        uint64_t* set = &store_[s * 2 * ways_];
        std::fill(set, set + ways_, kNoLine);
        std::fill(set + ways_, set + 2 * ways_, 0);
    }
}

uint64_t* SectorCache::set_of(uint64_t line) {
    // Hash the line number so power-of-two strides spread over the sets.
    const uint64_t n = line >> 7;
    return &store_[(n ^ (n >> 13) ^ (n >> 23)) % sets_ * 2 * ways_];
}

uint32_t SectorCache::find(const uint64_t* set, uint64_t line) const {
    for (uint32_t w = 0; w < ways_; ++w) {
        if (set[w] == line) return w;
    }
    return ways_;
}

uint64_t SectorCache::next_stamp() {
    if (clock_ >= stamp_limit_) {
        // Only the order of stamps within a set matters: replace them by their ranks.
        std::vector<uint32_t> order(ways_);
        for (uint64_t s = 0; s < sets_; ++s) {
            uint64_t* state = &store_[s * 2 * ways_ + ways_];
            std::iota(order.begin(), order.end(), 0u);
            std::sort(order.begin(), order.end(),
                      [&](uint32_t a, uint32_t b) { return state[a] < state[b]; });
            uint64_t rank = 0;
            for (uint32_t w : order) {
                if (state[w] >> 32)
                    state[w] = state_of(++rank, dirty_of(state[w]), valid_of(state[w]));
            }
        }
        clock_ = ways_;
    }
    return ++clock_;
}

uint8_t SectorCache::lookup(uint64_t line, uint8_t sectors) {
    uint64_t* set = set_of(line);
    const uint32_t w = find(set, line);
    if (w == ways_) return 0;
    uint64_t& state = set[ways_ + w];
    state = state_of(next_stamp(), dirty_of(state), valid_of(state));
    return valid_of(state) & sectors;
}

void SectorCache::fill(uint64_t line, uint8_t sectors, bool dirty, Victim& victim) {
    victim = {};
    uint64_t* set = set_of(line);
    uint64_t* state = set + ways_;
    uint32_t w = find(set, line);
    if (w == ways_) {
        // A free way (state 0) if any, the first one; else the least recently used.
        w = 0;
        for (uint32_t i = 0; i < ways_; ++i) {
            if (state[i] < state[w]) w = i;
            if (state[i] == 0) {
                w = i;
                break;
            }
        }
        if (set[w] != kNoLine && dirty_of(state[w])) victim = {set[w], dirty_of(state[w])};
        set[w] = line;
        state[w] = 0;
    }
    const uint8_t valid = valid_of(state[w]) | sectors;
    const uint8_t dirt = dirty_of(state[w]) | (dirty ? sectors : 0);
    state[w] = state_of(next_stamp(), dirt, valid);
}

void SectorCache::invalidate(uint64_t line) {
    uint64_t* set = set_of(line);
    const uint32_t w = find(set, line);
    if (w == ways_) return;
    set[w] = kNoLine;
    set[ways_ + w] = 0;
}

uint64_t SectorCache::fill_unused(uint64_t lines) {
    // Spread over the sets as hashed addresses would be; a set taking `ways` fills or more
    // ends up holding only them.
    const uint64_t per_set = lines / sets_, extra = lines % sets_;
    uint64_t dirty = 0;
    for (uint64_t s = 0; s < sets_; ++s) {
        const uint64_t fills = std::min<uint64_t>(per_set + (s < extra ? 1 : 0), ways_);
        for (uint64_t f = 0; f < fills; ++f) {
            uint64_t* set = &store_[s * 2 * ways_];  // next_stamp may renumber, never move
            uint64_t* state = set + ways_;
            uint32_t w = 0;
            for (uint32_t i = 0; i < ways_; ++i) {
                if (state[i] == 0) {
                    w = i;
                    break;
                }
                if (state[i] < state[w]) w = i;
            }
            if (set[w] != kNoLine)
                dirty += static_cast<uint64_t>(__builtin_popcount(dirty_of(state[w])));
            // A line no address maps to: real lines are below 2^63.
            set[w] = kUnusedLine;
            state[w] = state_of(next_stamp(), 0, 0xF);
        }
    }
    return dirty;
}

}  // namespace sim::gpu
