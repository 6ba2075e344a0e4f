// SPDX-License-Identifier: MIT
// A map from line address to a small index, for the lines in flight (L2 misses): open
// addressing with linear probing and backward-shift deletion, so lookups touch one or two cache
// lines and nothing is allocated per miss. A slot holds its key and value together: one host
// cache line per probe, not one in a key array and another in a value array. Pure C++.
#pragma once

#include <cstdint>
#include <vector>

namespace sim::gpu {

class LineTable {
  public:
    static constexpr uint32_t kAbsent = ~0u;

    explicit LineTable(size_t capacity_log2 = 12) { resize(size_t{1} << capacity_log2); }

    uint32_t find(uint64_t line) const {
        for (size_t i = home_of(line);; i = (i + 1) & mask_) {
            if (slots_[i].key == line) return slots_[i].value;
            if (slots_[i].key == kEmpty) return kAbsent;
        }
    }
    void insert(uint64_t line, uint32_t value) {
        if (2 * (size_ + 1) > slots_.size()) grow();
        size_t i = home_of(line);
        while (slots_[i].key != kEmpty)
            i = (i + 1) & mask_;
        slots_[i] = {line, value};
        ++size_;
    }
    void erase(uint64_t line) {
        size_t i = home_of(line);
        while (slots_[i].key != line) {
            if (slots_[i].key == kEmpty) return;
            i = (i + 1) & mask_;
        }
        // Backward shift: pull later entries of the probe run into the hole.
        size_t hole = i;
        for (size_t j = (i + 1) & mask_; slots_[j].key != kEmpty; j = (j + 1) & mask_) {
            const size_t home = home_of(slots_[j].key);
            const bool movable =
                hole <= j ? (home <= hole || home > j) : (home <= hole && home > j);
            if (movable) {
                slots_[hole] = slots_[j];
                hole = j;
            }
        }
        slots_[hole].key = kEmpty;
        --size_;
    }
    size_t size() const { return size_; }
    /// Hints the host to fetch line's home slot (see sim/core/prefetch.h).
    void prefetch(uint64_t line) const { __builtin_prefetch(&slots_[home_of(line)]); }

  private:
    static constexpr uint64_t kEmpty = ~0ULL;
    struct Slot {
        uint64_t key = kEmpty;
        uint32_t value = 0;
    };
    size_t home_of(uint64_t line) const {
        return ((line >> 7) * 0x9E3779B97F4A7C15ULL >> 20) & mask_;
    }
    void resize(size_t n) {
        slots_.assign(n, Slot{});
        mask_ = n - 1;
        size_ = 0;
    }
    void grow() {
        const std::vector<Slot> old = std::move(slots_);
        resize(old.size() * 2);
        for (const Slot& s : old) {
            if (s.key != kEmpty) insert(s.key, s.value);
        }
    }

    std::vector<Slot> slots_;
    size_t mask_ = 0;
    size_t size_ = 0;
};

}  // namespace sim::gpu
