// SPDX-License-Identifier: MIT
#include "sim/engine/ops_csv.h"

#include <charconv>
#include <optional>

#include "sim/core/error.h"

namespace sim {

namespace {

// One CSV row at a time, appended in place: formatting is a large share of an analytic run.
class RowWriter {
  public:
    explicit RowWriter(std::string& out) : out_(out) {}

    /// A number as printf's %.9g writes it (std::to_chars with precision is specified so).
    RowWriter& num(double v) {
        sep();
        char buf[40];
        const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, 9);
        out_.append(buf, r.ptr);
        return *this;
    }
    RowWriter& num(uint64_t v) {
        sep();
        char buf[24];
        const auto r = std::to_chars(buf, buf + sizeof buf, v);
        out_.append(buf, r.ptr);
        return *this;
    }
    /// An empty cell when v is absent.
    RowWriter& maybe(std::optional<double> v) {
        if (v) return num(*v);
        sep();
        return *this;
    }
    /// RFC 4180: quote a field holding a comma, quote or newline; double inner quotes.
    RowWriter& text(const std::string& s) {
        sep();
        if (s.find_first_of(",\"\n\r") == std::string::npos) {
            out_ += s;
            return *this;
        }
        out_ += '"';
        for (char c : s) {
            if (c == '"') out_ += '"';
            out_ += c;
        }
        out_ += '"';
        return *this;
    }
    void end() {
        out_ += '\n';
        first_ = true;
    }

  private:
    void sep() {
        if (!first_) out_ += ',';
        first_ = false;
    }
    std::string& out_;
    bool first_ = true;
};

}  // namespace

std::string format_ops_csv(const Trace& trace, const std::vector<OpResult>& results) {
    SIM_ASSERT(trace.ops.size() == results.size(), "one result per op");
    std::string out =
        "index,name,kind,stream,dtype,unit,fidelity,model,start_us,time_us,flops,bytes,"
        "intensity,achieved_tflops,achieved_gbps,roof_tflops,flop_util,bw_util,bound,"
        "energy_j,compute_j,data_movement_j,static_j,power_w,tflops_per_w\n";
    out.reserve(out.size() + results.size() * 320);
    RowWriter row(out);
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
        const auto if_positive = [](double denominator, double value) -> std::optional<double> {
            return denominator > 0 ? std::optional<double>(value) : std::nullopt;
        };
        row.num(uint64_t{i})
            .text(op.name)
            .text(to_string(op.kind))
            .num(uint64_t{op.stream})
            .text(to_string(op.dtype))
            .text(to_string(r.cost.unit))
            .text(to_string(r.fidelity))
            .text(r.model)
            .num(to_seconds(r.start) * 1e6)
            .num(seconds * 1e6)
            .num(r.cost.flops)
            .num(bytes)
            .maybe(link_op ? std::nullopt : std::optional<double>(r.cost.intensity()))
            .num(flops_rate / 1e12)
            .num(byte_rate / 1e9)
            .maybe(if_positive(r.roof_flops, r.roof_flops / 1e12))
            .maybe(if_positive(r.roof_flops, flops_rate / r.roof_flops))
            .maybe(if_positive(r.roof_bandwidth, byte_rate / r.roof_bandwidth))
            .text(r.bound);
        // Energy: dynamic plus static power over the op's own duration (the run's static
        // energy in stats.json counts overlapping ops once), power and achieved efficiency.
        const double static_joules = r.static_power * seconds;
        const double total = r.energy.dynamic() + static_joules;
        row.num(total)
            .num(r.energy.compute)
            .num(r.energy.data_movement())
            .num(static_joules)
            .maybe(if_positive(seconds, total / seconds))
            .maybe(if_positive(total, r.cost.flops / total / 1e12));
        row.end();
    }
    return out;
}

}  // namespace sim
