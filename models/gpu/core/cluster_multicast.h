// SPDX-License-Identifier: MIT
// TMA multicast inside thread-block clusters (Hopper): a tile that every CTA of a cluster needs
// (the B tile of CTAs that share an N tile) is read from L2 once and written into each member's
// shared memory. A member may only receive the tile once its buffer is free, which in program
// order is when it has issued the same copy; so the copy goes out when the cluster's last
// member issues it, and until then the members that issued first wait on their buffers'
// barriers. This table matches the members' copies up. Pure C++.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "models/gpu/core/memory_system.h"

namespace sim::gpu {

class ClusterMulticast {
  public:
    explicit ClusterMulticast(uint32_t cluster_size) : size_(cluster_size) {}

    /// The CTA cta, whose copy completes at `receiver`, issues its `sequence`-th multicast
    /// copy. Returns true when it was the cluster's last member to issue it; members then
    /// holds every member's receiver, in arrival order.
    bool arrive(uint64_t cta,
                uint32_t sequence,
                const LoadReturn& receiver,
                std::vector<LoadReturn>& members);
    /// Copies some members issued while others have not yet.
    size_t waiting() const { return waiting_.size(); }

  private:
    uint32_t size_;
    std::unordered_map<uint64_t, std::vector<LoadReturn>> waiting_;  ///< by cluster and sequence
};

}  // namespace sim::gpu
