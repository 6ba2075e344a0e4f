// SPDX-License-Identifier: MIT
#include "sim/engine/timeline_json.h"

#include <nlohmann/json.hpp>
#include <set>

#include "sim/core/error.h"

namespace sim {

std::string format_timeline_json(const Trace& trace,
                                 const std::vector<OpResult>& results,
                                 const std::string& device) {
    SIM_ASSERT(trace.ops.size() == results.size(), "one result per op");
    using json = nlohmann::ordered_json;
    constexpr int kPid = 0;  // one simulated device per run
    json events = json::array();
    events.push_back({{"name", "process_name"},
                      {"ph", "M"},
                      {"pid", kPid},
                      {"tid", 0},
                      {"args", {{"name", device + " (wallsim)"}}}});
    std::set<uint32_t> streams;
    for (const Op& op : trace.ops)
        streams.insert(op.stream);
    for (uint32_t s : streams) {
        events.push_back({{"name", "thread_name"},
                          {"ph", "M"},
                          {"pid", kPid},
                          {"tid", s},
                          {"args", {{"name", "stream " + std::to_string(s)}}}});
    }
    for (size_t i = 0; i < results.size(); ++i) {
        const Op& op = trace.ops[i];
        const OpResult& r = results[i];
        const bool link = r.cost.unit == ComputeUnit::Network || r.cost.unit == ComputeUnit::Host;
        json args = {{"kind", to_string(op.kind)},
                     {"flops", r.cost.flops},
                     {"bytes", link ? (r.cost.unit == ComputeUnit::Network ? r.cost.wire_bytes
                                                                           : r.cost.host_bytes)
                                    : r.cost.dram_bytes},
                     {"bound", r.bound},
                     {"fidelity", to_string(r.fidelity)},
                     {"model", r.model}};
        if (op.measured_us) args["measured_us"] = *op.measured_us;
        // Timestamps in microseconds, as the format specifies; picoseconds survive in the
        // fraction.
        events.push_back({{"name", op.name},
                          {"cat", to_string(op.kind)},
                          {"ph", "X"},
                          {"pid", kPid},
                          {"tid", op.stream},
                          {"ts", static_cast<double>(r.start.value()) / 1e6},
                          {"dur", static_cast<double>((r.end - r.start).value()) / 1e6},
                          {"args", std::move(args)}});
    }
    json doc = {{"displayTimeUnit", "ns"},
                {"otherData", {{"generator", "wallsim"}, {"trace", trace.name}}},
                {"traceEvents", std::move(events)}};
    return doc.dump() + "\n";
}

}  // namespace sim
