// SPDX-License-Identifier: MIT
// A cluster network from a configs/net file: nodes of GPUs joined inside by NVSwitch or a PCIe
// tree, and across by one NIC per GPU on a rail-optimised or fat-tree leaf/spine network. The
// spine is one logical non-blocking switch whose leaf uplinks carry the leaf's NIC bandwidth
// divided by the oversubscription (a non-blocking fat tree with ECMP behaves as one switch).
#pragma once

#include <string>

#include "models/net/core/collective.h"
#include "models/net/core/topology.h"
#include "sim/config/config_node.h"
#include "sim/config/param_table.h"

namespace sim::net {

struct NetParams {
    std::string name;
    uint32_t nodes = 1;
    uint32_t gpus_per_node = 8;
    std::string intra_node = "nvswitch";        ///< nvswitch or pcie_tree
    std::string inter_node = "rail_optimised";  ///< rail_optimised or fat_tree (nodes > 1)
    LinkParams nvlink, pcie, nic;
    uint32_t gpus_per_leaf = 32;  ///< fat_tree: NICs per leaf switch
    double oversubscription = 1;  ///< leaf downlink / uplink capacity, >= 1
    double spine_latency = 1e-6;  ///< s per leaf-spine hop
    CollectiveParams collective;

    /// Throws ConfigError naming file, line and key of a missing or impossible value.
    static NetParams from_config(const ConfigNode& root);
    /// The topology these params describe, routed (finalise() done).
    Topology build() const {
        Topology t;
        build_into(t);
        return t;
    }
    /// The same into an empty topology (the graph is expensive to copy).
    void build_into(Topology& t) const;
};

/// The described keys of a network file's nccl: section (its protocol subsections, whose
/// defaults differ per protocol, are read by hand); NcclParams' initialisers are the defaults.
ParamTable<NcclParams> nccl_param_table();
/// nccl.simple, nccl.ll or nccl.ll128: one protocol's keys, with NCCL's defaults for it.
ParamTable<ProtocolParams> protocol_param_table(Protocol protocol);
/// nccl.p2p: NCCL's send/receive knobs (AllToAll), with NCCL's defaults on NVLink.
ParamTable<P2pParams> p2p_param_table();
/// The described keys of a network file's top level, fabric:, links.<link> and collective:;
/// the structs' initialisers are the defaults.
ParamTable<NetParams> network_param_table();
ParamTable<NetParams> fabric_param_table();
ParamTable<LinkParams> link_param_table();
ParamTable<CollectiveParams> collective_param_table();

}  // namespace sim::net
