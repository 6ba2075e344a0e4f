// SPDX-License-Identifier: MIT
// A set-associative cache of 128-byte lines with 32-byte sectors (NVIDIA's L1 and L2
// organisation): each way holds a tag, a valid and a dirty bit per sector, and an LRU stamp.
// Sectors are filled and written one at a time, so a line may be partly present. Pure C++.
//
// The tags of a set lie together, apart from the rest, in cache-line-aligned blocks: a lookup
// that misses (every lookup of a streaming kernel) reads only them, two host cache lines for
// a 16-way set instead of the six that whole way records took. The L1s and L2 slices of a
// GPU hold megabytes of these and do not stay in the host's caches.
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
    /// Tests only: sets the LRU clock, so that a test can run it up to its wrap-around.
    void set_clock(uint32_t clock) { clock_ = clock; }

  private:
    static constexpr uint64_t kFree = ~0ULL;             ///< tag of a way holding no line
    static constexpr uint64_t kUnusedLine = 1ULL << 63;  ///< no address maps there
    struct Meta {
        uint32_t stamp = 0;  ///< LRU: the most recent use has the largest
        uint8_t valid = 0;
        uint8_t dirty = 0;
    };
    /// Index of the first way of line's set.
    size_t set_start(uint64_t line) const;
    /// Index of line's way, or kMissing.
    size_t find(size_t first, uint64_t line) const;
    /// The way a new line takes: the first free one, else the least recently used.
    size_t victim_way(size_t first) const;
    uint32_t next_stamp();
    /// Before the 32-bit clock wraps: renumbers each set's stamps 1, 2, ... in their order.
    void renumber_stamps();
    uint64_t& tag(size_t way) { return tags_[tag_base_ + way]; }
    uint64_t tag(size_t way) const { return tags_[tag_base_ + way]; }
    Meta& meta(size_t way) { return meta_[meta_base_ + way]; }
    const Meta& meta(size_t way) const { return meta_[meta_base_ + way]; }

    static constexpr size_t kMissing = ~size_t{0};
    uint64_t sets_;
    uint32_t ways_;
    uint32_t clock_ = 0;
    std::vector<uint64_t> tags_;  ///< per set its ways' tags; from tag_base_, 64-byte aligned
    std::vector<Meta> meta_;      ///< the same for the rest of each way, from meta_base_
    size_t tag_base_ = 0, meta_base_ = 0;
};

}  // namespace sim::gpu
