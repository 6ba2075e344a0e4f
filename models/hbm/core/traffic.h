// SPDX-License-Identifier: MIT
// A built-in traffic generator for the HBM model: sequential streams, a 2-read-1-write stream
// (c = a + b), a copy (read one array, write another), uniform random and strided reads, with a cap
// on outstanding requests and an optional offered bandwidth. It drives an HbmSystem to completion
// and measures bandwidth and loaded latency (Little's law: bandwidth = outstanding bytes /
// latency). Pure C++.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/hbm/core/hbm_system.h"

namespace sim::hbm {

enum class Pattern { Stream, WriteStream, Read2Write1, Copy, Random, Strided };

struct TrafficParams {
    Pattern pattern = Pattern::Stream;
    uint64_t bytes = 1ULL << 30;  ///< total bytes requested
    uint32_t request_bytes = 64;  ///< bytes per request
    /// Requests in flight at most: reads until their data is back, writes until a controller
    /// queue accepts them (posted writes).
    uint32_t outstanding = 8192;
    double offered_bandwidth = 0;  ///< B/s; 0: as fast as the memory accepts
    uint64_t stride = 4096;        ///< bytes between strided requests
    uint64_t seed = 1;             ///< random pattern seed
    /// Each request reaches its controller 0 .. arrival_jitter cycles (seeded, uniform) after
    /// it is sent, so requests may arrive out of the order they were queued, as the GPU's L2
    /// slices send theirs (each stamped with its own latency). 0: on the cycle it is sent.
    uint32_t arrival_jitter = 0;
};

/// Exact latency distribution in memory cycles (one bin per cycle up to a cap).
class LatencyHistogram {
  public:
    void add(uint64_t cycles);
    uint64_t count() const { return count_; }
    double mean() const { return count_ ? static_cast<double>(sum_) / count_ : 0.0; }
    /// Nearest-rank quantile in cycles.
    uint64_t quantile(double q) const;
    uint64_t max() const { return max_; }

  private:
    static constexpr uint64_t kBins = 1 << 16;
    std::vector<uint64_t> bins_ = std::vector<uint64_t>(kBins + 1, 0);
    uint64_t count_ = 0, sum_ = 0, max_ = 0;
};

struct TrafficResult {
    uint64_t requests = 0;
    uint64_t bytes_read = 0, bytes_written = 0;
    uint64_t cycles = 0;            ///< until the last data beat
    LatencyHistogram read_latency;  ///< arrival at the controller -> last data beat
    LatencyHistogram write_latency;
    uint64_t stalled_enqueues = 0;  ///< attempts refused by a full queue (back-pressure)
};

/// Runs the pattern to completion on system. Throws std::invalid_argument for parameters
/// the system cannot serve (a request larger than an interleave granule, zero bytes...).
TrafficResult run_traffic(HbmSystem& system, const TrafficParams& params);

Pattern parse_pattern(const std::string& name);  ///< throws std::invalid_argument
std::string to_string(Pattern p);

}  // namespace sim::hbm
