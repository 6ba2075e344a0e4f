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

  private:
    /// Max-min fair rates (B/s) of the active flows, by progressive filling.
    void fair_rates(const std::vector<uint32_t>& active, std::vector<double>& rate);

    const Topology& topology_;
    std::vector<double> link_bytes_;
    // Scratch, per run.
    std::vector<const std::vector<uint32_t>*> paths_;
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
