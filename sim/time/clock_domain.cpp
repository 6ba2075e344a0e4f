// SPDX-License-Identifier: MIT
#include "sim/time/clock_domain.h"

#include <stdexcept>

namespace sim {

namespace {
__extension__ typedef unsigned __int128 u128;  // exact 64x64-bit products
}

ClockDomain::ClockDomain(std::string name, uint64_t frequency_hz)
    : name_(std::move(name)), frequency_hz_(frequency_hz) {
    if (frequency_hz_ == 0) throw std::invalid_argument("clock '" + name_ + "': frequency is 0");
    max_cycle_64_ = (UINT64_MAX - (frequency_hz_ - 1)) / kPsPerSecond;
    max_ps_64_ = UINT64_MAX / frequency_hz_;
}

TimePs ClockDomain::to_ps(Cycle c) const {
    // Rounded up, so that cycle_at(to_ps(c)) == c for every clock below 1 THz.
    if (c.value() <= max_cycle_64_)
        return TimePs{(c.value() * kPsPerSecond + frequency_hz_ - 1) / frequency_hz_};
    const u128 num = u128(c.value()) * kPsPerSecond;
    return TimePs{static_cast<uint64_t>((num + frequency_hz_ - 1) / frequency_hz_)};
}

Cycle ClockDomain::cycle_at(TimePs t) const {
    if (t.value() <= max_ps_64_) return Cycle{t.value() * frequency_hz_ / kPsPerSecond};
    return Cycle{static_cast<uint64_t>(u128(t.value()) * frequency_hz_ / kPsPerSecond)};
}

TimePs ClockDomain::next_edge(TimePs t) const {
    Cycle c = cycle_at(t);
    if (to_ps(c) < t) c += Cycle{1};
    return to_ps(c);
}

Cycle ClockDomain::cycles_for(TimePs duration) const {
    const u128 num = u128(duration.value()) * frequency_hz_;
    return Cycle{static_cast<uint64_t>((num + kPsPerSecond - 1) / kPsPerSecond)};
}

}  // namespace sim
