// SPDX-License-Identifier: MIT
// Statistic types (STYLE.md 8.7). Every stat has a leaf name, a unit and a description; the
// enclosing StatGroups supply the path. Hot paths update plain numbers through references.
#pragma once

#include <boost/accumulators/accumulators.hpp>
#include <boost/accumulators/statistics/count.hpp>
#include <boost/accumulators/statistics/extended_p_square.hpp>
#include <boost/accumulators/statistics/max.hpp>
#include <boost/accumulators/statistics/mean.hpp>
#include <boost/accumulators/statistics/min.hpp>
#include <boost/accumulators/statistics/stats.hpp>
#include <boost/accumulators/statistics/variance.hpp>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace sim {

using Json = nlohmann::ordered_json;

/// What every statistic shares: its leaf name, unit and one-line description.
class Stat {
  public:
    Stat(std::string name, std::string unit, std::string description);
    virtual ~Stat() = default;
    Stat(const Stat&) = delete;
    Stat& operator=(const Stat&) = delete;

    const std::string& name() const { return name_; }
    const std::string& unit() const { return unit_; }
    const std::string& description() const { return description_; }

    /// {"value": ..., "unit": ..., "description": ...} (distributions add their summary).
    virtual Json to_json() const = 0;
    /// The value as text for stats.txt.
    virtual std::string to_text() const = 0;
    /// Forgets everything recorded (warm-up).
    virtual void reset() = 0;

  private:
    std::string name_;
    std::string unit_;
    std::string description_;
};

/// A monotonically increasing event count.
class Counter final : public Stat {
  public:
    using Stat::Stat;
    Counter& operator+=(uint64_t n) {
        value_ += n;
        return *this;
    }
    Counter& operator++() {
        ++value_;
        return *this;
    }
    uint64_t value() const { return value_; }
    Json to_json() const override;
    std::string to_text() const override;
    void reset() override { value_ = 0; }

  private:
    uint64_t value_ = 0;
};

/// A single measured or configured number (a peak rate, a total time in seconds).
class Scalar final : public Stat {
  public:
    using Stat::Stat;
    void set(double v) { value_ = v; }
    Scalar& operator+=(double v) {
        value_ += v;
        return *this;
    }
    double value() const { return value_; }
    Json to_json() const override;
    std::string to_text() const override;
    void reset() override { value_ = 0.0; }

  private:
    double value_ = 0.0;
};

/// A distribution of samples: count, mean, min, max, standard deviation and p50/p90/p99
/// (Boost.Accumulators; quantiles are exact up to kExactSamples samples, P² estimates beyond).
class Distribution final : public Stat {
  public:
    static constexpr size_t kExactSamples = 4096;

    Distribution(std::string name, std::string unit, std::string description);
    void sample(double v);
    uint64_t count() const;
    double mean() const;
    /// The q-quantile, q in {0.5, 0.9, 0.99} for the P² estimator; any q while exact.
    double quantile(double q) const;
    Json to_json() const override;
    std::string to_text() const override;
    void reset() override;

  private:
    using Accumulator = boost::accumulators::accumulator_set<
        double,
        boost::accumulators::stats<boost::accumulators::tag::count,
                                   boost::accumulators::tag::mean,
                                   boost::accumulators::tag::min,
                                   boost::accumulators::tag::max,
                                   boost::accumulators::tag::variance,
                                   boost::accumulators::tag::extended_p_square>>;
    static Accumulator make_accumulator();

    Accumulator acc_;
    std::vector<double> exact_;
};

/// A value derived at dump time from other stats (a ratio, a utilisation).
class Formula final : public Stat {
  public:
    Formula(std::string name, std::string unit, std::string description, std::function<double()> f);
    double value() const { return f_(); }
    Json to_json() const override;
    std::string to_text() const override;
    void reset() override {}

  private:
    std::function<double()> f_;
};

}  // namespace sim
