// SPDX-License-Identifier: MIT
#include "models/net/core/flow_network.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace sim::net {

FlowNetwork::FlowNetwork(const Topology& topology)
    : topology_(topology),
      link_bytes_(topology.link_count(), 0.0),
      capacity_(topology.link_count(), 0.0),
      unfrozen_on_link_(topology.link_count(), 0),
      first_on_link_(topology.link_count(), 0),
      end_on_link_(topology.link_count(), 0) {}

void FlowNetwork::fair_rates(const std::vector<uint32_t>& active, std::vector<double>& rate) {
    std::vector<uint32_t>& used = used_;
    used.clear();
    for (uint32_t f : active) {
        for (uint32_t l : path(f)) {
            if (unfrozen_on_link_[l]++ == 0) {
                used.push_back(l);
                capacity_[l] = topology_.link(l).effective_bandwidth();
            }
        }
    }
    uint32_t at = 0;
    for (uint32_t l : used) {
        first_on_link_[l] = end_on_link_[l] = at;
        at += unfrozen_on_link_[l];
    }
    link_flows_.resize(at);
    for (uint32_t f : active) {
        for (uint32_t l : path(f))
            link_flows_[end_on_link_[l]++] = f;
    }
    std::vector<char>& frozen = frozen_;
    frozen.assign(rate.size(), 0);
    size_t left = active.size();
    while (left > 0) {
        // The bottleneck: the link whose remaining capacity, shared equally among its
        // unfrozen flows, is the smallest.
        double share = std::numeric_limits<double>::infinity();
        for (uint32_t l : used) {
            if (unfrozen_on_link_[l] > 0)
                share = std::min(share, capacity_[l] / unfrozen_on_link_[l]);
        }
        // A flow whose own cap is below every link's fair share freezes at its cap first: the
        // capacity it leaves goes to the others.
        double lowest_cap = std::numeric_limits<double>::infinity();
        if (any_cap_) {
            for (uint32_t f : active) {
                if (!frozen[f]) lowest_cap = std::min(lowest_cap, (*caps_)[f]);
            }
        }
        if (lowest_cap <= share) {
            for (uint32_t f : active) {
                if (frozen[f] || (*caps_)[f] > lowest_cap * (1 + 1e-12)) continue;
                frozen[f] = 1;
                rate[f] = (*caps_)[f];
                --left;
                for (uint32_t m : path(f)) {
                    capacity_[m] = std::max(0.0, capacity_[m] - rate[f]);
                    --unfrozen_on_link_[m];
                }
            }
            continue;
        }
        for (uint32_t l : used) {
            if (unfrozen_on_link_[l] == 0 ||
                capacity_[l] / unfrozen_on_link_[l] > share * (1 + 1e-12))
                continue;
            for (uint32_t i = first_on_link_[l]; i < end_on_link_[l]; ++i) {
                const uint32_t f = link_flows_[i];
                if (frozen[f]) continue;
                frozen[f] = 1;
                rate[f] = share;
                --left;
                for (uint32_t m : path(f)) {
                    capacity_[m] = std::max(0.0, capacity_[m] - share);
                    --unfrozen_on_link_[m];
                }
            }
        }
    }
    for (uint32_t l : used)
        unfrozen_on_link_[l] = 0;
}

double FlowNetwork::run(const std::vector<Flow>& flows, double repeat) {
    const size_t n = flows.size();
    longest_path_latency_ = 0;
    path_start_.assign(n + 1, 0);
    path_links_.clear();
    std::vector<double> remaining(n), rate(n, 0.0), latency(n, 0.0);
    std::vector<uint32_t> active;
    std::vector<double> caps(n);
    caps_ = &caps;
    any_cap_ = false;
    double last = 0;
    for (size_t i = 0; i < n; ++i) {
        const Flow& f = flows[i];
        if (f.src >= topology_.gpus().size() || f.dst >= topology_.gpus().size())
            throw std::invalid_argument("flow between ranks the topology does not have");
        for (uint32_t l : topology_.route(f.src, f.dst)) {
            path_links_.push_back(l);
            latency[i] += topology_.link(l).latency;
        }
        path_start_[i + 1] = static_cast<uint32_t>(path_links_.size());
        longest_path_latency_ = std::max(longest_path_latency_, latency[i]);
        remaining[i] = f.bytes;
        caps[i] = f.max_rate > 0 ? f.max_rate : std::numeric_limits<double>::infinity();
        any_cap_ = any_cap_ || caps[i] < std::numeric_limits<double>::infinity();
        if (f.bytes > 0 && path_start_[i + 1] > path_start_[i])
            active.push_back(static_cast<uint32_t>(i));
        else
            last = std::max(last, latency[i]);
    }
    double now = 0;
    while (!active.empty()) {
        fair_rates(active, rate);
        double dt = std::numeric_limits<double>::infinity();
        for (uint32_t f : active)
            dt = std::min(dt, remaining[f] / rate[f]);
        now += dt;
        std::vector<uint32_t> still;
        still.reserve(active.size());
        for (uint32_t f : active) {
            const double sent = std::min(remaining[f], rate[f] * dt);
            remaining[f] -= sent;
            for (uint32_t l : path(f))
                link_bytes_[l] += sent * repeat;
            if (remaining[f] <= 1e-9 * flows[f].bytes)
                last = std::max(last, now + latency[f]);
            else
                still.push_back(f);
        }
        active.swap(still);
    }
    return last;
}

}  // namespace sim::net
