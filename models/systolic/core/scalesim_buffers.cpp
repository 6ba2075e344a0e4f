// SPDX-License-Identifier: MIT
#include "models/systolic/core/scalesim_buffers.h"

#include <algorithm>
#include <string>

#include "sim/core/error.h"

namespace sim::systolic {

namespace {

uint64_t ceil_div(uint64_t a, uint64_t b) {
    return (a + b - 1) / b;
}

// Where SCALE-Sim v2 itself stops with a Python error, so does the replay.
[[noreturn]] void scalesim_fails(const std::string& what) {
    throw ConfigError({}, "layer", "SCALE-Sim v2 itself fails here: " + what);
}

// SCALE-Sim's active half: ceil(words x 0.5).
uint64_t active_half(uint64_t total) {
    return (total + 1) / 2;
}

constexpr int64_t kReadLatency = 1;  // read_port: DRAM answers one cycle later

void record(DramActivity& d, int64_t first, int64_t last) {
    if (!d.any) d.first = first;
    d.any = true;
    d.last = last;
}

}  // namespace

// ----------------------------------------------------------------------------- CALC mode

EstimateReadBuffer::EstimateReadBuffer(uint64_t total_words, uint64_t address_space)
    : items_per_set_(total_words / 100), last_set_(address_space, -1) {
    if (items_per_set_ == 0) scalesim_fails("a read buffer of fewer than 100 words");
}

void EstimateReadBuffer::line_with_requests(int64_t cycle) {
    if (first_seen_) return;
    first_seen_ = true;
    first_request_ = cycle;
}

void EstimateReadBuffer::request(int64_t cycle, int64_t address) {
    int64_t& set = last_set_[size_t(address)];
    // A hit: the address joined a completed set of the current window.
    if (set >= read_start_ && set < current_set_) return;
    if (set == current_set_) return;  // already in the set being filled
    set = current_set_;
    if (++current_size_ < items_per_set_) return;
    set_sizes_.push_back(current_size_);
    current_size_ = 0;
    ++current_set_;
    if (current_set_ != read_end_ + 1) return;
    // The window's sets are complete: fetch them over the cycles since the last fetch (the
    // first time, in the cycles just before the first request, at the default bandwidth).
    if (!active_done_) {
        last_end_ = first_request_ - 1 - kReadLatency;
        last_start_ =
            last_end_ - int64_t(ceil_div(kPrefetchSets * items_per_set_, kDefaultBandwidth)) + 1;
        prefetch(0, kActiveSets - 1, kDefaultBandwidth);
        prefetch_start_ = read_end_ + 1;
        prefetch_end_ = prefetch_start_ + int64_t(kPrefetchSets) - 1;
        active_done_ = true;
    } else {
        const int64_t cycles = last_end_ - last_start_ + 1;
        if (cycles <= 0) scalesim_fails("two read-buffer fetches in one cycle (division by zero)");
        prefetch(uint64_t(prefetch_start_), uint64_t(prefetch_end_),
                 ceil_div(kPrefetchSets * items_per_set_, uint64_t(cycles)));
        prefetch_start_ += kPrefetchSets;
        prefetch_end_ += kPrefetchSets;
    }
    read_start_ += kPrefetchSets;
    read_end_ += kPrefetchSets;
    last_start_ = last_end_ + 1;
    last_end_ = cycle;
}

void EstimateReadBuffer::finish() {
    if (current_size_ > 0) {
        set_sizes_.push_back(current_size_);
    } else {
        --current_set_;
    }
    if (!active_done_) {
        last_end_ = -1 - kReadLatency;
        const uint64_t sets = uint64_t(current_set_ + 1);
        last_start_ = last_end_ - int64_t(ceil_div(sets * items_per_set_, kDefaultBandwidth)) + 1;
        if (sets > 0) prefetch(0, sets - 1, kDefaultBandwidth);
        active_done_ = true;
        return;
    }
    const int64_t sets = current_set_ - prefetch_start_ + 1;
    const int64_t cycles = last_end_ - last_start_ + 1;
    if (cycles <= 0) scalesim_fails("the last read-buffer fetch has no cycles (division by zero)");
    const uint64_t words = uint64_t(std::max<int64_t>(sets, 0)) * items_per_set_;
    const uint64_t bw = ceil_div(words, uint64_t(cycles));
    if (sets > 0) {
        prefetch(uint64_t(prefetch_start_), uint64_t(current_set_), bw);
    } else {
        // Nothing left to fetch, but SCALE-Sim still appends the (empty) trace rows.
        record(dram_, last_start_ + kReadLatency, last_end_ + kReadLatency);
    }
}

void EstimateReadBuffer::prefetch(uint64_t first_set, uint64_t last_set, uint64_t bandwidth) {
    uint64_t words = 0;
    for (uint64_t s = first_set; s <= last_set && s < set_sizes_.size(); ++s)
        words += set_sizes_[s];
    dram_.words += words;
    const int64_t cycles = last_end_ - last_start_ + 1;
    if (cycles < 0 || words > uint64_t(cycles) * bandwidth)
        scalesim_fails("a read-buffer fetch does not fit its cycles (numpy reshape error)");
    if (cycles > 0) record(dram_, last_start_ + kReadLatency, last_end_ + kReadLatency);
}

// ----------------------------------------------------------------------------- USER mode

PrefetchReadBuffer::PrefetchReadBuffer(uint64_t total_words,
                                       uint64_t bandwidth,
                                       uint64_t address_space,
                                       const std::vector<int64_t>& prefetch_order)
    : active_words_(active_half(total_words)),
      prefetch_words_(total_words - active_half(total_words)),
      bandwidth_(bandwidth),
      fetch_rows_(ceil_div(prefetch_order.size(), bandwidth)),
      first_(address_space + 1, 0) {
    SIM_ASSERT(bandwidth >= 1, "bandwidth of at least one word per cycle");
    SIM_ASSERT(!prefetch_order.empty(), "an operand with at least one element");
    // Lines of 1% of the buffer: elements are counted with repeats, each address noted once
    // per line. Two passes: count the lines of each address, then list them.
    const uint64_t per_line = ceil_div(total_words, 100);
    std::vector<int64_t> last_line(address_space, -1);
    const auto walk = [&](const auto& note) {
        uint64_t line = 0, count = 0;
        std::fill(last_line.begin(), last_line.end(), -1);
        for (const int64_t a : prefetch_order) {
            if (a < 0) continue;
            if (last_line[size_t(a)] != int64_t(line)) {
                last_line[size_t(a)] = int64_t(line);
                note(size_t(a), line);
            }
            if (++count >= per_line) {
                ++line;
                count = 0;
            }
        }
        return line + 1;  // the last line, possibly empty
    };
    lines_ = walk([&](size_t a, uint64_t) { ++first_[a + 1]; });
    for (size_t a = 0; a < address_space; ++a)
        first_[a + 1] += first_[a];
    lines_of_.resize(first_[address_space]);
    std::vector<uint64_t> fill(first_.begin(), first_.end() - 1);
    walk([&](size_t a, uint64_t line) { lines_of_[fill[a]++] = line; });
    active_lines_ = std::min(lines_, ceil_div(active_words_, per_line));
    prefetch_lines_ = std::min(lines_ - active_lines_, ceil_div(prefetch_words_, per_line));
}

bool PrefetchReadBuffer::hit(int64_t address) const {
    // The window is active_lines_ lines from window_start_, wrapping around the last line.
    const auto begin = lines_of_.begin() + int64_t(first_[size_t(address)]);
    const auto end = lines_of_.begin() + int64_t(first_[size_t(address) + 1]);
    const auto any_in = [&](uint64_t lo, uint64_t hi) {
        const auto it = std::lower_bound(begin, end, lo);
        return it != end && *it < hi;
    };
    const uint64_t stop = window_start_ + active_lines_;
    if (stop <= lines_) return any_in(window_start_, stop);
    return any_in(window_start_, lines_) || any_in(0, stop - lines_);
}

void PrefetchReadBuffer::set_window(uint64_t start) {
    window_start_ = start;
}

void PrefetchReadBuffer::fill_active(int64_t start_cycle) {
    // Before the first read, the active half arrives in the cycles just before it.
    const uint64_t rows = std::min(ceil_div(active_words_, bandwidth_), fetch_rows_);
    const uint64_t requested = rows * bandwidth_;
    dram_.words += requested;
    next_col_ = requested > active_words_ ? active_words_ % bandwidth_ : 0;
    record(dram_, start_cycle - int64_t(rows), start_cycle - 1);
    last_prefetch_cycle_ = start_cycle - 1;
    set_window(0);
    filled_ = true;
    next_line_ = (requested > active_words_ ? rows : rows + 1) % fetch_rows_;
}

void PrefetchReadBuffer::next_prefetch() {
    set_window((window_start_ + prefetch_lines_) % lines_);
    const uint64_t rows = ceil_div(prefetch_words_, bandwidth_);
    const uint64_t requested = rows * bandwidth_;
    dram_.words += requested;
    const uint64_t end = next_line_ + rows;
    if (end > fetch_rows_ &&
        fetch_rows_ - next_line_ + std::min(end - fetch_rows_, next_line_) != rows) {
        scalesim_fails("a prefetch wraps past the whole operand (numpy shape mismatch)");
    }
    // Requests go out one line per cycle after the previous fetch returned.
    last_prefetch_cycle_ += int64_t(rows) + kReadLatency;
    record(dram_, dram_.first, last_prefetch_cycle_);
    next_line_ = (requested > active_words_ ? rows : rows + 1) % fetch_rows_;
}

int64_t PrefetchReadBuffer::serve_line(int64_t cycle, const std::vector<int64_t>& addresses) {
    if (!filled_) fill_active(cycle);
    int64_t offset = kReadLatency;
    for (const int64_t a : addresses) {
        uint64_t slides = 0;
        while (!hit(a)) {
            if (prefetch_lines_ == 0 || ++slides > lines_ + 1)
                scalesim_fails("a read misses every line of its buffer (endless loop)");
            next_prefetch();
            const int64_t wait = last_prefetch_cycle_ - (cycle + offset);
            if (wait > 0) offset += wait;
        }
    }
    return cycle + offset;
}

// ----------------------------------------------------------------------------- writes

WriteBuffer::WriteBuffer(uint64_t total_words, uint64_t bandwidth)
    : total_(total_words),
      drain_size_(total_words - active_half(total_words)),
      bandwidth_(bandwidth),
      free_(int64_t(total_words)) {
    SIM_ASSERT(bandwidth >= 1, "bandwidth of at least one word per cycle");
}

void WriteBuffer::close_line() {
    if (line_fill_ == 0) return;
    lines_.push_back(line_fill_);
    line_fill_ = 0;
    any_line_ = true;
}

int64_t WriteBuffer::serve_line(int64_t cycle, uint64_t words) {
    int64_t current = cycle;
    const int64_t threshold = int64_t(total_ - drain_size_);
    for (uint64_t i = 0; i < words; ++i) {
        --free_;
        if (++line_fill_ == bandwidth_) close_line();
        if (current < drain_end_) {
            // A drain is running: a full buffer waits for it.
            if (free_ <= 0) current = drain_end_;
        } else if (free_ < threshold) {
            close_line();
            drain_end_ = drain(current);
        }
    }
    return current;
}

int64_t WriteBuffer::drain(int64_t start_cycle) {
    const uint64_t rows = std::min<uint64_t>(ceil_div(drain_size_, bandwidth_), lines_.size());
    if (rows == 0) scalesim_fails("a write-buffer drain finds no line (index error)");
    // SCALE-Sim discounts the empty slots of the last line drained only.
    const uint64_t words = (rows - 1) * bandwidth_ + lines_[rows - 1];
    lines_.erase(lines_.begin(), lines_.begin() + int64_t(rows));
    dram_.words += words;
    free_ += int64_t(words);
    const int64_t end = start_cycle + int64_t(rows) - 1;
    record(dram_, start_cycle, end);
    return end;
}

void WriteBuffer::finish(int64_t cycle) {
    close_line();
    if (!any_line_) return;
    while (!lines_.empty()) {
        drain_end_ = drain(cycle);
        cycle = drain_end_ + 1;
    }
}

}  // namespace sim::systolic
