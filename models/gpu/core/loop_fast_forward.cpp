// SPDX-License-Identifier: MIT
#include "models/gpu/core/loop_fast_forward.h"

#include <algorithm>
#include <cmath>

namespace sim::gpu {

LoopFastForward::LoopFastForward(const MainLoop& loop, const SamplingOptions& sampling)
    : loop_(loop),
      sampling_(sampling),
      enabled_(sampling.enabled && sampling.fast_forward_loops && loop.found() &&
               loop.trips >= sampling.min_loop_trips) {
    reset();
}

void LoopFastForward::reset() {
    marks_.clear();
    trips_.clear();
    totals_.clear();
    next_window_ = 0;  // the next look at the trips opens a window (a warm-up one)
}

std::optional<LoopFastForward::Jump> LoopFastForward::on_window(
    uint64_t now,
    uint64_t trips,
    const KernelTotals& totals,
    uint32_t resident,
    const std::function<uint32_t()>& trips_left,
    double dram_bytes_per_cycle) {
    // The first window from a reset is a warm-up, long enough for the CTAs launched last to
    // have filled their pipelines (their first trips find stages already loaded and run
    // fast); it is not measured. Then each window is a few trips of every resident CTA.
    const uint64_t per_cta = marks_.empty() ? 2 * uint64_t{loop_.trip_multiple} + 2
                                            : std::max<uint64_t>(2, loop_.trip_multiple);
    next_window_ = trips + per_cta * std::max(1u, resident);
    marks_.push_back(now);
    trips_.push_back(double(trips));
    totals_.push_back(totals);
    const SpanRate rate = span_rate(marks_, trips_, 1, sampling_.windows, sampling_.max_windows);
    if (rate.spans == 0 || rate.relative_error > sampling_.tolerance / 2) return std::nullopt;
    const size_t last = marks_.size() - 1, first = last - rate.spans;
    // Still drifting (a rate that settles slowly has little jitter but a trend): the last
    // window must agree with the mean.
    const double latest =
        double(marks_[last] - marks_[last - 1]) / (trips_[last] - trips_[last - 1]);
    if (std::abs(latest - rate.cycles_per_unit) > sampling_.tolerance / 2 * rate.cycles_per_unit)
        return std::nullopt;
    if (!write_backs_steady(totals_[first], totals_.back(), double(marks_[last] - marks_[first]),
                            dram_bytes_per_cycle))
        return std::nullopt;
    // Leave every warp a few trips, so that its pipeline drains and its epilogue runs.
    const uint32_t margin = 2 * loop_.trip_multiple + 2;
    const uint32_t left = trips_left();
    if (left <= margin) return std::nullopt;
    const uint32_t jump = (left - margin) / loop_.trip_multiple * loop_.trip_multiple;
    if (jump == 0) return std::nullopt;

    Jump j;
    j.trips = jump;
    // cycles_per_unit is GPU time per trip of any CTA; each CTA's trips take resident times
    // as long.
    const double per_cta_trip = rate.cycles_per_unit * double(resident);
    j.cycles = double(jump) * per_cta_trip;
    j.bound_cycles = 2 * rate.relative_error * j.cycles;
    const double measured_trips = trips_.back() - trips_[first];
    j.work = KernelTotals{}.plus_scaled(totals_.back(), totals_[first],
                                        double(jump) * double(resident) / measured_trips);
    j.first_window = first;
    j.first_cycle = marks_[first];
    j.margin = margin;
    j.period = loop_.trip_multiple;
    reset();
    return j;
}

}  // namespace sim::gpu
