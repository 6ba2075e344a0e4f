// SPDX-License-Identifier: MIT
// Strong integer types for simulated time. Models count Cycle (per clock domain); the engine
// keeps absolute time in integer picoseconds (TimePs), matching the SystemC resolution of 1 ps.
// Never accumulate time in double (STYLE.md 8.6).
#pragma once

#include <cstdint>
#include <ostream>

namespace sim {

/// A strongly typed unsigned 64-bit counter; Tag keeps Cycle and TimePs from mixing.
template <typename Tag>
class StrongCount {
  public:
    constexpr StrongCount() = default;
    constexpr explicit StrongCount(uint64_t v) : v_(v) {}
    constexpr uint64_t value() const { return v_; }

    constexpr StrongCount& operator+=(StrongCount o) {
        v_ += o.v_;
        return *this;
    }
    constexpr StrongCount& operator-=(StrongCount o) {
        v_ -= o.v_;
        return *this;
    }
    friend constexpr StrongCount operator+(StrongCount a, StrongCount b) {
        return StrongCount{a.v_ + b.v_};
    }
    friend constexpr StrongCount operator-(StrongCount a, StrongCount b) {
        return StrongCount{a.v_ - b.v_};
    }
    friend constexpr StrongCount operator*(StrongCount a, uint64_t k) {
        return StrongCount{a.v_ * k};
    }
    friend constexpr bool operator==(StrongCount a, StrongCount b) { return a.v_ == b.v_; }
    friend constexpr bool operator!=(StrongCount a, StrongCount b) { return a.v_ != b.v_; }
    friend constexpr bool operator<(StrongCount a, StrongCount b) { return a.v_ < b.v_; }
    friend constexpr bool operator<=(StrongCount a, StrongCount b) { return a.v_ <= b.v_; }
    friend constexpr bool operator>(StrongCount a, StrongCount b) { return a.v_ > b.v_; }
    friend constexpr bool operator>=(StrongCount a, StrongCount b) { return a.v_ >= b.v_; }
    friend std::ostream& operator<<(std::ostream& os, StrongCount c) { return os << c.v_; }

  private:
    uint64_t v_ = 0;
};

struct CycleTag {};
struct TimePsTag {};

/// A number of clock cycles of one clock domain.
using Cycle = StrongCount<CycleTag>;
/// Absolute or relative simulated time in picoseconds.
using TimePs = StrongCount<TimePsTag>;

inline constexpr uint64_t kPsPerSecond = 1'000'000'000'000ULL;

/// Seconds as a double, for reporting only (never for accumulating time).
inline double to_seconds(TimePs t) {
    return static_cast<double>(t.value()) / kPsPerSecond;
}

}  // namespace sim
