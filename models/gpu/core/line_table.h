// SPDX-License-Identifier: MIT
// A map from line address to a small index, for the lines in flight (L2 misses): open
// addressing with linear probing and backward-shift deletion, so lookups touch one or two cache
// lines and nothing is allocated per miss. Pure C++.
#pragma once

#include <cstdint>
#include <vector>

namespace sim::gpu {

class LineTable {
  public:
    static constexpr uint32_t kAbsent = ~0u;

    explicit LineTable(size_t capacity_log2 = 12) { resize(size_t{1} << capacity_log2); }

    uint32_t find(uint64_t line) const {
        for (size_t i = slot(line);; i = (i + 1) & mask_) {
            if (keys_[i] == line) return values_[i];
            if (keys_[i] == kEmpty) return kAbsent;
        }
    }
    void insert(uint64_t line, uint32_t value) {
        if (2 * (size_ + 1) > keys_.size()) grow();
        size_t i = slot(line);
        while (keys_[i] != kEmpty)
            i = (i + 1) & mask_;
        keys_[i] = line;
        values_[i] = value;
        ++size_;
    }
    void erase(uint64_t line) {
        size_t i = slot(line);
        while (keys_[i] != line) {
            if (keys_[i] == kEmpty) return;
            i = (i + 1) & mask_;
        }
        // Backward shift: pull later entries of the probe run into the hole.
        size_t hole = i;
        for (size_t j = (i + 1) & mask_; keys_[j] != kEmpty; j = (j + 1) & mask_) {
            const size_t home = slot(keys_[j]);
            const bool movable =
                hole <= j ? (home <= hole || home > j) : (home <= hole && home > j);
            if (movable) {
                keys_[hole] = keys_[j];
                values_[hole] = values_[j];
                hole = j;
            }
        }
        keys_[hole] = kEmpty;
        --size_;
    }
    size_t size() const { return size_; }
    /// Hints the host to fetch line's home slot (see sim/core/prefetch.h).
    void prefetch(uint64_t line) const { __builtin_prefetch(&keys_[slot(line)]); }

  private:
    static constexpr uint64_t kEmpty = ~0ULL;
    size_t slot(uint64_t line) const { return ((line >> 7) * 0x9E3779B97F4A7C15ULL >> 20) & mask_; }
    void resize(size_t n) {
        keys_.assign(n, kEmpty);
        values_.assign(n, 0);
        mask_ = n - 1;
        size_ = 0;
    }
    void grow() {
        std::vector<uint64_t> keys = std::move(keys_);
        std::vector<uint32_t> values = std::move(values_);
        resize(keys.size() * 2);
        for (size_t i = 0; i < keys.size(); ++i) {
            if (keys[i] != kEmpty) insert(keys[i], values[i]);
        }
    }

    std::vector<uint64_t> keys_;
    std::vector<uint32_t> values_;
    size_t mask_ = 0;
    size_t size_ = 0;
};

}  // namespace sim::gpu
