// SPDX-License-Identifier: MIT
#include "sim/engine/ops_csv.h"

#include <optional>

#include "sim/core/error.h"
#include "sim/engine/csv_row.h"

namespace sim {

std::string format_ops_csv(const Trace& trace, const std::vector<OpResult>& results) {
    SIM_ASSERT(trace.ops.size() == results.size(), "one result per op");
    std::string out =
        "index,name,kind,stream,dtype,unit,fidelity,model,start_us,time_us,flops,bytes,"
        "intensity,achieved_tflops,achieved_gbps,roof_tflops,flop_util,bw_util,bound,"
        "energy_j,compute_j,data_movement_j,static_j,power_w,tflops_per_w,clock_mhz,"
        "power_limited,fallback,measured_us,error,launch_gap_us\n";
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
        // The SM clock it ran at (empty off the SMs), whether the power limit lowered it, and
        // why it ran at a lower fidelity than asked (empty: it did not).
        row.maybe(if_positive(r.clock_hz, r.clock_hz / 1e6))
            .num(uint64_t{r.power_limited ? 1u : 0u})
            .text(r.fallback);
        // Imported operators: the measured time and (simulated - measured) / measured, the
        // simulated time without the launch gap a profiler's kernel duration leaves out.
        SIM_ASSERT(r.launch_gap <= r.end - r.start, "the launch gap is within the op's time");
        const double own_us = to_seconds((r.end - r.start) - r.launch_gap) * 1e6;
        const bool measured = op.measured_us && *op.measured_us > 0;
        row.maybe(op.measured_us)
            .maybe(measured ? std::optional<double>(own_us / *op.measured_us - 1.0) : std::nullopt)
            .num(to_seconds(r.launch_gap) * 1e6);
        row.end();
    }
    return out;
}

std::string format_kernels_csv(const Trace& trace, const std::vector<OpResult>& results) {
    SIM_ASSERT(trace.ops.size() == results.size(), "one result per op");
    std::string out;
    RowWriter row(out);
    for (size_t i = 0; i < results.size(); ++i) {
        if (!results[i].kernel) continue;
        if (out.empty()) {
            out =
                "index,name,kernel,tile,ctas,threads_per_cta,registers_per_thread,ctas_per_sm,"
                "occupancy_limiter,theoretical_occupancy,achieved_occupancy,cycles,"
                "simulated_fraction,bound,warp_instructions,issue_utilisation,l1_gbps,l2_gbps,"
                "dram_gbps,l1_bytes,l2_bytes,dram_read_bytes,dram_write_bytes,l1_hit_rate,"
                "l2_hit_rate,dram_row_hit_rate,issuing,stall_memory,stall_dependency,"
                "stall_pipeline,stall_barrier,not_selected,no_eligible,load_to_use_cycles,"
                "shared_gbps,shared_bytes,warm_read_gbps\n";
        }
        const KernelMetrics& k = *results[i].kernel;
        const double seconds = to_seconds(results[i].end - results[i].start);
        const auto gbps = [seconds](double bytes) {
            return seconds > 0 ? bytes / seconds / 1e9 : 0.0;
        };
        row.num(uint64_t{i})
            .text(trace.ops[i].name)
            .text(k.kernel)
            .text(k.tile)
            .num(k.ctas)
            .num(uint64_t{k.threads_per_cta})
            .num(uint64_t{k.registers_per_thread})
            .num(uint64_t{k.ctas_per_sm})
            .text(k.occupancy_limiter)
            .num(k.theoretical_occupancy)
            .num(k.achieved_occupancy)
            .num(k.cycles)
            .num(k.simulated_fraction)
            .num(k.bound)
            .num(k.warp_instructions)
            .num(k.issue_utilisation)
            .num(gbps(k.l1_bytes))
            .num(gbps(k.l2_bytes))
            .num(gbps(k.dram_read_bytes + k.dram_write_bytes))
            .num(k.l1_bytes)
            .num(k.l2_bytes)
            .num(k.dram_read_bytes)
            .num(k.dram_write_bytes)
            .num(k.l1_hit_rate)
            .num(k.l2_hit_rate)
            .num(k.dram_row_hit_rate)
            .num(k.issuing)
            .num(k.stall_memory)
            .num(k.stall_dependency)
            .num(k.stall_pipeline)
            .num(k.stall_barrier)
            .num(k.not_selected)
            .num(k.no_eligible)
            .num(k.load_to_use_cycles)
            .num(gbps(k.shared_bytes))
            .num(k.shared_bytes)
            .num(k.warm_read_bytes_per_s / 1e9);
        row.end();
    }
    return out;
}

}  // namespace sim
