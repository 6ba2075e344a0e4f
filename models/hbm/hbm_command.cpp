// SPDX-License-Identifier: MIT
// `wallsim hbm`: drives the cycle-level HBM model of a hardware file with a traffic pattern or
// a DRAM address trace (Ramulator 2 LoadStoreTrace, DRAMSim3) and reports bandwidth, loaded
// latency, row-buffer behaviour, refresh share and energy.
#include <boost/program_options.hpp>

#include "models/hbm/core/trace_replay.h"
#include "models/hbm/core/traffic.h"
#include "models/hbm/hbm_params.h"
#include "models/hbm/hbm_stats.h"
#include "models/hbm/register.h"
#include "sim/config/loader.h"
#include "sim/config/resolved.h"
#include "sim/engine/command_line.h"
#include "sim/engine/output_dir.h"
#include "sim/engine/run.h"

namespace sim::hbm {

namespace po = boost::program_options;

namespace {

uint64_t size_option(const std::string& option, const std::string& text) {
    try {
        return parse_size_bytes(text);
    } catch (const std::invalid_argument& e) {
        throw option_error(option, e.what());
    }
}

}  // namespace

int run_hbm_command(const Registry& registry, const std::vector<std::string>& args) {
    std::string hw_file, pattern, bytes_text, offered_text, stride_text, out_dir, request_text,
        outstanding_text, seed_text, trace_file, trace_format_text, issue_text;
    std::vector<std::string> overrides;
    po::options_description opts("wallsim hbm options");
    opts.add_options()("help,h", "show this help")("hw", po::value(&hw_file)->required(),
                                                   "hardware config")(
        "set", po::value(&overrides)->composing(),
        "override a config key: a.b.c=value (repeatable)")(
        "pattern", po::value(&pattern)->default_value("stream"),
        "stream, write_stream, read2_write1, copy, random or strided")(
        "bytes", po::value(&bytes_text)->default_value("1GiB"), "total bytes requested")(
        "request-bytes", po::value(&request_text),
        "bytes per request (default: 64 for a pattern, one burst for a trace)")(
        "trace", po::value(&trace_file),
        "replay a DRAM address trace instead of a pattern: Ramulator 2 LoadStoreTrace "
        "(LD/ST <addr>) or DRAMSim3 (<hex addr> READ|WRITE <cycle>)")(
        "trace-format", po::value(&trace_format_text)->default_value("auto"),
        "auto, ramulator or dramsim3")(
        "issue-per-cycle", po::value(&issue_text),
        "trace requests the front end may send per memory clock; 0: unlimited (default: 0 "
        "for Ramulator traces, 1 for DRAMSim3 traces)")(
        "outstanding", po::value(&outstanding_text)->default_value("8192"),
        "requests in flight at most")(
        "offered", po::value(&offered_text),
        "offered bandwidth (e.g. 1TB/s); default: as fast as accepted")(
        "stride", po::value(&stride_text)->default_value("4KiB"),
        "bytes between requests (strided)")("seed", po::value(&seed_text)->default_value("1"),
                                            "seed of the random pattern")(
        "out", po::value(&out_dir), "write stats.json, stats.txt and resolved_config.yaml here");
    if (print_help_if_asked(opts, args)) return 0;
    const po::variables_map vm = parse_options(args, opts);
    if (!trace_file.empty()) {
        for (const char* option :
             {"pattern", "bytes", "outstanding", "offered", "stride", "seed"}) {
            if (vm.count(option) && !vm[option].defaulted()) {
                throw option_error(std::string("--") + option,
                                   "does not apply to --trace (the trace gives the accesses)");
            }
        }
    } else if (vm.count("issue-per-cycle") || !vm["trace-format"].defaulted()) {
        throw option_error(vm.count("issue-per-cycle") ? "--issue-per-cycle" : "--trace-format",
                           "applies only with --trace");
    }
    const bool traced = !trace_file.empty();

    TrafficParams tp;
    try {
        tp.pattern = parse_pattern(pattern);
    } catch (const std::invalid_argument& e) {
        throw option_error("--pattern", e.what());
    }
    tp.bytes = size_option("--bytes", bytes_text);
    tp.stride = size_option("--stride", stride_text);
    if (!request_text.empty()) {
        tp.request_bytes =
            static_cast<uint32_t>(whole_number_option("--request-bytes", request_text, 1, 1 << 20));
    }
    tp.outstanding =
        static_cast<uint32_t>(whole_number_option("--outstanding", outstanding_text, 1, 1 << 24));
    tp.seed = whole_number_option("--seed", seed_text, 0, UINT64_MAX);
    if (!offered_text.empty()) {
        try {
            tp.offered_bandwidth = parse_quantity(offered_text, Dimension::Bandwidth);
        } catch (const std::invalid_argument& e) {
            throw option_error("--offered", e.what());
        }
        // Below 1 MB/s a run would spend its time simulating refresh of an idle memory.
        if (!(tp.offered_bandwidth >= 1e6 && tp.offered_bandwidth <= 1e15)) {
            throw option_error("--offered", "must be between 1MB/s and 1000TB/s");
        }
    }
    TraceFormat trace_format = TraceFormat::Auto;
    try {
        trace_format = parse_trace_format(trace_format_text);
    } catch (const std::invalid_argument& e) {
        throw option_error("--trace-format", e.what());
    }

    StatGroup stats(nullptr, "");
    Logging logging(spdlog::level::warn, [] { return TimePs{0}; });
    const HardwareSetup setup(registry, hw_file, overrides, stats, logging, tp.seed);
    const HbmParams& params = resolved<HbmParams>(setup.root());
    HbmSystem system(params.core);
    const uint32_t access = params.core.shape.access_bytes;
    // A trace's accesses are one burst each by default, as Ramulator's transactions are.
    if (request_text.empty() && traced) tp.request_bytes = access;
    if (tp.request_bytes % access != 0 || tp.request_bytes > system.max_request_bytes() ||
        (traced && system.max_request_bytes() % tp.request_bytes != 0)) {
        throw option_error(
            "--request-bytes",
            "must be a multiple of the " + std::to_string(access) +
                " B access granularity and at most " + std::to_string(system.max_request_bytes()) +
                " B (what the mapping keeps in one row)" + (traced ? ", dividing it" : ""));
    }
    if (!traced && (tp.bytes < tp.request_bytes || tp.bytes % tp.request_bytes != 0 ||
                    tp.bytes > (uint64_t{1} << 50))) {
        throw option_error("--bytes",
                           "must be a whole number of requests (--request-bytes), at most 1PiB");
    }
    if (!traced && tp.pattern == Pattern::Strided &&
        (tp.stride == 0 || tp.stride % tp.request_bytes != 0 ||
         tp.stride > system.mapping().capacity())) {
        throw option_error("--stride",
                           "must be a positive multiple of --request-bytes, at most the capacity");
    }
    DramTrace trace;
    TraceReplayParams rp;
    if (traced) {
        trace = read_dram_trace(trace_file, trace_format);
        rp.request_bytes = tp.request_bytes;
        rp.issue_per_cycle = trace.format == TraceFormat::DramSim3 ? 1 : 0;
        if (!issue_text.empty()) {
            rp.issue_per_cycle = static_cast<uint32_t>(
                whole_number_option("--issue-per-cycle", issue_text, 0, 1 << 20));
        }
    }
    std::unique_ptr<OutputDir> out;
    if (!out_dir.empty()) out = std::make_unique<OutputDir>(out_dir);

    const TrafficResult result = traced ? replay_trace(system, trace, rp) : run_traffic(system, tp);
    StatGroup& hbm = stats.add_group("hbm_run");
    publish_hbm_run(hbm, params, system, result);

    const auto value = [&](const std::string& path) {
        const auto* stat = dynamic_cast<const Scalar*>(hbm.find(path));
        SIM_ASSERT(stat != nullptr, "no scalar stat hbm_run." << path);
        return stat->value();
    };
    const std::string what = traced ? "trace " + trace_file + " (" + to_string(trace.format) +
                                          ", " + std::to_string(result.requests) + " accesses)"
                                    : to_string(tp.pattern);
    std::printf("%s, %s, %s over %zu pseudo-channels\n", setup.name().c_str(),
                params.generation.c_str(), what.c_str(), system.pseudo_channel_count());
    std::printf("  bandwidth   %.1f GB/s of %.1f GB/s peak (%.1f%%)\n",
                value("achieved_bandwidth") / 1e9, value("peak_bandwidth") / 1e9,
                100 * value("bandwidth_utilisation"));
    std::printf("  read lat.   mean %.1f ns, p50 %.1f ns, p99 %.1f ns\n",
                value("read_latency.mean"), value("read_latency.p50"), value("read_latency.p99"));
    std::printf(
        "  rows        %.1f%% hits, %.1f%% misses, %.1f%% conflicts; refresh %.1f%% of time\n",
        100 * value("row_hit_rate"), 100 * value("row_miss_rate"), 100 * value("row_conflict_rate"),
        100 * value("refresh_time_share"));
    std::printf("  energy      %.3g J, %.2f pJ/bit\n", value("energy.total"),
                value("energy.per_bit") * 1e12);
    if (out) {
        Json meta{
            {"wallsim_version", WALLSIM_VERSION}, {"hw_name", setup.name()}, {"hw_file", hw_file}};
        if (traced) {
            meta["trace"] = trace_file;
            meta["trace_format"] = to_string(trace.format);
            meta["accesses"] = result.requests;
            meta["request_bytes"] = tp.request_bytes;
            meta["issue_per_cycle"] = rp.issue_per_cycle;
        } else {
            meta["pattern"] = pattern;
            meta["bytes"] = tp.bytes;
            meta["request_bytes"] = tp.request_bytes;
            meta["outstanding"] = tp.outstanding;
            meta["offered_bandwidth"] = tp.offered_bandwidth;
            meta["seed"] = tp.seed;
        }
        meta["overrides"] = overrides;
        out->write_stats(meta, stats);
        out->write("resolved_config.yaml", dump_config(setup.document()));
        out->commit();
    }
    return 0;
}

}  // namespace sim::hbm
