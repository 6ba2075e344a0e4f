// SPDX-License-Identifier: MIT
// Flows over a Topology at flow level: concurrent flows share every link max-min fairly (the
// fluid limit of links serving their flows' packets round-robin), a flow never exceeding its
// own rate cap (a sender that cannot feed faster), rates are recomputed each
// time a flow finishes, and each flow finishes its path's latency after its last byte is
// sent. Pure C++.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "models/net/core/topology.h"

namespace sim::net {

struct Flow {
    uint32_t src = 0;  ///< GPU rank
    uint32_t dst = 0;  ///< GPU rank
    double bytes = 0;
    /// B/s the sender can feed at most (its CTAs' copy rate), whatever the links leave.
    double max_rate = std::numeric_limits<double>::infinity();
};

class FlowNetwork {
  public:
    explicit FlowNetwork(const Topology& topology);

    /// Runs flows that all start at time 0 and returns when the last one has arrived (s).
    /// Bytes each link carried are added to link_bytes(), scaled by repeat (an identical step
    /// run repeat times).
    double run(const std::vector<Flow>& flows, double repeat = 1);
    /// Bytes carried per directed link so far.
    const std::vector<double>& link_bytes() const { return link_bytes_; }
    /// The longest path latency (the sum of its links' latencies) among the last run's flows.
    double longest_path_latency() const { return longest_path_latency_; }

  private:
    /// Max-min fair rates (B/s) of the active flows, by progressive filling.
    void fair_rates(const std::vector<uint32_t>& active, std::vector<double>& rate);

    const Topology& topology_;
    std::vector<double> link_bytes_;
    double longest_path_latency_ = 0;
    /// The links of one flow's path, in the run's own copy.
    struct Path {
        const uint32_t* first;
        const uint32_t* last;
        const uint32_t* begin() const { return first; }
        const uint32_t* end() const { return last; }
    };
    Path path(uint32_t f) const {
        return {path_links_.data() + path_start_[f], path_links_.data() + path_start_[f + 1]};
    }

    // Scratch, per run.
    /// Every flow's path copied into one array: flow f's links are
    /// path_links_[path_start_[f] .. path_start_[f + 1]). The topology keeps a route per pair
    /// of GPUs, a million scattered arrays at 1024 GPUs; the rate solver walks each path many
    /// times, so it reads them from here.
    std::vector<uint32_t> path_start_, path_links_;
    const std::vector<double>* caps_ = nullptr;  ///< per flow of the current run
    bool any_cap_ = false;                       ///< a flow of the current run has a cap
    std::vector<double> capacity_;
    std::vector<uint32_t> unfrozen_on_link_;
    /// The active flows on each used link, one array for all links: link l's are
    /// link_flows_[first_on_link_[l] .. end_on_link_[l]) (allocating a list per link cost a
    /// 1024-GPU ring, whose flows use 4,000 links, a third of its time).
    std::vector<uint32_t> first_on_link_, end_on_link_, link_flows_;
    std::vector<uint32_t> used_;  ///< the links the active flows use
    std::vector<char> frozen_;    ///< per flow
};

}  // namespace sim::net
