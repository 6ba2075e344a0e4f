// SPDX-License-Identifier: MIT
#include "sim/engine/run.h"

#include "sim/core/intervals.h"

#include <algorithm>
#include <map>

#include "sim/config/device_identity.h"
#include "sim/config/loader.h"
#include "sim/config/presets.h"
#include "sim/config/resolved.h"
#include "sim/engine/host_launch.h"
#include "sim/engine/inference_step.h"
#include "sim/engine/ops_csv.h"
#include "sim/engine/output_dir.h"
#include "sim/engine/pipeline_step.h"
#include "sim/engine/power_stats.h"
#include "sim/engine/precompute.h"
#include "sim/engine/progress.h"
#include "sim/engine/timeline_json.h"
#include "sim/engine/trace_driver.h"
#include "sim/engine/utilization.h"
#include "sim/system/system.h"
#include "sim/trace/memory_check.h"
#include "sim/trace/trace_parser.h"

namespace sim {

namespace {

std::string model_group_name(const std::string& model_name) {
    std::string s = model_name;
    std::replace(s.begin(), s.end(), '.', '_');
    return s;
}

int fidelity_rank(Fidelity f) {
    // auto prefers the most detailed model; sampled decides by itself when to go cycle-level.
    switch (f) {
        case Fidelity::Sampled: return 0;
        case Fidelity::Cycle: return 1;
        case Fidelity::Analytic: return 2;
    }
    return 3;
}

// The run's energy: what the operators caused, plus static power over the simulated time.
void publish_energy(
    StatGroup& g, const EnergyBreakdown& e, double static_power, double sim_seconds, double flops) {
    const double static_joules = static_power * sim_seconds;
    const double total = e.dynamic() + static_joules;
    g.add_scalar("compute", "J", "arithmetic and register-file operand traffic").set(e.compute);
    g.add_scalar("sram", "J", "L1 / shared-memory traffic").set(e.sram);
    g.add_scalar("l2", "J", "L2 traffic").set(e.l2);
    g.add_scalar("dram", "J", "device memory: activations, data bits, refresh").set(e.dram);
    g.add_scalar("link", "J", "bits sent on the device's links").set(e.link);
    g.add_scalar("host", "J", "bits over the host link").set(e.host);
    g.add_scalar("data_movement", "J", "sram + l2 + dram + link + host").set(e.data_movement());
    g.add_scalar("dynamic", "J", "compute + data movement").set(e.dynamic());
    g.add_scalar("static", "J", "static power x simulated time").set(static_joules);
    g.add_scalar("total", "J", "dynamic + static").set(total);
    g.add_scalar("data_movement_share", "ratio", "data movement / dynamic energy")
        .set(e.dynamic() > 0 ? e.data_movement() / e.dynamic() : 0.0);
    g.add_scalar("average_power", "W", "total energy / simulated time")
        .set(sim_seconds > 0 ? total / sim_seconds : 0.0);
    g.add_scalar("tflops_per_watt", "TFLOP/s/W", "achieved: all FLOPs / total energy / 1e12")
        .set(total > 0 ? flops / total / 1e12 : 0.0);
}

// How much of the collectives' time compute on other streams hid: the rest is exposed and
// lengthens the run (the quantity data-parallel training tries to drive to zero).
void publish_communication(StatGroup& g,
                           const std::vector<Interval>& communication,
                           const std::vector<Interval>& compute,
                           double sim_seconds) {
    const double busy = total_length(communication);
    const double hidden = overlap_length(communication, compute);
    g.add_scalar("time", "s", "time some collective was running").set(busy);
    g.add_scalar("overlapped", "s", "of which compute was running too").set(hidden);
    g.add_scalar("exposed", "s", "of which no compute was running").set(busy - hidden);
    g.add_scalar("share", "ratio", "communication time / simulated time")
        .set(sim_seconds > 0 ? busy / sim_seconds : 0.0);
    g.add_scalar("exposed_share", "ratio", "exposed communication / simulated time")
        .set(sim_seconds > 0 ? (busy - hidden) / sim_seconds : 0.0);
}

// Per-run aggregates derived from the per-op results (after the simulation, off the hot path).
void publish_run_stats(StatGroup& run, const Trace& trace, const std::vector<OpResult>& results) {
    TimePs end{0};
    double flops = 0, dram = 0, wire = 0, host = 0;
    Distribution& op_time = run.add_distribution("op_time", "s", "duration of one operator");
    Distribution& intensity = run.add_distribution(
        "op_intensity", "FLOP/B", "arithmetic intensity of operators that touch device memory");
    struct Slice {
        uint64_t ops = 0;
        double seconds = 0, flops = 0, bytes = 0, joules = 0;
    };
    EnergyBreakdown energy;
    double static_power = 0;
    std::vector<Interval> communication, compute;
    std::map<std::string, Slice> by_kind, by_bound;
    for (size_t i = 0; i < results.size(); ++i) {
        const OpResult& r = results[i];
        end = std::max(end, r.end);
        flops += r.cost.flops;
        dram += r.cost.dram_bytes;
        wire += r.cost.wire_bytes;
        host += r.cost.host_bytes;
        energy += r.energy;
        static_power = std::max(static_power, r.static_power);
        const Interval span{to_seconds(r.start), to_seconds(r.end)};
        if (r.cost.unit == ComputeUnit::Network) communication.push_back(span);
        if (r.cost.unit == ComputeUnit::Vector || r.cost.unit == ComputeUnit::Tensor)
            compute.push_back(span);
        const double seconds = to_seconds(r.end - r.start);
        op_time.sample(seconds);
        if (r.cost.dram_bytes > 0 && r.cost.unit != ComputeUnit::Network) {
            intensity.sample(r.cost.intensity());
        }
        for (auto* slice : {&by_kind[to_string(trace.ops[i].kind)], &by_bound[r.bound]}) {
            ++slice->ops;
            slice->seconds += seconds;
            slice->flops += r.cost.flops;
            slice->bytes += r.cost.dram_bytes;
            slice->joules += r.energy.dynamic();
        }
    }
    const double sim_seconds = to_seconds(end);
    run.add_scalar("sim_time", "s", "simulated time until the last operator finished")
        .set(sim_seconds);
    run.add_counter("ops", "count", "operators executed") += results.size();
    run.add_scalar("flops", "FLOP", "floating-point operations of all operators").set(flops);
    run.add_scalar("dram_bytes", "B", "device-memory bytes of all operators").set(dram);
    run.add_scalar("wire_bytes", "B", "bytes each device sent on its links").set(wire);
    run.add_scalar("host_bytes", "B", "bytes over the host link").set(host);
    run.add_scalar("achieved_flops", "FLOP/s", "all FLOPs / simulated time")
        .set(sim_seconds > 0 ? flops / sim_seconds : 0.0);
    run.add_scalar("achieved_bandwidth", "B/s", "all device-memory bytes / simulated time")
        .set(sim_seconds > 0 ? dram / sim_seconds : 0.0);

    const auto publish_slices = [&](StatGroup& g, const std::map<std::string, Slice>& slices,
                                    const std::string& what) {
        double total = 0;
        for (const auto& [name, s] : slices)
            total += s.seconds;
        for (const auto& [name, s] : slices) {
            StatGroup& k = g.add_group(name);
            k.add_counter("ops", "count", "operators " + what + " " + name) += s.ops;
            k.add_scalar("time", "s", "summed operator time " + what + " " + name).set(s.seconds);
            k.add_scalar("time_share", "ratio",
                         "share of summed operator time " + what + " " + name)
                .set(total > 0 ? s.seconds / total : 0.0);
            k.add_scalar("flops", "FLOP", "FLOPs " + what + " " + name).set(s.flops);
            k.add_scalar("dram_bytes", "B", "device-memory bytes " + what + " " + name)
                .set(s.bytes);
            k.add_scalar("energy", "J", "dynamic energy of operators " + what + " " + name)
                .set(s.joules);
        }
    };
    publish_energy(run.add_group("energy"), energy, static_power, sim_seconds, flops);
    publish_power(run.add_group("power"), results, energy.dynamic() + static_power * sim_seconds,
                  sim_seconds);
    publish_communication(run.add_group("communication"), merge_intervals(communication),
                          merge_intervals(compute), sim_seconds);
    publish_slices(run.add_group("by_kind"), by_kind, "of kind");
    publish_slices(run.add_group("by_bound"), by_bound, "bound by");
}

std::string resolved_config_text(const ConfigDocument& doc, const RunOptions& o) {
    std::string header =
        "# Resolved hardware configuration written by wallsim (extends and --set applied).\n";
    header += "# hw: " + o.hw_file + "\n# trace: " + o.trace_file + "\n# fidelity: " + o.fidelity +
              "\n# seed: " + std::to_string(o.seed) + "\n";
    for (const auto& s : o.overrides)
        header += "# --set " + s + "\n";
    return header + dump_config(doc);
}

// A system run's resolved configuration: every instance's resolved config under its name,
// with its kind, and the connections as written.
std::string resolved_system_text(const system::System& machine, const RunOptions& o) {
    YAML::Node root(YAML::NodeType::Map);
    root["system"] = machine.spec().name;
    for (const system::System::Instance& i : machine.instances()) {
        YAML::Node inst = YAML::Clone(i.spec->config->root());
        inst["kind"] = i.spec->kind;
        root["instances"][i.spec->name] = inst;
    }
    for (const system::ConnectionSpec& c : machine.spec().connections)
        root["connections"].push_back(c.from.text + " -> " + c.to.text);
    YAML::Emitter emit;
    emit << root;
    std::string header = "# Resolved system written by wallsim (extends and --set applied).\n";
    header += "# system: " + o.system_file + "\n# trace: " + o.trace_file + "\n";
    for (const auto& s : o.overrides)
        header += "# --set " + s + "\n";
    return header + emit.c_str() + "\n";
}

}  // namespace

// A collective over named devices and a peer copy send over the system's links: each device
// must reach the others through its link ports.
void check_links(const Op& op, const system::System& machine) {
    const exec::DeviceExecutor& device = *machine.find(op.device)->built.device;
    const std::string& file = machine.spec().file;
    std::vector<std::string> peers = op.group;
    std::string key = "group";
    if (const auto* m = std::get_if<MemcpyParams>(&op.params); m && m->direction == "p2p") {
        const system::System::Instance* to = machine.find(m->to);
        if (!to || !to->built.device)
            throw ConfigError(op.where, "to", "'" + m->to + "' is not a device of " + file);
        if (m->to == op.device)
            throw ConfigError(op.where, "to", "a peer copy goes to another device");
        peers = {m->to};
        key = "to";
    }
    for (const std::string& peer : peers) {
        if (peer == op.device || device.link_id_of(peer)) continue;
        throw ConfigError(op.where, key,
                          "'" + op.device + "' has no link path to '" + peer + "' in " + file +
                              "; connect their nvlink or pcie ports, directly or through a switch");
    }
}

std::vector<std::string> device_kinds(const Registry& registry) {
    std::vector<std::string> kinds;
    for (const DeviceEntry& d : registry.devices())
        kinds.push_back(d.kind);
    return kinds;
}

HardwareSetup::HardwareSetup(const Registry& registry,
                             std::shared_ptr<ConfigDocument> doc,
                             StatGroup& stats_root,
                             Logging& logging,
                             uint64_t seed,
                             exec::DeviceExecutor& executor,
                             SharedResults* shared)
    : doc_(std::move(doc)), logging_(logging) {
    const ConfigNode root = ConfigNode::root_of(doc_);
    const DeviceIdentity& identity = resolved<DeviceIdentity>(root);
    device_ = identity.required_device(root);
    const DeviceEntry* device = registry.find_device(device_);
    if (!device) {
        std::string list;
        for (const auto& d : registry.devices())
            list += (list.empty() ? "" : ", ") + d.kind;
        root.fail("device",
                  "'" + device_ + "' is not a registered device; expected one of: " + list);
    }
    name_ = identity.name;
    StatGroup& hw_stats = stats_root.add_group("hw");
    device->describe(root, hw_stats);
    for (const ComponentEntry& c : registry.components()) {
        if (c.device == device_) c.configure(root, hw_stats.add_group(c.name));
    }
    StatGroup& model_stats = stats_root.add_group("models");
    // The whole resolved configuration: devices that print the same are the same hardware.
    const std::string fingerprint = shared ? YAML::Dump(doc_->root()) : std::string();
    for (const ModelEntry* entry : registry.models_for(device_)) {
        StatGroup& g = model_stats.add_group(model_group_name(entry->name));
        models_.emplace_back(entry, entry->factory(ModelContext{root, g, logging, seed, executor,
                                                                shared, fingerprint}));
    }
    root.reject_unknown_keys_recursive();
}

HardwareSetup::HardwareSetup(const Registry& registry,
                             const std::string& hw_file,
                             const std::vector<std::string>& overrides,
                             StatGroup& stats_root,
                             Logging& logging,
                             uint64_t seed)
    : HardwareSetup(
          registry,
          load_config(resolve_preset("hw", hw_file, "", {"--hw", 0, 0}, ""), overrides, "hw"),
          stats_root,
          logging,
          seed,
          no_device_) {}

exec::JobTimes HardwareSetup::NoDevice::run(const exec::Job&) {
    throw SimBug("an operator ran on a device set up only to read its configuration");
}

OpModel& HardwareSetup::choose(const Op& op,
                               std::optional<Fidelity> requested,
                               Fallback* fallback) {
    OpModel* best = nullptr;
    const ModelEntry* best_entry = nullptr;
    OpModel* analytic = nullptr;
    const ModelEntry* declined = nullptr;  // the most detailed wanted model that declined op
    std::string reason;
    for (auto& [entry, model] : models_) {
        if (std::find(entry->kinds.begin(), entry->kinds.end(), op.kind) == entry->kinds.end())
            continue;
        // A model of another fidelity than the one asked for is not asked either: its lowering
        // (kernel shapes, occupancy) has no bearing on this op. The analytic model stays the
        // fallback.
        if (requested && entry->fidelity != *requested && entry->fidelity != Fidelity::Analytic)
            continue;
        const bool wanted = requested ? entry->fidelity == *requested : true;
        if (!model->supports(op)) {
            if (wanted &&
                (!declined || fidelity_rank(entry->fidelity) < fidelity_rank(declined->fidelity))) {
                declined = entry;
                reason = model->why_unsupported(op);
            }
            continue;
        }
        if (entry->fidelity == Fidelity::Analytic && !analytic) analytic = model.get();
        if (wanted &&
            (!best_entry || fidelity_rank(entry->fidelity) < fidelity_rank(best_entry->fidelity))) {
            best = model.get();
            best_entry = entry;
        }
    }
    // Under auto an op that only an analytic model was ever meant to run is not a fallback;
    // one a more detailed model declined is.
    if (best &&
        !(declined && fidelity_rank(declined->fidelity) < fidelity_rank(best_entry->fidelity))) {
        return *best;
    }
    if (best || analytic) {
        if (fallback) {
            fallback->wanted = to_string(declined    ? declined->fidelity
                                         : requested ? *requested
                                                     : Fidelity::Analytic);
            fallback->declined = declined ? declined->name : "";
            fallback->reason = reason;
            fallback->used = best ? best_entry->name : "gpu.analytic";
            for (auto& [entry, model] : models_) {
                if (model.get() == (best ? best : analytic)) fallback->used = entry->name;
            }
        }
        return best ? *best : *analytic;
    }
    throw ConfigError(op.where, "kind",
                      "no model can run this " + to_string(op.kind) + " operator on device '" +
                          device_ + "'" + (reason.empty() ? "" : ": " + reason));
}

RunSummary run_simulation(const Registry& registry,
                          const system::KindRegistry& kinds,
                          const RunOptions& options) {
    std::optional<Fidelity> requested;
    if (options.fidelity != "auto") {
        requested = parse_fidelity(options.fidelity);
        if (!requested) {
            throw ConfigError(
                {"--fidelity", 0, 0}, "--fidelity",
                "'" + options.fidelity + "' is not one of: auto, analytic, sampled, cycle");
        }
    }
    spdlog::level::level_enum level;
    try {
        level = Logging::parse_level(options.log_level);
    } catch (const std::invalid_argument& e) {
        throw ConfigError({"--log-level", 0, 0}, "", e.what());
    }
    Logging logging(level, [] { return TimePs{sc_core::sc_time_stamp().value()}; });
    for (const std::string& spec : options.log_levels) {
        const size_t eq = spec.find('=');
        if (eq == std::string::npos || eq == 0) {
            throw ConfigError({"--log", 0, 0}, "", "'" + spec + "': expected logger=level");
        }
        try {
            logging.set_level(spec.substr(0, eq), Logging::parse_level(spec.substr(eq + 1)));
        } catch (const std::invalid_argument& e) {
            throw ConfigError({"--log", 0, 0}, "", e.what());
        }
    }

    // Validate all inputs before the output directory is touched.
    StatGroup stats(nullptr, "");
    const std::vector<std::string> device_kind_names = device_kinds(registry);
    system::System machine(
        kinds,
        options.system_file.empty()
            ? system::single_device_spec(options.hw_file, options.overrides, device_kind_names)
            : system::SystemSpec::from_file(options.system_file, options.overrides,
                                            device_kind_names));
    const std::vector<const system::System::Instance*> devices = machine.devices();
    if (devices.empty()) {
        throw ConfigError({machine.spec().file, 0, 0}, "instances",
                          "the system has no device to run operators on");
    }
    // One device keeps the stats layout of a hardware file (hw.*, models.*); several get theirs
    // under devices.<name>.
    SharedResults shared_results;  // outlives the setups, whose models hold its tables
    std::vector<std::unique_ptr<HardwareSetup>> setups;
    StatGroup* per_device = devices.size() > 1 ? &stats.add_group("devices") : nullptr;
    for (const system::System::Instance* d : devices) {
        StatGroup& root = per_device ? per_device->add_group(d->spec->name) : stats;
        setups.push_back(std::make_unique<HardwareSetup>(registry, d->spec->config, root, logging,
                                                         options.seed, *d->built.device,
                                                         &shared_results));
    }
    Trace trace = parse_trace_file(options.trace_file);
    // The memory each device needs (the trace's memory: header) against its capacity.
    for (size_t d = 0; d < devices.size(); ++d) {
        StatGroup& root = per_device ? *per_device->find_group(devices[d]->spec->name) : stats;
        const uint64_t capacity = device_memory_capacity(root);
        if (trace.memory && capacity == 0)
            logging.get("engine")->warn(
                "device '{}' has no memory capacity; the trace's memory: is not checked",
                devices[d]->spec->name);
        check_declared_memory(trace, capacity, "hbm.capacity");
    }
    std::vector<OpModel*> models;
    models.reserve(trace.ops.size());
    std::vector<std::string> fallback_of(trace.ops.size());
    FallbackLog fallbacks;
    for (Op& op : trace.ops) {
        size_t d = 0;
        if (!op.device.empty()) {
            while (d < devices.size() && devices[d]->spec->name != op.device)
                ++d;
            if (d == devices.size()) {
                std::string names;
                for (const auto* dev : devices)
                    names += (names.empty() ? "" : ", ") + dev->spec->name;
                throw ConfigError(op.where, "device",
                                  "'" + op.device + "' is not a device of " + machine.spec().file +
                                      "; devices: " + names);
            }
        }
        op.device = devices[d]->spec->name;
        Fallback f;
        models.push_back(&setups[d]->choose(op, requested, &f));
        if (f.empty()) continue;
        fallbacks.add(op, f);
        fallback_of[op.index] = f.describe();
    }
    for (const Op& op : trace.ops)
        check_links(op, machine);
    if (options.strict && fallbacks.count() > 0) throw fallbacks.strict_error();
    OutputDir out(options.out_dir);

    auto engine_log = logging.get("engine");
    const PrecomputeSummary ahead = precompute_models(trace, models, options.threads);
    if (ahead.tasks > 0)
        engine_log->info("{} operator simulations ahead of the run on {} threads: {:.2f} s",
                         ahead.tasks, options.threads, ahead.wall_seconds);
    engine_log->info("{}: {} operators on {} stream(s), system '{}'", trace.name, trace.ops.size(),
                     trace.stream_count(), machine.spec().name);
    ProgressBar progress(trace.ops.size(), options.progress);
    TraceDriver driver("driver", trace, models, host_issue_times(trace, models),
                       [&progress](uint64_t done) {
                           progress.update(done, sc_core::sc_time_stamp().to_seconds());
                       });
    sc_core::sc_start();
    progress.finish();
    driver.rethrow_if_failed();
    SIM_ASSERT(driver.finished(), "the simulation stopped with operators still waiting");

    // After the run, so that a run that fails prints its one error line and nothing else.
    fallbacks.warn(*engine_log);
    for (size_t i = 0; i < fallback_of.size(); ++i) {
        if (!fallback_of[i].empty()) driver.results()[i].fallback = std::move(fallback_of[i]);
    }
    StatGroup& run_stats = stats.add_group("run");
    publish_run_stats(run_stats, trace, driver.results());
    fallbacks.publish(run_stats.add_group("fidelity"));
    const TimePs sim_end =
        std::max_element(driver.results().begin(), driver.results().end(),
                         [](const OpResult& a, const OpResult& b) { return a.end < b.end; })
            ->end;
    const auto pipeline = pipeline_step(trace, driver.results(), sim_end);
    if (pipeline) publish_pipeline_step(run_stats, *trace.pipeline, *pipeline);
    const auto inference = inference_times(trace, driver.results(), sim_end);
    if (inference) publish_inference(run_stats, trace, *inference);
    const Utilization utilization =
        utilization_of(trace, driver.results(), to_seconds(pipeline ? pipeline->step : sim_end));
    publish_utilization(run_stats, utilization);
    machine.publish(stats.add_group("system"));
    const HardwareSetup& first = *setups.front();
    Json meta = {{"wallsim_version", WALLSIM_VERSION}, {"hw_name", first.name()},
                 {"hw_file", options.hw_file},         {"device", first.device()},
                 {"trace_name", trace.name},           {"trace_file", options.trace_file},
                 {"fidelity", options.fidelity},       {"seed", options.seed},
                 {"overrides", options.overrides}};
    if (!options.system_file.empty()) {
        meta["system_file"] = options.system_file;
        meta["system"] = machine.spec().name;
        std::vector<std::string> names;
        for (const auto* d : devices)
            names.push_back(d->spec->name);
        meta["devices"] = names;
    }
    out.write_stats(meta, stats);
    out.write("ops.csv", format_ops_csv(trace, driver.results()));
    const std::string kernels = format_kernels_csv(trace, driver.results());
    if (!kernels.empty()) out.write("kernels.csv", kernels);
    out.write("timeline.json", format_timeline_json(trace, driver.results(), machine.spec().name));
    out.write("resolved_config.yaml", options.system_file.empty()
                                          ? resolved_config_text(first.document(), options)
                                          : resolved_system_text(machine, options));
    out.commit();

    RunSummary summary;
    summary.sim_seconds = to_seconds(sim_end);
    if (pipeline) {
        summary.step_seconds = to_seconds(pipeline->step);
        summary.pipeline_bubble = pipeline->bubble_share();
    }
    if (inference) {
        summary.time_to_first_token = to_seconds(inference->first_token);
        summary.time_per_output_token = inference->time_per_output_token();
        summary.tokens_per_second = inference->tokens_per_second();
        summary.kv_cache_bytes = trace.memory ? trace.memory->kv_cache : 0;
    }
    if (utilization.peak_flops > 0) {
        summary.mfu = utilization.mfu();
        summary.hfu = utilization.hfu();
    }
    summary.ops = trace.ops.size();
    summary.out_dir = options.out_dir;
    return summary;
}

}  // namespace sim
