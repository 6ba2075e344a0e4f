// SPDX-License-Identifier: MIT
#include "sim/engine/ops_csv.h"

#include <cstdio>

#include "sim/core/error.h"

namespace sim {

namespace {

std::string num(double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return buf;
}

// RFC 4180: quote a field holding a comma, quote or newline; double inner quotes.
std::string field(const std::string& s) {
    if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

// Energy of one op: its dynamic energy plus static power over its own duration (the run's
// static energy in stats.json counts overlapping ops once), power and achieved efficiency.
std::string energy_columns(const OpResult& r, double seconds) {
    const double static_joules = r.static_power * seconds;
    const double total = r.energy.dynamic() + static_joules;
    return num(total) + ',' + num(r.energy.compute) + ',' + num(r.energy.data_movement()) + ',' +
           num(static_joules) + ',' + (seconds > 0 ? num(total / seconds) : "") + ',' +
           (total > 0 ? num(r.cost.flops / total / 1e12) : "");
}

}  // namespace

std::string format_ops_csv(const Trace& trace, const std::vector<OpResult>& results) {
    SIM_ASSERT(trace.ops.size() == results.size(), "one result per op");
    std::string out =
        "index,name,kind,stream,dtype,unit,fidelity,model,start_us,time_us,flops,bytes,"
        "intensity,achieved_tflops,achieved_gbps,roof_tflops,flop_util,bw_util,bound,"
        "energy_j,compute_j,data_movement_j,static_j,power_w,tflops_per_w\n";
    for (size_t i = 0; i < results.size(); ++i) {
        const Op& op = trace.ops[i];
        const OpResult& r = results[i];
        const double seconds = to_seconds(r.end - r.start);
        // Collectives and host copies are measured by the bytes on their link.
        const bool link_op =
            r.cost.unit == ComputeUnit::Network || r.cost.unit == ComputeUnit::Host;
        const double bytes = r.cost.unit == ComputeUnit::Network ? r.cost.wire_bytes
                             : r.cost.unit == ComputeUnit::Host  ? r.cost.host_bytes
                                                                 : r.cost.dram_bytes;
        const double flops_rate = seconds > 0 ? r.cost.flops / seconds : 0.0;
        const double byte_rate = seconds > 0 ? bytes / seconds : 0.0;
        out += std::to_string(i) + ',' + field(op.name) + ',' + to_string(op.kind) + ',' +
               std::to_string(op.stream) + ',' + to_string(op.dtype) + ',' +
               to_string(r.cost.unit) + ',' + to_string(r.fidelity) + ',' + field(r.model) + ',' +
               num(to_seconds(r.start) * 1e6) + ',' + num(seconds * 1e6) + ',' + num(r.cost.flops) +
               ',' + num(bytes) + ',' + (link_op ? "" : num(r.cost.intensity())) + ',' +
               num(flops_rate / 1e12) + ',' + num(byte_rate / 1e9) + ',' +
               (r.roof_flops > 0 ? num(r.roof_flops / 1e12) : "") + ',' +
               (r.roof_flops > 0 ? num(flops_rate / r.roof_flops) : "") + ',' +
               (r.roof_bandwidth > 0 ? num(byte_rate / r.roof_bandwidth) : "") + ',' + r.bound +
               ',' + energy_columns(r, seconds) + '\n';
    }
    return out;
}

}  // namespace sim
