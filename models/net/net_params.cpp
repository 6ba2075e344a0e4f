// SPDX-License-Identifier: MIT
#include "models/net/net_params.h"

#include <limits>
#include <stdexcept>
#include <tuple>

namespace sim::net {

namespace {

LinkParams read_link(const ConfigNode& links, const std::string& key, bool required) {
    LinkParams l;
    l.kind = key;
    const auto n = links.optional_child(key);
    if (!n) {
        if (required) links.fail(key, "required link is missing");
        return l;
    }
    link_param_table().read(*n, l);
    return l;
}

void read_nccl(const ConfigNode& n, NcclParams& p) {
    nccl_param_table().read(n, p);
    const std::tuple<const char*, Protocol, ProtocolParams NcclParams::*> protocols[] = {
        {"simple", Protocol::Simple, &NcclParams::simple},
        {"ll", Protocol::LL, &NcclParams::ll},
        {"ll128", Protocol::LL128, &NcclParams::ll128}};
    for (const auto& [key, protocol, member] : protocols) {
        if (auto q = n.optional_child(key)) protocol_param_table(protocol).read(*q, p.*member);
    }
    if (auto q = n.optional_child("p2p")) p2p_param_table().read(*q, p.p2p);
}

}  // namespace

ParamTable<ProtocolParams> protocol_param_table(Protocol protocol) {
    using P = ProtocolParams;
    constexpr double kUnbounded = std::numeric_limits<double>::infinity();
    ParamTable<P> t(NcclParams{}.protocol(protocol));
    t.flag("enabled", &P::enabled, "false: NCCL does not run it here (LL128 over PCIe)");
    t.quantity("base_latency", &P::base_latency, Dimension::Time, 0, kUnbounded,
               "per collective: kernel setup");
    t.quantity("ring_hop_latency", &P::ring_hop_latency, Dimension::Time, 0, kUnbounded,
               "per ring step: wire, flag wait and fence");
    t.quantity("tree_hop_latency", &P::tree_hop_latency, Dimension::Time, 0, kUnbounded,
               "per tree step");
    t.quantity("net_ring_hop_latency", &P::net_ring_hop_latency, Dimension::Time, 0, kUnbounded,
               "a ring hop between nodes instead of ring_hop_latency (network proxy)");
    t.quantity("net_tree_hop_latency", &P::net_tree_hop_latency, Dimension::Time, 0, kUnbounded,
               "a tree level between nodes instead of tree_hop_latency");
    t.quantity("channel_bandwidth", &P::channel_bandwidth, Dimension::Bandwidth, 0, kUnbounded,
               "data one ring channel's CTA moves; 0: no limit");
    t.quantity("tree_channel_bandwidth", &P::tree_channel_bandwidth, Dimension::Bandwidth, 0,
               kUnbounded, "the same on a tree; 0: no limit");
    t.quantity("chunk", &P::chunk, Dimension::Size, 128, kUnbounded,
               "data a ring channel moves per step at most");
    t.quantity("tree_chunk", &P::tree_chunk, Dimension::Size, 128, kUnbounded,
               "data a tree channel moves per step at most");
    t.integer("ring_slices", &P::ring_slices, 1, 8, "rounds",
              "synchronisation rounds (slices) per ring step, each paying ring_hop_latency");
    return t;
}

ParamTable<P2pParams> p2p_param_table() {
    using P = P2pParams;
    constexpr double kUnbounded = std::numeric_limits<double>::infinity();
    ParamTable<P> t;
    t.integer("path_channels", &P::path_channels, 1, 64, "channels",
              "channels a path between two GPUs of a node asks for: 2 per NVLink, 2 over PCIe");
    t.integer("net_channels_per_peer", &P::net_channels_per_peer, 1, 32, "channels",
              "channels per peer once any peer is on another node (NCCL_NCHANNELS_PER_NET_PEER)");
    t.quantity("chunk", &P::chunk, Dimension::Size, 4096, kUnbounded,
               "Simple step of a send inside a node (P2P_NVL_CHUNKSIZE; P2P_PCI_CHUNKSIZE)");
    t.quantity("net_chunk", &P::net_chunk, Dimension::Size, 4096, kUnbounded,
               "Simple step of a send across nodes (P2P_NET_CHUNKSIZE)");
    t.quantity("ll_threshold", &P::ll_threshold, Dimension::Size, 0, kUnbounded,
               "pieces of a send this small or smaller run LL (P2P_LL_THRESHOLD)");
    t.quantity("channel_bandwidth", &P::channel_bandwidth, Dimension::Bandwidth, 0, kUnbounded,
               "data one channel's CTA sends per second, its sends together; 0: no limit");
    return t;
}

ParamTable<NetParams> network_param_table() {
    using P = NetParams;
    ParamTable<P> t;
    t.text("name", &P::name, "free text naming the cluster in reports");
    t.integer("nodes", &P::nodes, 1, 16384, "nodes", "nodes of the cluster").required();
    t.integer("gpus_per_node", &P::gpus_per_node, 1, 64, "GPUs", "GPUs in each node").required();
    t.options("intra_node", &P::intra_node, {{"nvswitch", "nvswitch"}, {"pcie_tree", "pcie_tree"}},
              "inside a node: every GPU on one NVSwitch, or on two PCIe switches under the CPU");
    t.options("inter_node", &P::inter_node,
              {{"rail_optimised", "rail_optimised"}, {"fat_tree", "fat_tree"}},
              "across nodes: GPU i of every node on leaf i, or GPUs filling leaves in rank order");
    return t;
}

ParamTable<NetParams> fabric_param_table() {
    using P = NetParams;
    ParamTable<P> t;
    t.integer("gpus_per_leaf", &P::gpus_per_leaf, 1, UINT32_MAX, "NICs",
              "fat_tree: NICs per leaf switch");
    t.number("oversubscription", &P::oversubscription, 1, std::numeric_limits<double>::infinity(),
             false, "ratio", "leaf downlink over uplink capacity; 1: non-blocking");
    t.quantity("spine_latency", &P::spine_latency, Dimension::Time, 0,
               std::numeric_limits<double>::infinity(), "per leaf-spine hop");
    return t;
}

ParamTable<LinkParams> link_param_table() {
    using P = LinkParams;
    ParamTable<P> t;
    t.custom({"kind", "text", "the link's key", "any", "",
              "names the link in reports, e.g. nvlink4 or ib_ndr"},
             [](const ConfigNode& n, P& l) { n.get("kind", l.kind); });
    t.quantity("bandwidth", &P::bandwidth, Dimension::Bandwidth, 1,
               std::numeric_limits<double>::infinity(), "raw rate per direction, e.g. 450GB/s")
        .required();
    t.number("efficiency", &P::efficiency, 0, 1, true, "ratio",
             "share of the raw rate left after protocol overhead");
    t.quantity("latency", &P::latency, Dimension::Time, 0, std::numeric_limits<double>::infinity(),
               "per traversal: wire, SerDes, switch hop");
    return t;
}

ParamTable<CollectiveParams> collective_param_table() {
    using P = CollectiveParams;
    ParamTable<P> t;
    t.quantity("step_latency", &P::step_latency, Dimension::Time, 0,
               std::numeric_limits<double>::infinity(), "per step of a hierarchical collective");
    return t;
}

ParamTable<NcclParams> nccl_param_table() {
    using P = NcclParams;
    constexpr double kNoLimit = std::numeric_limits<double>::infinity();
    ParamTable<P> t;
    t.options("generation", &P::generation,
              {{"volta", GpuGeneration::Volta},
               {"ampere", GpuGeneration::Ampere},
               {"hopper", GpuGeneration::Hopper}},
              "the GPUs' generation: the rows of NCCL's tuner tables and search speeds");
    t.quantity("launch_latency", &P::launch_latency, Dimension::Time, 0, kNoLimit,
               "what the host and the kernel launch add to each collective");
    t.integer("ring_channels", &P::ring_channels, 1, 64, "channels",
              "channels (one CTA each) of a ring collective");
    t.integer("tree_channels", &P::tree_channels, 1, 64, "channels",
              "channels of a tree AllReduce");
    t.integer("nvls_channels", &P::nvls_channels, 0, 64, "channels",
              "channels of an NVLS AllReduce; 0: no NVLink SHARP");
    t.number("nvls_efficiency", &P::nvls_efficiency, 0, 1, true, "ratio",
             "share of the link rate NVLS multimem traffic reaches");
    t.quantity("nvls_latency", &P::nvls_latency, Dimension::Time, 0, kNoLimit,
               "per NVLS collective: its multicast barriers");
    t.quantity("nvls_chunk", &P::nvls_chunk, Dimension::Size, 16 * 1024, kNoLimit,
               "data per NVLS chunk at most");
    t.quantity("nvls_chunk_overhead", &P::nvls_chunk_overhead, Dimension::Time, 0, kNoLimit,
               "per NVLS chunk round: its barriers");
    return t;
}

NetParams NetParams::from_config(const ConfigNode& root) {
    NetParams p;
    network_param_table().read(root, p);
    const ConfigNode links = root.child("links");
    p.nvlink = read_link(links, "nvlink", p.intra_node == "nvswitch" && p.gpus_per_node > 1);
    p.pcie = read_link(links, "pcie", p.intra_node == "pcie_tree" && p.gpus_per_node > 1);
    p.nic = read_link(links, "nic", p.nodes > 1);
    if (auto fabric = root.optional_child("fabric")) fabric_param_table().read(*fabric, p);
    if (auto c = root.optional_child("collective")) collective_param_table().read(*c, p.collective);
    if (auto n = root.optional_child("nccl")) read_nccl(*n, p.collective.nccl);
    p.collective.ranks_per_node = p.gpus_per_node;
    return p;
}

void NetParams::build_into(Topology& t) const {
    const uint32_t g = gpus_per_node;
    std::vector<uint32_t> gpu;  // by rank
    for (uint32_t n = 0; n < nodes; ++n) {
        const std::string node = "node" + std::to_string(n);
        std::vector<uint32_t> local;
        for (uint32_t i = 0; i < g; ++i)
            local.push_back(t.add_gpu(node + ".gpu" + std::to_string(i)));
        gpu.insert(gpu.end(), local.begin(), local.end());
        if (g < 2) continue;
        if (intra_node == "nvswitch") {
            // NVSwitch: every GPU reaches every other at full NVLink bandwidth.
            const uint32_t sw = t.add_switch(node + ".nvswitch");
            for (uint32_t v : local)
                t.connect(v, sw, nvlink);
        } else {
            // PCIe tree: GPUs split over two PCIe switches under the CPU's root complex, so
            // traffic between the halves shares the switches' uplinks.
            const uint32_t root = t.add_switch(node + ".cpu");
            const uint32_t halves = g >= 4 ? 2 : 1;
            for (uint32_t h = 0; h < halves; ++h) {
                const uint32_t sw = t.add_switch(node + ".pcie_switch" + std::to_string(h));
                t.connect(sw, root, pcie);
                for (uint32_t i = h * g / halves; i < (h + 1) * g / halves; ++i)
                    t.connect(local[i], sw, pcie);
            }
        }
    }
    if (nodes > 1) {
        // One NIC per GPU. Rail-optimised: GPU i of every node on leaf i. Fat tree: GPUs fill
        // leaves in rank order.
        const uint32_t spine = t.add_switch("spine");
        const uint32_t total = nodes * g;
        const uint32_t per_leaf = inter_node == "rail_optimised" ? nodes : gpus_per_leaf;
        const uint32_t leaves =
            inter_node == "rail_optimised" ? g : (total + gpus_per_leaf - 1) / gpus_per_leaf;
        std::vector<uint32_t> leaf(leaves);
        for (uint32_t l = 0; l < leaves; ++l) {
            leaf[l] = t.add_switch("leaf" + std::to_string(l));
            LinkParams up = nic;
            up.kind = "spine";
            up.bandwidth = nic.bandwidth * per_leaf / oversubscription;
            up.latency = spine_latency;
            t.connect(leaf[l], spine, up);
        }
        for (uint32_t r = 0; r < total; ++r) {
            const uint32_t l = inter_node == "rail_optimised" ? r % g : r / gpus_per_leaf;
            t.connect(gpu[r], leaf[l], nic);
        }
    }
    t.finalise();
}

}  // namespace sim::net
