// SPDX-License-Identifier: MIT
#include "sim/exec/core/fair_share.h"

#include <algorithm>
#include <numeric>

namespace sim::exec {

std::vector<double> fair_shares(const std::vector<double>& demands, double capacity) {
    std::vector<double> shares(demands.size(), 0.0);
    std::vector<size_t> order(demands.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(),
              [&](size_t a, size_t b) { return demands[a] < demands[b]; });
    double left = capacity;
    size_t claimants = demands.size();
    for (size_t i : order) {
        const double equal = left / double(claimants);
        shares[i] = std::min(std::max(demands[i], 0.0), equal);
        left -= shares[i];
        --claimants;
    }
    return shares;
}

}  // namespace sim::exec
