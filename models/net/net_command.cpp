// SPDX-License-Identifier: MIT
// `wallsim net`: a collective over a cluster network at a range of message sizes, reported the
// way nccl-tests does (time, algorithm bandwidth, bus bandwidth), with per-link utilisation.
#include <boost/program_options.hpp>

#include <cstdio>
#include <map>
#include <optional>

#include "models/net/net_params.h"
#include "models/net/register.h"
#include "sim/config/loader.h"
#include "sim/config/presets.h"
#include "sim/engine/command_line.h"
#include "sim/engine/output_dir.h"
#include "sim/stats/group.h"

namespace sim::net {

namespace po = boost::program_options;

namespace {

// "8B:8GiB" (doubling) or a single size.
std::vector<uint64_t> sizes_option(const std::string& text) {
    const size_t colon = text.find(':');
    try {
        if (colon == std::string::npos) return {parse_size_bytes(text)};
        const uint64_t lo = parse_size_bytes(text.substr(0, colon));
        const uint64_t hi = parse_size_bytes(text.substr(colon + 1));
        if (lo == 0 || hi < lo)
            throw std::invalid_argument("expected LOW:HIGH with 0 < LOW <= HIGH");
        std::vector<uint64_t> out;
        for (uint64_t s = lo; s <= hi; s *= 2) {
            out.push_back(s);
            if (s > (uint64_t{1} << 62)) break;
        }
        return out;
    } catch (const std::invalid_argument& e) {
        throw option_error("--sizes", "'" + text + "': " + e.what());
    }
}

struct LinkUse {
    double busiest = 0, total = 0;
    uint32_t links = 0;
};

// Utilisation of each link kind over the collective: bytes / (effective bandwidth × time).
std::map<std::string, LinkUse> link_use(const Topology& t, const CollectiveResult& r) {
    std::map<std::string, LinkUse> use;
    for (uint32_t l = 0; l < t.link_count(); ++l) {
        LinkUse& u = use[t.link(l).kind];
        const double share =
            r.time > 0 ? r.link_bytes[l] / (t.link(l).effective_bandwidth() * r.time) : 0;
        u.busiest = std::max(u.busiest, share);
        u.total += share;
        ++u.links;
    }
    return use;
}

// The topology, with a disconnected or malformed network reported against the file.
Topology build_topology(const NetParams& params, const ConfigNode& root) {
    try {
        return params.build();
    } catch (const std::invalid_argument& e) {
        throw ConfigError(root.location(), "", e.what());
    }
}

}  // namespace

int run_net_command(const Registry& /*registry*/, const std::vector<std::string>& args) {
    std::string file, collective_text, algorithm_text, protocol_text, choice_text, sizes_text,
        out_dir;
    std::vector<std::string> overrides;
    po::options_description opts("wallsim net options");
    auto add = opts.add_options();
    add("help,h", "show this help");
    add("topology", po::value(&file)->required(),
        "cluster network: a preset name (dgx_h100; see wallsim list) or a .yaml file");
    add("set", po::value(&overrides)->composing(), "override a config key: a.b=value");
    add("collective", po::value(&collective_text)->default_value("allreduce"),
        "allreduce, allgather, reducescatter or alltoall (a direct exchange)");
    add("algo", po::value(&algorithm_text)->default_value("auto"),
        "ring, tree, nvls, hierarchical (the last three: allreduce only) or auto (one of ring, "
        "tree and nvls, chosen as --choose says)");
    add("proto", po::value(&protocol_text)->default_value("auto"),
        "simple, ll, ll128 (NCCL's protocols) or auto (chosen as --choose says)");
    add("choose", po::value(&choice_text)->default_value("nccl"),
        "how auto chooses: nccl (by NCCL's own estimate, as NCCL runs) or fastest (every "
        "choice simulated, the fastest kept)");
    add("sizes", po::value(&sizes_text)->default_value("8B:8GiB"),
        "message size per rank, or LOW:HIGH doubling (nccl-tests' -b/-e/-f 2)");
    add("out", po::value(&out_dir), "write net.csv and stats.json here");
    if (print_help_if_asked(opts, args)) return 0;
    parse_options(args, opts);

    Collective collective;
    Algorithm algorithm;
    std::optional<Protocol> protocol;
    try {
        collective = parse_collective(collective_text);
    } catch (const std::invalid_argument& e) {
        throw option_error("--collective", e.what());
    }
    try {
        algorithm = parse_algorithm(algorithm_text);
    } catch (const std::invalid_argument& e) {
        throw option_error("--algo", e.what());
    }
    try {
        if (protocol_text != "auto") protocol = parse_protocol(protocol_text);
    } catch (const std::invalid_argument& e) {
        throw option_error("--proto", e.what());
    }
    Choice choice;
    try {
        choice = parse_choice(choice_text);
    } catch (const std::invalid_argument& e) {
        throw option_error("--choose", e.what());
    }
    const std::vector<uint64_t> sizes = sizes_option(sizes_text);

    const auto doc =
        load_config(resolve_preset("net", file, "", {"--topology", 0, 0}, ""), overrides, "net");
    const ConfigNode root = ConfigNode::root_of(doc);
    const NetParams params = NetParams::from_config(root);
    root.reject_unknown_keys_recursive();
    const Topology topology = build_topology(params, root);
    const auto ranks = static_cast<uint32_t>(topology.gpus().size());
    if (const std::string why = unsupported(topology, collective, algorithm, params.collective);
        !why.empty()) {
        throw option_error("--algo", why);
    }
    if (protocol && collective == Collective::AllToAll) {
        throw option_error("--proto",
                           "an alltoall's sends run LL or Simple by the size of each piece, as "
                           "NCCL's do (nccl.p2p.ll_threshold); --proto is for the other "
                           "collectives");
    }
    if (protocol && *protocol != Protocol::Simple &&
        (algorithm == Algorithm::Nvls || algorithm == Algorithm::Hierarchical)) {
        throw option_error("--proto", to_string(algorithm) + " " + to_string(collective) +
                                          " runs the simple protocol only");
    }
    std::unique_ptr<OutputDir> out;
    if (!out_dir.empty()) out = std::make_unique<OutputDir>(out_dir);

    std::printf("%s: %s %s over %u GPUs (%u nodes x %u)\n", params.name.c_str(),
                to_string(collective).c_str(), to_string(algorithm).c_str(), ranks, params.nodes,
                params.gpus_per_node);
    std::printf("%14s %12s %12s %12s %8s %-12s %-7s %8s\n", "size (B)", "time (us)", "algbw (GB/s)",
                "busbw (GB/s)", "steps", "algorithm", "proto", "channels");
    std::string csv =
        "bytes,time_us,algbw_gbps,busbw_gbps,steps,bytes_sent_per_rank,algorithm,protocol,"
        "channels\n";
    CollectiveResult last;
    for (uint64_t size : sizes) {
        CollectiveResult r;
        try {
            r = run_collective(topology, {collective, algorithm, protocol, double(size), choice},
                               params.collective);
        } catch (const std::invalid_argument& e) {
            throw option_error("--algo", e.what());
        }
        const std::string algo =
            collective == Collective::AllToAll ? "direct" : to_string(r.algorithm);
        const std::string proto = r.protocol ? to_string(*r.protocol) : "-";
        std::printf("%14llu %12.2f %12.2f %12.2f %8llu %-12s %-7s %8u\n",
                    static_cast<unsigned long long>(size), r.time * 1e6, r.algbw / 1e9,
                    r.busbw / 1e9, static_cast<unsigned long long>(r.steps), algo.c_str(),
                    proto.c_str(), r.channels);
        char line[224];
        std::snprintf(line, sizeof line, "%llu,%.9g,%.9g,%.9g,%llu,%.9g,%s,%s,%u\n",
                      static_cast<unsigned long long>(size), r.time * 1e6, r.algbw / 1e9,
                      r.busbw / 1e9, static_cast<unsigned long long>(r.steps),
                      r.bytes_sent_per_rank, algo.c_str(), proto.c_str(), r.channels);
        csv += line;
        last = std::move(r);
    }
    const auto use = link_use(topology, last);
    std::printf("link utilisation at %llu B:", static_cast<unsigned long long>(sizes.back()));
    for (const auto& [kind, u] : use)
        std::printf("  %s busiest %.0f%%, mean %.0f%%", kind.c_str(), 100 * u.busiest,
                    100 * u.total / u.links);
    std::printf("\n");
    if (out) {
        StatGroup stats(nullptr, "");
        StatGroup& g = stats.add_group("net_run");
        g.add_counter("ranks", "count", "GPUs taking part") += ranks;
        g.add_scalar("bytes", "B", "largest message size").set(double(sizes.back()));
        g.add_scalar("time", "s", "time of the largest message").set(last.time);
        g.add_scalar("algbw", "B/s", "size / time (nccl-tests)").set(last.algbw);
        g.add_scalar("busbw", "B/s", "algbw x bus factor (nccl-tests)").set(last.busbw);
        g.add_scalar("bytes_sent_per_rank", "B", "most bytes any rank sent")
            .set(last.bytes_sent_per_rank);
        StatGroup& links = g.add_group("links");
        for (const auto& [kind, u] : use) {
            StatGroup& k = links.add_group(kind);
            k.add_counter("count", "count", "directed links of this kind") += u.links;
            k.add_scalar("busiest_utilisation", "ratio", "busiest link: bytes / (bandwidth x time)")
                .set(u.busiest);
            k.add_scalar("mean_utilisation", "ratio", "mean over the links of this kind")
                .set(u.total / u.links);
        }
        out->write_stats({{"topology", file},
                          {"name", params.name},
                          {"collective", to_string(collective)},
                          {"algorithm", to_string(algorithm)},
                          {"protocol", protocol ? to_string(*protocol) : "auto"},
                          {"choice", to_string(choice)},
                          {"overrides", overrides}},
                         stats);
        out->write("net.csv", csv);
        out->commit();
    }
    return 0;
}

}  // namespace sim::net
