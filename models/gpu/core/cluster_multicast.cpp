// SPDX-License-Identifier: MIT
#include "models/gpu/core/cluster_multicast.h"

#include "sim/core/error.h"

namespace sim::gpu {

bool ClusterMulticast::arrive(uint64_t cta,
                              uint32_t sequence,
                              const LoadReturn& receiver,
                              std::vector<LoadReturn>& members) {
    constexpr uint32_t kSequenceBits = 24;
    SIM_ASSERT(sequence < (1u << kSequenceBits), "too many multicast copies in one CTA");
    const uint64_t key = (cta / size_) << kSequenceBits | sequence;
    auto it = waiting_.find(key);
    if (it == waiting_.end()) it = waiting_.emplace(key, std::vector<LoadReturn>{}).first;
    it->second.push_back(receiver);
    if (it->second.size() < size_) return false;
    members = std::move(it->second);
    waiting_.erase(it);
    return true;
}

}  // namespace sim::gpu
