// SPDX-License-Identifier: MIT
#include "sim/engine/timeline_json.h"

#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "sim/core/error.h"

namespace sim {

std::string format_timeline_json(const Trace& trace,
                                 const std::vector<OpResult>& results,
                                 const std::string& device) {
    SIM_ASSERT(trace.ops.size() == results.size(), "one result per op");
    using json = nlohmann::ordered_json;
    // Each event is serialised by nlohmann on its own and appended: a run of a million ops
    // never holds the whole document as a JSON tree.
    std::string out = json{{"displayTimeUnit", "ns"},
                           {"otherData", {{"generator", "wallsim"}, {"trace", trace.name}}}}
                          .dump();
    out.pop_back();  // the closing brace: traceEvents follows
    out += ",\"traceEvents\":[";
    out.reserve(out.size() + results.size() * 300);
    bool first = true;
    const auto append = [&out, &first](const json& event) {
        if (!first) out += ',';
        first = false;
        out += event.dump();
    };
    // One track (process) per device, one row (thread) per stream of it.
    std::map<std::string, int> pid_of;
    std::set<std::pair<int, uint32_t>> rows;
    for (const Op& op : trace.ops) {
        const auto added = pid_of.emplace(op.device, static_cast<int>(pid_of.size()));
        if (added.second) {
            const std::string name = op.device.empty() ? device : device + " " + op.device;
            append({{"name", "process_name"},
                    {"ph", "M"},
                    {"pid", added.first->second},
                    {"tid", 0},
                    {"args", {{"name", name + " (wallsim)"}}}});
        }
        if (rows.emplace(added.first->second, op.stream).second) {
            append({{"name", "thread_name"},
                    {"ph", "M"},
                    {"pid", added.first->second},
                    {"tid", op.stream},
                    {"args", {{"name", "stream " + std::to_string(op.stream)}}}});
        }
    }
    json event = {{"name", ""}, {"cat", ""}, {"ph", "X"},  {"pid", 0},
                  {"tid", 0},   {"ts", 0.0}, {"dur", 0.0}, {"args", json::object()}};
    for (size_t i = 0; i < results.size(); ++i) {
        const Op& op = trace.ops[i];
        const OpResult& r = results[i];
        const bool link = r.cost.unit == ComputeUnit::Network || r.cost.unit == ComputeUnit::Host;
        event["name"] = op.name;
        event["cat"] = to_string(op.kind);
        event["pid"] = pid_of.at(op.device);
        event["tid"] = op.stream;
        // Timestamps in microseconds, as the format specifies; picoseconds survive in the
        // fraction.
        event["ts"] = static_cast<double>(r.start.value()) / 1e6;
        event["dur"] = static_cast<double>((r.end - r.start).value()) / 1e6;
        json& args = event["args"];
        args = {{"kind", to_string(op.kind)},
                {"flops", r.cost.flops},
                {"bytes", link ? (r.cost.unit == ComputeUnit::Network ? r.cost.wire_bytes
                                                                      : r.cost.host_bytes)
                               : r.cost.dram_bytes},
                {"bound", r.bound},
                {"fidelity", to_string(r.fidelity)},
                {"model", r.model}};
        if (op.measured_us) args["measured_us"] = *op.measured_us;
        append(event);
    }
    out += "]}\n";
    return out;
}

}  // namespace sim
