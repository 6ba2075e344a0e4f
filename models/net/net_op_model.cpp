// SPDX-License-Identifier: MIT
#include "models/net/net_op_model.h"

#include <filesystem>
#include <systemc>

#include "sim/config/loader.h"
#include "sim/config/presets.h"
#include "sim/exec/core/link_sends.h"

namespace sim::net {

namespace {

std::optional<Collective> collective_of(OpKind k) {
    switch (k) {
        case OpKind::AllReduce: return Collective::AllReduce;
        case OpKind::AllGather: return Collective::AllGather;
        case OpKind::ReduceScatter: return Collective::ReduceScatter;
        case OpKind::AllToAll: return Collective::AllToAll;
        default: return std::nullopt;
    }
}

exec::SendPattern send_pattern(OpKind k, Algorithm a) {
    if (k == OpKind::AllToAll) return exec::SendPattern::AllToAll;
    if (a == Algorithm::Nvls) return exec::SendPattern::ThroughSwitch;
    if (a == Algorithm::Tree) return exec::SendPattern::Chain;
    return exec::SendPattern::Ring;
}

}  // namespace

ParamTable<NetworkChoice> network_choice_param_table() {
    using P = NetworkChoice;
    ParamTable<P> t;
    t.text("topology", &P::topology,
           "the cluster network: a preset of configs/net/ or a file, relative to this one")
        .required();
    t.options("algorithm", &P::algorithm,
              {{"ring", Algorithm::Ring},
               {"tree", Algorithm::Tree},
               {"nvls", Algorithm::Nvls},
               {"hierarchical", Algorithm::Hierarchical},
               {"auto", Algorithm::Auto}},
              "the collective algorithm; auto: as NCCL's tuner picks, by its own estimate");
    t.options("protocol", &P::protocol,
              {{"simple", "simple"}, {"ll", "ll"}, {"ll128", "ll128"}, {"auto", "auto"}},
              "NCCL's protocol; auto: as NCCL's tuner picks");
    t.options("choose", &P::choice, {{"nccl", Choice::Nccl}, {"fastest", Choice::Fastest}},
              "how auto chooses: by NCCL's own estimate, as NCCL runs, or the fastest simulated");
    return t;
}

std::optional<NetParams> network_of(const ConfigNode& hw,
                                    Algorithm& algorithm,
                                    std::optional<Protocol>& protocol,
                                    Choice& choice) {
    algorithm = Algorithm::Auto;
    protocol.reset();
    choice = Choice::Nccl;
    const auto n = hw.optional_child("network");
    if (!n) return std::nullopt;
    NetworkChoice read;
    network_choice_param_table().read(*n, read);
    algorithm = read.algorithm;
    if (read.protocol != "auto") protocol = parse_protocol(read.protocol);
    choice = read.choice;
    const std::string& file = read.topology;
    // A preset name (dgx_h100) or a path relative to the file that names it, like extends;
    // from --set, relative to the working directory.
    const SourceLocation at = n->location_of("topology");
    const std::string base =
        at.line > 0 ? std::filesystem::path(at.file).parent_path().string() : std::string();
    const std::string path = resolve_preset("net", file, base, at, n->child_path("topology"));
    if (!std::filesystem::exists(path))
        n->fail("topology", "'" + file + "' not found (looked for " + path + ")");
    // Record where it was found, so that resolved_config.yaml (written elsewhere) still
    // names the same file: YAML nodes share their document.
    YAML::Node writable = n->yaml();
    writable["topology"] = std::filesystem::absolute(path).lexically_normal().string();
    const auto doc = load_config(path, {}, "net");
    const ConfigNode root = ConfigNode::root_of(doc);
    NetParams p = NetParams::from_config(root);
    root.reject_unknown_keys_recursive();
    return p;
}

NetOpModel::NetOpModel(std::optional<NetParams> network,
                       Algorithm algorithm,
                       std::optional<Protocol> protocol,
                       Choice choice,
                       const energy::EnergyTable& energy,
                       double link_roof,
                       uint32_t sm_count,
                       exec::DeviceExecutor& executor)
    : network_(std::move(network)),
      algorithm_(algorithm),
      protocol_(protocol),
      choice_(choice),
      energy_(energy),
      link_roof_(link_roof),
      sm_count_(sm_count),
      executor_(executor) {}

NetParams NetOpModel::params_for(uint64_t group) const {
    NetParams p = *network_;
    if (group <= p.gpus_per_node) {
        p.gpus_per_node = static_cast<uint32_t>(group);
        p.nodes = 1;
    } else {
        p.nodes = static_cast<uint32_t>(group / p.gpus_per_node);
    }
    p.collective.ranks_per_node = p.gpus_per_node;
    return p;
}

std::string NetOpModel::why_unsupported(const Op& op) const {
    if (!network_) return "the hardware file has no network: section";
    const auto c = collective_of(op.kind);
    if (!c) return "the network model runs allreduce, allgather, reducescatter and alltoall";
    const auto& p = std::get<::sim::CollectiveParams>(op.params);
    if (p.group < 2) return "a collective needs a group of at least 2";
    if (p.group > network_->gpus_per_node && !(network_->nic.bandwidth > 0)) {
        return "a group of " + std::to_string(p.group) + " spans nodes, and the network (" +
               network_->name + ") has no links.nic between nodes";
    }
    if (p.group > network_->gpus_per_node &&
        (p.group % network_->gpus_per_node != 0 || p.group / network_->gpus_per_node > 16384)) {
        return "a group of " + std::to_string(p.group) + " is not a whole number of " +
               std::to_string(network_->gpus_per_node) + "-GPU nodes (at most 16384)";
    }
    const NetParams np = params_for(p.group);
    std::string why = unsupported(topology_for(p.group), *c, algorithm_, np.collective);
    if (why.empty() && protocol_ && *protocol_ != Protocol::Simple &&
        (algorithm_ == Algorithm::Nvls || algorithm_ == Algorithm::Hierarchical ||
         *c == Collective::AllToAll)) {
        why = "network.protocol " + to_string(*protocol_) + " cannot run " + to_string(algorithm_) +
              " " + to_string(*c) + " (simple only)";
    }
    return why;
}

const Topology& NetOpModel::topology_for(uint64_t group) const {
    auto& t = topologies_[group];
    if (!t) {
        t = std::make_unique<Topology>();
        params_for(group).build_into(*t);
    }
    return *t;
}

OpResult NetOpModel::execute(const Op& op) {
    const auto& p = std::get<::sim::CollectiveParams>(op.params);
    const NetParams np = params_for(p.group);
    const CollectiveResult r = run_collective(
        topology_for(p.group),
        {*collective_of(op.kind), algorithm_, protocol_, static_cast<double>(p.bytes), choice_},
        np.collective);
    const auto duration = TimePs{static_cast<uint64_t>(r.time * 1e12 + 0.5)};
    // NCCL runs a collective as one CTA per channel: it holds those SMs, fills the links, and
    // reads what it sends and writes what it receives through the memory port.
    exec::Job job{duration};
    job.link = 1;
    job.compute = std::min(1.0, double(std::max<uint32_t>(r.channels, 1)) / double(sm_count_));
    job.memory_bytes = 2 * r.bytes_sent_per_rank;
    // Over named devices, what it sends crosses the system's link modules.
    job.link_sends =
        exec::group_sends(op, send_pattern(op.kind, r.algorithm), r.bytes_sent_per_rank, executor_);
    const exec::JobTimes ran = executor_.run(job);
    const TimePs start = ran.start;
    const TimePs end = ran.end;

    OpResult res;
    res.start = start;
    res.end = end;
    res.cost = cost_of(op);
    res.roof_bandwidth = link_roof_;
    res.bound = "network";
    res.fidelity = Fidelity::Cycle;
    res.model = "gpu.net";
    res.energy = energy::charge(energy_, res.cost);
    res.static_power = energy_.static_power;
    return res;
}

}  // namespace sim::net
