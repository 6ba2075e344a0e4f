// SPDX-License-Identifier: MIT
#include "sim/import/kineto_import.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <unordered_map>

#include "sim/core/error.h"
#include "sim/import/kernel_class.h"
#include "sim/import/op_shapes.h"
#include "sim/trace/op.h"

namespace sim::import {

namespace {

using json = nlohmann::json;

struct Pending {
    const GpuActivity* activity = nullptr;
    const CpuOp* op = nullptr;
    std::optional<int64_t> external;
    Work work = Work::Unknown;
    bool candidate = false;  // its class agrees with its op's: the op's shapes may describe it
};

const char* const kPageableCopy =
    "copy from or to pageable host memory (staged by the CPU: the host's speed)";

std::string memcpy_direction(const std::string& name) {
    if (name.find("HtoD") != std::string::npos) return "h2d";
    if (name.find("DtoH") != std::string::npos) return "d2h";
    return "d2d";
}

std::optional<uint64_t> bytes_arg(const json& args) {
    const auto it = args.find("bytes");
    if (it == args.end() || !it->is_number_integer() || it->get<int64_t>() <= 0)
        return std::nullopt;
    return it->get<uint64_t>();
}

bool has_collective_metadata(const json& args) {
    return args.contains("In msg nelems") || args.contains("Collective name");
}

}  // namespace

std::string preset_for_gpu(const std::string& device_name) {
    for (const char* gpu : {"H200", "H100", "A100"}) {
        if (device_name.find(gpu) != std::string::npos) {
            std::string p(gpu);
            std::transform(p.begin(), p.end(), p.begin(), ::tolower);
            return p;
        }
    }
    return "";
}

ImportedTrace import_kineto(const KinetoProfile& profile, const KinetoImportOptions& options) {
    ImportedTrace out;
    out.name = std::filesystem::path(profile.file).filename().string();
    for (const char* ext : {".gz", ".json"}) {
        const std::string e(ext);
        if (out.name.size() > e.size() &&
            out.name.compare(out.name.size() - e.size(), e.size(), e) == 0)
            out.name.resize(out.name.size() - e.size());
    }
    out.source = profile.file + " (PyTorch profiler)";
    out.skipped = profile.other_events + profile.runtime_calls + profile.cpu_ops.size();

    std::set<int64_t> devices;
    for (const GpuActivity& a : profile.activities)
        devices.insert(a.device);
    if (devices.empty()) {
        throw ConfigError({profile.file, 0, 0}, "traceEvents",
                          "no GPU kernels, memcpy or memset events; was the profile taken with "
                          "ProfilerActivity.CUDA?");
    }
    const int64_t device = options.device.value_or(*devices.begin());
    if (!devices.count(device)) {
        std::string list;
        for (int64_t d : devices)
            list += (list.empty() ? "" : ", ") + std::to_string(d);
        throw ConfigError({"--device", 0, 0}, "--device",
                          "device " + std::to_string(device) + " has no GPU activities in " +
                              profile.file + "; devices present: " + list);
    }
    if (devices.size() > 1) {
        out.notes.push_back("the trace holds " + std::to_string(devices.size()) +
                            " devices; imported device " + std::to_string(device) +
                            " (choose with --device)");
    }

    std::vector<const GpuActivity*> acts;
    uint64_t zero_length = 0;
    for (const GpuActivity& a : profile.activities) {
        if (a.device != device) continue;
        if (std::llround(a.dur_us * 1e6) == 0) {  // under half a picosecond, as traces count
            ++zero_length;
            continue;
        }
        acts.push_back(&a);
    }
    if (zero_length > 0) {
        out.skipped += zero_length;
        out.notes.push_back(std::to_string(zero_length) +
                            " activities with zero duration (under 1 ps) were dropped");
    }
    std::stable_sort(acts.begin(), acts.end(), [](const GpuActivity* a, const GpuActivity* b) {
        if (a->ts_us != b->ts_us) return a->ts_us < b->ts_us;
        return a->correlation.value_or(0) < b->correlation.value_or(0);
    });

    // Link each activity to its launching op and judge what it does.
    std::vector<Pending> pending(acts.size());
    for (size_t i = 0; i < acts.size(); ++i) {
        Pending& p = pending[i];
        p.activity = acts[i];
        p.external = acts[i]->external_id;
        if (!p.external && acts[i]->correlation) {
            const auto it = profile.runtime_external.find(*acts[i]->correlation);
            if (it != profile.runtime_external.end()) p.external = it->second;
        }
        if (p.external) {
            const auto it = profile.cpu_ops.find(*p.external);
            if (it != profile.cpu_ops.end()) p.op = &it->second;
        }
        if (acts[i]->type != GpuActivity::Type::Kernel) continue;
        p.work = classify_kernel(acts[i]->name);
        if (p.op && p.work != Work::Unknown && p.work != Work::Collective) {
            const std::optional<Work> op_work = classify_op(p.op->name);
            p.candidate = op_work ? *op_work == p.work : p.work == Work::Elementwise;
        }
    }
    // An op's shapes describe one kernel: the longest of those whose class agrees.
    std::unordered_map<int64_t, size_t> main_kernel;
    for (size_t i = 0; i < pending.size(); ++i) {
        if (!pending[i].candidate) continue;
        const auto [it, fresh] = main_kernel.emplace(*pending[i].external, i);
        if (!fresh && pending[i].activity->dur_us > pending[it->second].activity->dur_us)
            it->second = i;
    }

    uint64_t world_size = 0;
    if (profile.distributed_info.is_object()) {
        const auto it = profile.distributed_info.find("world_size");
        if (it != profile.distributed_info.end() && it->is_number_integer())
            world_size = it->get<uint64_t>();
    }

    std::map<int64_t, uint32_t> stream_index;
    // Per stream: (correlation, operator index), in launch order, for the dependency search.
    std::map<int64_t, std::vector<std::pair<int64_t, size_t>>> launches;
    for (size_t i = 0; i < pending.size(); ++i) {
        const Pending& p = pending[i];
        const GpuActivity& a = *p.activity;
        std::variant<TraceOp, std::string> described = std::string("unclassified kernel");
        if (a.type == GpuActivity::Type::Memcpy) {
            if (a.name.find("Pageable") != std::string::npos) {
                // CUDA stages a copy from or to pageable memory through pinned buffers with
                // the CPU: its speed is the host's, which wallsim does not model.
                described = std::string(kPageableCopy);
            } else if (const auto bytes = bytes_arg(a.args)) {
                described = TraceOp{
                    {"kind", "memcpy"}, {"bytes", *bytes}, {"direction", memcpy_direction(a.name)}};
            } else {
                described = std::string("memcpy without bytes");
            }
        } else if (a.type == GpuActivity::Type::Memset) {
            if (const auto bytes = bytes_arg(a.args)) {
                described =
                    TraceOp{{"kind", "elementwise"}, {"elements", *bytes},     {"inputs", 0},
                            {"outputs", 1},          {"flops_per_element", 0}, {"dtype", "int8"}};
            } else {
                described = std::string("memset without bytes");
            }
        } else if (p.work == Work::Collective) {
            const json& meta = has_collective_metadata(a.args) || !p.op ? a.args : p.op->args;
            described = describe_collective(meta, a.name, world_size);
        } else if (p.work == Work::Unknown) {
            described = std::string("unclassified kernel");
        } else if (!p.op) {
            described = std::string("no launching op (before the profiling window, or a graph)");
        } else if (!p.candidate) {
            described = std::string("kernel of another class than its op");
        } else if (main_kernel.at(*p.external) != i) {
            described = std::string("further kernel of one op");
        } else {
            described = describe_from_op(*p.op, p.work, a.name);
        }

        TraceOp op;
        op["name"] = "k" + std::to_string(i) + "." + short_kernel_name(a.name);
        if (const TraceOp* fields = std::get_if<TraceOp>(&described)) {
            for (const auto& [key, value] : fields->items())
                op[key] = value;
        } else {
            const std::string& reason = std::get<std::string>(described);
            ++out.custom_reasons[reason];
            op["kind"] = "custom";
            op["duration_us"] = a.dur_us;
            if (p.work == Work::Gemm || p.work == Work::AttentionForward ||
                p.work == Work::AttentionBackward || p.work == Work::Conv)
                op["unit"] = "tensor";
        }
        const auto [sit, fresh] =
            stream_index.emplace(a.stream, static_cast<uint32_t>(stream_index.size()));
        if (sit->second != 0) op["stream"] = sit->second;
        op["measured_us"] = a.dur_us;
        if (a.correlation) launches[a.stream].emplace_back(*a.correlation, i);
        out.ops.push_back(std::move(op));
    }
    out.streams = stream_index.size();

    // Cross-stream order from the Stream Wait Event records of this device.
    for (auto& [stream, list] : launches)
        std::sort(list.begin(), list.end());
    std::vector<std::set<size_t>> after(out.ops.size());
    uint64_t unmatched = 0;
    for (const StreamWait& w : profile.waits) {
        if (w.device != device || w.stream == w.wait_on_stream) continue;
        const auto producers = launches.find(w.wait_on_stream);
        const auto consumers = launches.find(w.stream);
        if (producers == launches.end() || consumers == launches.end()) {
            ++unmatched;
            continue;
        }
        const auto& pl = producers->second;
        const auto& cl = consumers->second;
        auto p =
            std::lower_bound(pl.begin(), pl.end(), std::make_pair(w.record_correlation, size_t{0}));
        auto c =
            std::upper_bound(cl.begin(), cl.end(),
                             std::make_pair(w.correlation, std::numeric_limits<size_t>::max()));
        if (p == pl.begin() || c == cl.end()) {
            ++unmatched;
            continue;
        }
        const size_t producer = std::prev(p)->second;
        const size_t consumer = c->second;
        if (producer >= consumer) {
            ++unmatched;
            continue;
        }
        after[consumer].insert(producer);
    }
    for (size_t i = 0; i < out.ops.size(); ++i) {
        if (after[i].empty()) continue;
        TraceOp names = TraceOp::array();
        for (size_t p : after[i])
            names.push_back(out.ops[p]["name"].get<std::string>());
        out.ops[i]["after"] = names;
        out.dependencies += after[i].size();
    }
    if (unmatched > 0) {
        out.notes.push_back(std::to_string(unmatched) +
                            " Stream Wait Event records matched no kernel pair in the window");
    }
    if (out.streams > 1 && profile.waits.empty()) {
        out.notes.push_back(
            "no Stream Wait Event records: the order between streams is unknown (record it "
            "with torch.profiler's experimental_config=_ExperimentalConfig("
            "enable_cuda_sync_events=True))");
    }
    if (!profile.record_shapes_seen) {
        out.notes.push_back(
            "no op recorded its shapes: profile with record_shapes=True to describe kernels");
    }

    for (const json& d : profile.device_properties) {
        if (!d.is_object()) continue;
        const auto id = d.find("id");
        if (id != d.end() && id->is_number_integer() && id->get<int64_t>() != device) continue;
        const auto name = d.find("name");
        if (name == d.end() || !name->is_string()) continue;
        out.device = name->get<std::string>();
        const auto sms = d.find("numSms");
        if (sms != d.end() && sms->is_number_integer())
            out.device += ", " + std::to_string(sms->get<int64_t>()) + " SMs";
        const auto major = d.find("computeMajor");
        const auto minor = d.find("computeMinor");
        if (major != d.end() && minor != d.end() && major->is_number_integer() &&
            minor->is_number_integer())
            out.device += ", sm_" + std::to_string(major->get<int64_t>()) +
                          std::to_string(minor->get<int64_t>());
        out.suggested_hw = preset_for_gpu(name->get<std::string>());
        break;
    }
    keep_parsable(out);
    return out;
}

}  // namespace sim::import
