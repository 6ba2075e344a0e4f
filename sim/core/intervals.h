// SPDX-License-Identifier: MIT
// Sets of time intervals, for overlap accounting (how much of the communication did compute
// hide): merge into disjoint sorted intervals, total length, length of the overlap of two sets.
#pragma once

#include <algorithm>
#include <utility>
#include <vector>

namespace sim {

using Interval = std::pair<double, double>;  ///< [begin, end)

/// Sorted, disjoint intervals covering the same points as the input.
inline std::vector<Interval> merge_intervals(std::vector<Interval> v) {
    std::sort(v.begin(), v.end());
    std::vector<Interval> out;
    for (const Interval& i : v) {
        if (i.second <= i.first) continue;
        if (!out.empty() && i.first <= out.back().second)
            out.back().second = std::max(out.back().second, i.second);
        else
            out.push_back(i);
    }
    return out;
}

/// Total length of merged intervals.
inline double total_length(const std::vector<Interval>& merged) {
    double sum = 0;
    for (const Interval& i : merged)
        sum += i.second - i.first;
    return sum;
}

/// Length of the points both merged sets cover.
inline double overlap_length(const std::vector<Interval>& a, const std::vector<Interval>& b) {
    double sum = 0;
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        const double lo = std::max(a[i].first, b[j].first);
        const double hi = std::min(a[i].second, b[j].second);
        if (hi > lo) sum += hi - lo;
        if (a[i].second < b[j].second)
            ++i;
        else
            ++j;
    }
    return sum;
}

}  // namespace sim
