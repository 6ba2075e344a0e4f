// SPDX-License-Identifier: MIT
// Collectives of a trace on the network model: a GPU hardware file with a `network:` section
// names a configs/net file (and an algorithm and protocol), and every AllReduce, AllGather,
// ReduceScatter and AllToAll op runs over that network, sized to the op's group: whole nodes of the
// file's shape, or one partial node for a group smaller than a node. The op occupies the device's
// link engine, as the analytic model's collectives do, so compute on another stream overlaps it.
#pragma once

#include <map>
#include <memory>
#include <optional>

#include "models/energy/core/energy_table.h"
#include "models/net/net_params.h"
#include "sim/core/timeline.h"
#include "sim/registry/op_model.h"

namespace sim::net {

class NetOpModel final : public OpModel {
  public:
    /// network: the params of the named file, or nullopt when the hardware has no `network:`
    /// (then the model runs nothing and says why).
    NetOpModel(std::optional<NetParams> network,
               Algorithm algorithm,
               std::optional<Protocol> protocol,
               Choice choice,
               const energy::EnergyTable& energy,
               double link_roof,
               uint32_t sm_count,
               exec::DeviceExecutor& executor);

    bool supports(const Op& op) const override { return why_unsupported(op).empty(); }
    std::string why_unsupported(const Op& op) const override;
    OpResult execute(const Op& op) override;

  private:
    /// The network of `group` GPUs (built once per group size).
    const Topology& topology_for(uint64_t group) const;
    NetParams params_for(uint64_t group) const;

    std::optional<NetParams> network_;
    Algorithm algorithm_;
    std::optional<Protocol> protocol_;
    Choice choice_;
    energy::EnergyTable energy_;
    double link_roof_;
    uint32_t sm_count_;  ///< the GPU's SMs: a collective holds one per NCCL channel
    exec::DeviceExecutor& executor_;
    mutable std::map<uint64_t, std::unique_ptr<Topology>> topologies_;  ///< a cache
};

/// The keys of a hardware file's `network:` section this model reads (network.channels is
/// hw::HardwareParams').
struct NetworkChoice {
    std::string topology;  ///< a configs/net preset or file, relative to the hardware file
    Algorithm algorithm = Algorithm::Auto;
    std::string protocol = "auto";  ///< simple, ll, ll128 or auto
    Choice choice = Choice::Nccl;   ///< how auto chooses: by NCCL's estimate, or the fastest
};
ParamTable<NetworkChoice> network_choice_param_table();

/// Reads the hardware file's optional `network:` section (topology: a configs/net file,
/// relative to the hardware file; algorithm: ring, tree, nvls, hierarchical or auto; protocol:
/// simple, ll, ll128 or auto; choose: nccl or fastest). Throws ConfigError.
std::optional<NetParams> network_of(const ConfigNode& hw,
                                    Algorithm& algorithm,
                                    std::optional<Protocol>& protocol,
                                    Choice& choice);

}  // namespace sim::net
