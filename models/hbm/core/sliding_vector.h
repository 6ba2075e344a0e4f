// SPDX-License-Identifier: MIT
// A contiguous sequence whose erase() moves the shorter side of the erased element: the
// elements before it (sliding the start up) or those after it. A controller queue erases the
// request its scan has just reached, often among the oldest, and with 160 controllers whose
// queues do not stay in the host's caches every cache line moved costs. Storage is one vector
// with room to spare at both ends; elements keep their order, index 0 being the oldest.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace sim::hbm {

template <typename T>
class SlidingVector {
  public:
    /// Room for n elements without reallocating (twice that is kept, for the sliding).
    void reserve(size_t n) {
        if (2 * n + 1 > storage_.size()) grow(2 * n + 1);
    }
    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    T& operator[](size_t i) { return storage_[head_ + i]; }
    const T& operator[](size_t i) const { return storage_[head_ + i]; }
    T& front() { return storage_[head_]; }
    const T& front() const { return storage_[head_]; }
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
    /// Appends an element for the caller to fill in place and returns it. Its value is left
    /// as the storage held it (an earlier element's): the caller sets every field.
    T& emplace_back() {
        if (head_ + size_ == storage_.size()) make_room_at_end();
        return storage_[head_ + size_++];
    }
    /// Inserts v before index at (0 .. size()).
    void insert(size_t at, const T& v) {
        if (head_ + size_ == storage_.size()) make_room_at_end();
        T* first = begin();
        std::move_backward(first + at, first + size_, first + size_ + 1);
        first[at] = v;
        ++size_;
    }
    /// Removes the first element (no element moves: a first-in first-out queue).
    void pop_front() { erase(0); }
    /// Removes the element at index at, moving the shorter side.
    void erase(size_t at) {
        T* first = begin();
        if (at < size_ - 1 - at) {
            std::move_backward(first, first + at, first + at + 1);
            ++head_;
        } else {
            std::move(first + at + 1, first + size_, first + at);
        }
        if (--size_ == 0) head_ = 0;
    }

  private:
    void make_room_at_end() {
        // Sliding the elements down frees head_ slots for as many pushes: worth it only while
        // that is at least as many as there are elements to move (amortised O(1) per push),
        // otherwise a long first-in first-out queue would move all of itself every few pushes.
        if (head_ <= size_) {
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
