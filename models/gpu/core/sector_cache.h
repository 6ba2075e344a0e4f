// SPDX-License-Identifier: MIT
// A set-associative cache of 128-byte lines with 32-byte sectors (NVIDIA's L1 and L2
// organisation): each way holds a tag, a valid and a dirty bit per sector, and an LRU stamp.
// Sectors are filled and written one at a time, so a line may be partly present. Pure C++.
#pragma once

#include <cstdint>
#include <memory>

namespace sim::gpu {

class SectorCache {
  public:
    /// bytes / (128 × ways) sets, rounded down to at least one; at most 64 ways. LRU stamps
    /// are renumbered by rank within each set when they reach stamp_limit (tests lower it).
    SectorCache(uint64_t bytes, uint32_t ways, uint64_t stamp_limit = 0xFFFFFFFFULL);

    struct Victim {
        uint64_t line = 0;  ///< line address (bytes) of the evicted line
        uint8_t dirty = 0;  ///< its dirty sectors, to be written back
    };

    /// Valid sectors of line among `sectors` (0 when absent); a hit refreshes LRU.
    uint8_t lookup(uint64_t line, uint8_t sectors);
    /// Makes room for line if absent (evicting the least recently used way) and marks
    /// `sectors` valid (and dirty when dirty). An evicted line with dirty sectors is reported
    /// in victim (victim.dirty is 0 otherwise).
    void fill(uint64_t line, uint8_t sectors, bool dirty, Victim& victim);
    /// Drops line (a write-through L1 invalidates on store).
    void invalidate(uint64_t line);
    /// Takes `lines` fills of lines nobody will ask for again (the traffic of a stretch of
    /// time not simulated): spread evenly over the sets, each fill takes a free way or the
    /// least recently used one and becomes the most recent. Returns the dirty sectors evicted
    /// (the caller accounts for their write-back).
    uint64_t fill_unused(uint64_t lines);
    uint64_t sets() const { return sets_; }

  private:
    static constexpr uint64_t kUnusedLine = 1ULL << 63;
    static constexpr uint64_t kNoLine = ~0ULL;  ///< the tag of a free way
    // A set is `ways` tags followed by `ways` words of way state, so that a tag search reads
    // only the tags (two host cache lines for 16 ways) and the whole set is one aligned block.
    // Way state: LRU stamp in the upper 32 bits (0 for a free way, so the least recently used
    // way is the one with the smallest word), dirty sectors in bits 8-15, valid in bits 0-7.
    static uint64_t state_of(uint64_t stamp, uint8_t dirty, uint8_t valid) {
        return stamp << 32 | uint64_t{dirty} << 8 | valid;
    }
    static uint8_t valid_of(uint64_t state) { return static_cast<uint8_t>(state); }
    static uint8_t dirty_of(uint64_t state) { return static_cast<uint8_t>(state >> 8); }

    uint64_t* set_of(uint64_t line);
    /// The way of line in set (ways_ when absent).
    uint32_t find(const uint64_t* set, uint64_t line) const;
    /// The next LRU stamp; renumbers each set's stamps by rank before they overflow 32 bits.
    uint64_t next_stamp();

    uint64_t sets_;
    uint32_t ways_;
    uint64_t stamp_limit_;
    uint64_t clock_ = 0;
    struct FreeAligned {
        void operator()(uint64_t* p) const;
    };
    std::unique_ptr<uint64_t[], FreeAligned> store_;  ///< sets_ × 2 × ways_ words
};

}  // namespace sim::gpu
