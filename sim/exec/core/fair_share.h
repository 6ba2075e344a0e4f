// SPDX-License-Identifier: MIT
// Max-min fair division of one resource (water-filling): every claimant gets at most what it
// asks for; what the modest ones leave is divided equally among the rest. This is how a GPU's
// CTA dispatcher divides SM slots between concurrent kernels that both have CTAs waiting (as
// slots free, each kernel's pending CTAs get their turn), and how round-robin link arbiters
// divide a link.
#pragma once

#include <vector>

namespace sim::exec {

/// shares[i] <= demands[i]; sum(shares) <= capacity; demands >= 0. When the demands fit, each
/// gets its demand.
std::vector<double> fair_shares(const std::vector<double>& demands, double capacity = 1.0);

}  // namespace sim::exec
