// SPDX-License-Identifier: MIT
// NCCL's choice of algorithm and protocol, made the way NCCL 2.18.5 makes it: for every pair it
// can run, an estimate latency + size / bandwidth (src/graph/tuning.cc, ncclTopoTuneModel and
// ncclTopoGetAlgoTime), from the channels and per-channel bandwidth its topology search finds
// (src/graph/search.cc) and its own tables of latencies and per-channel limits. NCCL runs the
// pair with the lowest estimate, which need not be the fastest: the estimate is NCCL's, the
// time is the simulation's. Sources: docs/references.md [nccl] at tag v2.18.5-1. Pure C++.
#pragma once

#include <cstdint>

#include "models/net/core/collective.h"

namespace sim::net {

/// The machine as NCCL's tuner sees it.
struct TunerMachine {
    uint32_t ranks = 0;
    uint32_t nodes = 1;
    GpuGeneration generation = GpuGeneration::Hopper;
    bool nvlink = true;          ///< GPUs of a node reach each other over NVLink (else PCIe)
    double gpu_bandwidth = 0;    ///< GB/s NCCL counts for one GPU's links inside its node
    double nic_bandwidth = 0;    ///< GB/s of one NIC's port (nodes > 1)
    uint32_t nics_per_node = 0;  ///< one per GPU on the cluster presets
    bool nvls = false;           ///< NVLink SHARP on a single NVSwitch (nccl.nvls_channels > 0)
};

/// What NCCL's topology search finds for one algorithm: channels, each moving bw_intra GB/s
/// inside a node and bw_inter GB/s between nodes (before NCCL duplicates the channels it runs).
struct SearchedGraph {
    uint32_t channels = 0;
    double bw_intra = 0;
    double bw_inter = 0;
};

/// The machine of a routed topology: the first GPU's link to the next GPU for the intra-node
/// bandwidth (NCCL's count, the link's effective rate), its link towards the next node's first
/// GPU for the NIC (the port's raw rate, as NCCL reads it from the device).
TunerMachine tuner_machine(const Topology& topology, const CollectiveParams& params);

/// NCCL's search for algorithm a (Ring, Tree or Nvls): the highest of its speeds (GB/s per
/// channel) that the GPU's links and NICs carry on as many channels as fit, trying lower
/// speeds while they keep more than 49% of the first and keeping the best total; a tree's
/// intra-node speed then rises to at most twice its inter-node one; a graph of 25 GB/s per
/// channel or more is split into twice the channels at half the speed (Hopper: not below
/// 50 GB/s on more than 4 channels). NVLS: one channel per GPU.
SearchedGraph search_graph(const TunerMachine& m, Algorithm a);

/// NCCL's estimate of the collective's time in seconds; infinity for a pair NCCL does not run
/// here (a protocol params disables, NVLS without NVLink SHARP, a tree for other than
/// AllReduce). Multi-node hosts are taken to be Intel CPUs (tuning.cc's netOverhead and LL
/// limits differ on AMD).
double nccl_estimate(const TunerMachine& m,
                     const NcclParams& params,
                     Collective c,
                     Algorithm a,
                     Protocol p,
                     double bytes);

}  // namespace sim::net
