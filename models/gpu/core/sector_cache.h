// SPDX-License-Identifier: MIT
// A set-associative cache of 128-byte lines with 32-byte sectors (NVIDIA's L1 and L2
// organisation): each way holds a tag, a valid and a dirty bit per sector, and an LRU stamp.
// Sectors are filled and written one at a time, so a line may be partly present. Pure C++.
#pragma once

#include <cstdint>
#include <vector>

namespace sim::gpu {

class SectorCache {
  public:
    /// bytes / (128 × ways) sets, rounded down to at least one.
    SectorCache(uint64_t bytes, uint32_t ways);

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
    struct Way {
        uint64_t tag = ~0ULL;
        uint64_t stamp = 0;
        uint8_t valid = 0;
        uint8_t dirty = 0;
    };
    Way* find(uint64_t line);
    uint64_t set_of(uint64_t line) const;

    uint64_t sets_;
    uint32_t ways_;
    uint64_t clock_ = 0;
    std::vector<Way> ways_store_;
};

}  // namespace sim::gpu
