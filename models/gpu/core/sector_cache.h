// SPDX-License-Identifier: MIT
// A set-associative cache of 128-byte lines with 32-byte sectors (NVIDIA's L1 and L2
// organisation): each way holds a tag, a valid and a dirty bit per sector, and an LRU stamp.
// Sectors are filled and written one at a time, so a line may be partly present. Pure C++.
//
// Each set is one block of host memory, aligned to a host cache line: its ways' tags, then
// their 16-bit LRU stamps, their sector bits (valid in the low nibble, dirty in the high one)
// and the set's own LRU clock. The L1s and L2 slices of a GPU hold megabytes of these and do
// not stay in the host's caches, so every access of a streaming kernel misses: a 4-way L1 set
// is one host cache line, a lookup of a 16-way L2 set reads two and a fill three.
#pragma once

#include <cstddef>
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
    /// The dirty line a fill of line would evict now (victim.dirty 0: none; no state changes).
    Victim victim_for(uint64_t line) const;
    /// Asks the host to bring line's set into its caches (a hint: no state changes). A caller
    /// that knows a batch of lines it is about to look up or fill hints them all first, so that
    /// the host fetches them together instead of stalling on one set after another.
    void prefetch(uint64_t line) const;
    /// Drops line (a write-through L1 invalidates on store).
    void invalidate(uint64_t line);
    /// Takes `lines` fills of lines nobody will ask for again (the traffic of a stretch of
    /// time not simulated): spread evenly over the sets, each fill takes a free way or the
    /// least recently used one and becomes the most recent. Returns the dirty sectors evicted
    /// (the caller accounts for their write-back).
    uint64_t fill_unused(uint64_t lines);
    uint64_t sets() const { return sets_; }
    /// Tests only: sets every set's LRU clock, so that a test can run it up to its wrap-around.
    void set_clock(uint16_t clock);

  private:
    static constexpr uint64_t kFree = ~0ULL;             ///< tag of a way holding no line
    static constexpr uint64_t kUnusedLine = 1ULL << 63;  ///< no address maps there
    static constexpr size_t kMissing = ~size_t{0};

    /// One set's block (see the file comment); way w's fields are tags()[w], stamps()[w]
    /// (0: never used since freed; the most recent use has the largest) and bits()[w].
    struct Set {
        unsigned char* at;
        uint32_t ways;
        uint64_t* tags() const { return reinterpret_cast<uint64_t*>(at); }
        uint16_t* stamps() const { return reinterpret_cast<uint16_t*>(at + 8 * ways); }
        uint8_t* bits() const { return at + 10 * ways; }
        uint16_t& clock() const { return *reinterpret_cast<uint16_t*>(at + clock_offset(ways)); }
        static size_t clock_offset(uint32_t ways) { return (11 * size_t{ways} + 1) & ~size_t{1}; }
    };
    static uint8_t valid_of(uint8_t bits) { return bits & 0xF; }
    static uint8_t dirty_of(uint8_t bits) { return bits >> 4; }

    Set set_of(uint64_t line) const;
    Set set_at(uint64_t index) const;
    /// Index of line's way, or kMissing.
    static size_t find(const Set& s, uint64_t line);
    /// The way a new line takes: the first free one, else the least recently used.
    static size_t victim_way(const Set& s);
    /// The set's next LRU stamp; before its 16-bit clock wraps, renumbers the set's stamps
    /// 1, 2, ... in their order (only their order within the set matters).
    static uint16_t next_stamp(const Set& s);

    uint64_t sets_;
    uint32_t ways_;
    size_t stride_;                  ///< bytes per set block, a multiple of 64
    std::vector<uint64_t> storage_;  ///< the blocks, from the first 64-byte boundary in it
    unsigned char* base_ = nullptr;
};

}  // namespace sim::gpu
