// SPDX-License-Identifier: MIT
// A contiguous sequence whose erase() shifts the elements before the erased one instead of
// those after it. A controller queue erases the request its scan has just reached: the
// entries before it were read a moment ago and sit in the host's L1 cache, those after it
// usually do not, and with 160 controllers moving the cold tail was the largest source of
// cache misses in a streaming GPU kernel. Storage is one vector with spare room at both ends;
// elements keep their order, and indices and pointers run from the oldest (index 0).
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace sim::hbm {

template <typename T>
class FrontEraseVector {
  public:
    /// Room for n elements without reallocating (twice that is kept, for the sliding).
    void reserve(size_t n) {
        if (2 * n + 1 > storage_.size()) grow(2 * n + 1);
    }
    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    T& operator[](size_t i) { return storage_[head_ + i]; }
    const T& operator[](size_t i) const { return storage_[head_ + i]; }
    T& back() { return storage_[head_ + size_ - 1]; }
    const T& back() const { return storage_[head_ + size_ - 1]; }
    T* begin() { return storage_.data() + head_; }
    T* end() { return begin() + size_; }
    const T* begin() const { return storage_.data() + head_; }
    const T* end() const { return begin() + size_; }

    void push_back(const T& v) {
        if (head_ + size_ == storage_.size()) make_room_at_end();
        storage_[head_ + size_] = v;
        ++size_;
    }
    /// Inserts v before index at (0 .. size()).
    void insert(size_t at, const T& v) {
        if (head_ + size_ == storage_.size()) make_room_at_end();
        T* first = begin();
        std::move_backward(first + at, first + size_, first + size_ + 1);
        first[at] = v;
        ++size_;
    }
    /// Removes the element at index at: the ones before it move up by one.
    void erase(size_t at) {
        if (at + 1 < size_) {
            T* first = begin();
            std::move_backward(first, first + at, first + at + 1);
            ++head_;
        }
        if (--size_ == 0) head_ = 0;
    }

  private:
    void make_room_at_end() {
        if (head_ == 0) {
            grow(2 * storage_.size() + 2);
            return;
        }
        std::move(begin(), end(), storage_.data());
        head_ = 0;
    }
    void grow(size_t n) {
        std::vector<T> bigger(n);
        std::move(begin(), end(), bigger.data());
        storage_.swap(bigger);
        head_ = 0;
    }

    std::vector<T> storage_;
    size_t head_ = 0;  ///< index in storage_ of element 0
    size_t size_ = 0;
};

}  // namespace sim::hbm
