// SPDX-License-Identifier: MIT
// One bit per position of a sequence whose elements are inserted and erased in the middle
// (a controller queue): insert() and erase() shift the bits above the position the way the
// elements shift, and next_set()/next_clear() find the next position with or without the bit
// in a word at a time. A controller keeps here which of its queued requests hit their bank's
// open row, so that its scans visit only the requests that can use the command they look for.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/core/prefetch.h"

namespace sim::hbm {

class PositionMask {
  public:
    /// Room for positions 0 .. n - 1 (all clear).
    void resize(size_t n) { words_.assign((n + 63) / 64 + 1, 0); }
    bool test(size_t i) const { return (words_[i / 64] >> (i % 64)) & 1; }
    void set(size_t i) { words_[i / 64] |= bit(i); }
    void clear(size_t i) { words_[i / 64] &= ~bit(i); }
    /// Opens position at: the bits from at up move one position higher (the top one of the
    /// last word is dropped: positions beyond the room given to resize() must stay clear).
    void insert(size_t at, bool value) {
        const size_t w = at / 64;
        for (size_t k = words_.size() - 1; k > w; --k)
            words_[k] = words_[k] << 1 | words_[k - 1] >> 63;
        const uint64_t low = bit(at) - 1;
        words_[w] = (words_[w] & low) | ((words_[w] & ~low) << 1);
        if (value) set(at);
    }
    /// Closes position at: the bits above it move one position lower.
    void erase(size_t at) {
        const size_t w = at / 64;
        const uint64_t low = bit(at) - 1;
        uint64_t carry = w + 1 < words_.size() ? words_[w + 1] << 63 : 0;
        words_[w] = (words_[w] & low) | ((words_[w] >> 1) & ~low) | carry;
        for (size_t k = w + 1; k < words_.size(); ++k) {
            carry = k + 1 < words_.size() ? words_[k + 1] << 63 : 0;
            words_[k] = words_[k] >> 1 | carry;
        }
    }
    /// The first position in [from, limit) whose bit is set; limit when there is none.
    size_t next_set(size_t from, size_t limit) const { return next(from, limit, 0); }
    /// The first position in [from, limit) whose bit is clear; limit when there is none.
    size_t next_clear(size_t from, size_t limit) const { return next(from, limit, ~0ULL); }

    /// Hints the host to fetch the words that hold the bits (see sim/core/prefetch.h).
    void prefetch() const { prefetch_bytes(words_.data(), words_.size() * sizeof(uint64_t)); }

  private:
    static uint64_t bit(size_t i) { return uint64_t{1} << (i % 64); }
    size_t next(size_t from, size_t limit, uint64_t flip) const {
        if (from >= limit) return limit;
        size_t w = from / 64;
        uint64_t word = (words_[w] ^ flip) & ~(bit(from) - 1);
        while (true) {
            if (word != 0) {
                const size_t at = w * 64 + static_cast<size_t>(__builtin_ctzll(word));
                return at < limit ? at : limit;
            }
            if (++w * 64 >= limit) return limit;
            word = words_[w] ^ flip;
        }
    }

    std::vector<uint64_t> words_;
};

}  // namespace sim::hbm
