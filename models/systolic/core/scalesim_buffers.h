// SPDX-License-Identifier: MIT
// The three scratchpad buffers of SCALE-Sim v2's double_buffered_scratchpad
// (docs/references.md [scalesim]; memory/read_buffer_estimate_bw.py, read_buffer.py and
// write_buffer.py at commit 22f88b1), replayed rule for rule so that DRAM access counts,
// stalls and the first and last DRAM trace cycles come out as SCALE-Sim reports them. Only
// what the reports need is kept: counts and cycles, not the trace contents. Each buffer is
// split in an active half and a prefetch (or drain) half; DRAM answers reads one cycle after
// they are issued and takes writes at once (read_port, write_port).
//  - EstimateReadBuffer (CALC mode): never stalls; groups first-seen addresses into sets of
//    1% of the buffer, and when 50 sets (the active half) are complete, fetches them over the
//    cycles since the previous fetch, at the bandwidth that takes.
//  - PrefetchReadBuffer (USER mode): the operand's prefetch order is cut into lines of 1% of
//    the buffer; the active window holds the first lines; a read that misses the window
//    slides it by the prefetch half and waits until that fetch, at `bandwidth` words per
//    cycle, has returned.
//  - WriteBuffer: outputs fill lines of `bandwidth` words; once more than the drain half is
//    occupied it drains (a half's worth of lines, one line per cycle); a write that finds the
//    buffer full while a drain runs waits for it.
// Where SCALE-Sim itself would fail (a numpy shape error, a division by zero), a ConfigError
// says so.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

namespace sim::systolic {

/// The first and last cycle of a buffer's DRAM trace and its DRAM words.
struct DramActivity {
    bool any = false;    ///< at least one trace row
    int64_t first = 0;   ///< cycle of the first trace row
    int64_t last = 0;    ///< cycle of the last trace row
    uint64_t words = 0;  ///< DRAM accesses as SCALE-Sim counts them
};

class EstimateReadBuffer {
  public:
    /// total_words: the whole buffer; address_space: addresses are in [0, address_space).
    EstimateReadBuffer(uint64_t total_words, uint64_t address_space);
    /// A demand line at `cycle` with at least one address (before its addresses).
    void line_with_requests(int64_t cycle);
    void request(int64_t cycle, int64_t address);
    /// After the last line: fetches what is left.
    void finish();
    const DramActivity& dram() const { return dram_; }

  private:
    void prefetch(uint64_t first_set, uint64_t last_set, uint64_t bandwidth);
    uint64_t items_per_set_;
    static constexpr uint64_t kActiveSets = 50, kPrefetchSets = 50, kDefaultBandwidth = 10;
    std::vector<int64_t> last_set_;    // per address: latest set it joined, -1 if none
    std::vector<uint64_t> set_sizes_;  // completed sets (the last may be partial at finish)
    int64_t current_set_ = 0;
    uint64_t current_size_ = 0;
    int64_t read_start_ = 0, read_end_ = kActiveSets - 1;
    int64_t prefetch_start_ = -1, prefetch_end_ = -1;
    int64_t last_start_ = -2, last_end_ = -1;
    int64_t first_request_ = 0;
    bool first_seen_ = false, active_done_ = false;
    DramActivity dram_;
};

class PrefetchReadBuffer {
  public:
    /// prefetch_order: the operand's addresses in prefetch order, -1 for nulls (its length is
    /// what SCALE-Sim's fetch matrix holds); bandwidth: words per cycle from DRAM.
    PrefetchReadBuffer(uint64_t total_words,
                       uint64_t bandwidth,
                       uint64_t address_space,
                       const std::vector<int64_t>& prefetch_order);
    /// Serves one demand line issued at `cycle`; returns the cycle it is served.
    int64_t serve_line(int64_t cycle, const std::vector<int64_t>& addresses);
    const DramActivity& dram() const { return dram_; }

  private:
    bool hit(int64_t address) const;
    void fill_active(int64_t start_cycle);
    void next_prefetch();
    void set_window(uint64_t start);
    uint64_t active_words_, prefetch_words_, bandwidth_, fetch_rows_;
    // Per address, the lines holding it, ascending: lines_of_[first_[a], first_[a + 1]).
    std::vector<uint64_t> first_;
    std::vector<uint64_t> lines_of_;
    uint64_t lines_ = 0, active_lines_ = 0, prefetch_lines_ = 0;
    uint64_t window_start_ = 0;
    bool filled_ = false;
    int64_t last_prefetch_cycle_ = -1;
    uint64_t next_line_ = 0, next_col_ = 0;
    DramActivity dram_;
};

class WriteBuffer {
  public:
    WriteBuffer(uint64_t total_words, uint64_t bandwidth);
    /// Stores `words` outputs of one demand line issued at `cycle`; returns when it is done.
    int64_t serve_line(int64_t cycle, uint64_t words);
    /// After the last line, served at `cycle`: drains everything.
    void finish(int64_t cycle);
    const DramActivity& dram() const { return dram_; }

  private:
    int64_t drain(int64_t start_cycle);
    void close_line();
    uint64_t total_, drain_size_, bandwidth_;
    int64_t free_;
    uint64_t line_fill_ = 0;
    std::deque<uint64_t> lines_;  // valid words of each line not drained yet
    bool any_line_ = false;
    int64_t drain_end_ = 0;
    DramActivity dram_;
};

}  // namespace sim::systolic
