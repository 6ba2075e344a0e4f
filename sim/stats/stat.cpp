// SPDX-License-Identifier: MIT
#include "sim/stats/stat.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

namespace sim {

namespace acc = boost::accumulators;

namespace {
constexpr std::array<double, 3> kQuantiles{0.5, 0.9, 0.99};

std::string format_double(double v) {
    std::array<char, 32> buf{};
    std::snprintf(buf.data(), buf.size(), "%.9g", v);
    return buf.data();
}

Json leaf(const Stat& s, Json value) {
    Json j;
    j["value"] = std::move(value);
    j["unit"] = s.unit();
    j["description"] = s.description();
    return j;
}

// JSON has no NaN/inf; report them as null rather than writing invalid JSON.
Json number(double v) {
    return std::isfinite(v) ? Json(v) : Json(nullptr);
}
}  // namespace

Stat::Stat(std::string name, std::string unit, std::string description)
    : name_(std::move(name)), unit_(std::move(unit)), description_(std::move(description)) {}

Json Counter::to_json() const {
    return leaf(*this, value_);
}
std::string Counter::to_text() const {
    return std::to_string(value_);
}

Json Scalar::to_json() const {
    return leaf(*this, number(value_));
}
std::string Scalar::to_text() const {
    return format_double(value_);
}

Distribution::Distribution(std::string name, std::string unit, std::string description)
    : Stat(std::move(name), std::move(unit), std::move(description)), acc_(make_accumulator()) {}

Distribution::Accumulator Distribution::make_accumulator() {
    return Accumulator(acc::extended_p_square_probabilities = kQuantiles);
}

void Distribution::sample(double v) {
    acc_(v);
    if (exact_.size() < kExactSamples) exact_.push_back(v);
}

uint64_t Distribution::count() const {
    return acc::count(acc_);
}
double Distribution::mean() const {
    return count() ? acc::mean(acc_) : 0.0;
}

double Distribution::quantile(double q) const {
    const uint64_t n = count();
    if (n == 0) return 0.0;
    if (n <= kExactSamples) {
        std::vector<double> sorted = exact_;
        std::sort(sorted.begin(), sorted.end());
        // Nearest-rank quantile.
        const auto rank = static_cast<size_t>(std::ceil(q * static_cast<double>(n)));
        return sorted[std::min<size_t>(n - 1, rank == 0 ? 0 : rank - 1)];
    }
    for (size_t i = 0; i < kQuantiles.size(); ++i) {
        if (kQuantiles[i] == q) return acc::extended_p_square(acc_)[i];
    }
    return std::nan("");
}

Json Distribution::to_json() const {
    Json j;
    const uint64_t n = count();
    j["count"] = n;
    j["mean"] = number(mean());
    j["min"] = number(n ? acc::min(acc_) : 0.0);
    j["max"] = number(n ? acc::max(acc_) : 0.0);
    j["stddev"] = number(n ? std::sqrt(acc::variance(acc_)) : 0.0);
    j["p50"] = number(quantile(0.5));
    j["p90"] = number(quantile(0.9));
    j["p99"] = number(quantile(0.99));
    return leaf(*this, std::move(j));
}

std::string Distribution::to_text() const {
    return "count=" + std::to_string(count()) + " mean=" + format_double(mean()) +
           " p50=" + format_double(quantile(0.5)) + " p99=" + format_double(quantile(0.99));
}

void Distribution::reset() {
    acc_ = make_accumulator();
    exact_.clear();
}

Formula::Formula(std::string name,
                 std::string unit,
                 std::string description,
                 std::function<double()> f)
    : Stat(std::move(name), std::move(unit), std::move(description)), f_(std::move(f)) {}

Json Formula::to_json() const {
    return leaf(*this, number(f_()));
}
std::string Formula::to_text() const {
    return format_double(f_());
}

}  // namespace sim
