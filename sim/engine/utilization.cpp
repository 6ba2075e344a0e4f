// SPDX-License-Identifier: MIT
#include "sim/engine/utilization.h"

#include <map>
#include <set>
#include <string>

#include "sim/stats/group.h"

namespace sim {

Utilization utilization_of(const Trace& trace,
                           const std::vector<OpResult>& results,
                           double seconds) {
    Utilization u;
    u.seconds = seconds;
    // A trace may mix units and dtypes (bf16 GEMMs, an fp32 optimizer): utilization is
    // measured against the roof of the one that carries the most FLOPs, as MFU is quoted
    // against the dense bf16 Tensor Core peak for mixed-precision training.
    // Over several devices (a system), the peak is that roof times the devices whose
    // operators ran at it: MFU is quoted over every GPU of the job.
    std::map<double, double> flops_by_roof;
    std::map<double, std::set<std::string>> devices_by_roof;
    for (size_t i = 0; i < results.size() && i < trace.ops.size(); ++i) {
        const OpResult& r = results[i];
        u.hardware_flops += r.cost.flops;
        if (!trace.ops[i].recompute) u.model_flops += r.cost.flops;
        if (r.roof_flops > 0 && r.cost.flops > 0) {
            flops_by_roof[r.roof_flops] += r.cost.flops;
            devices_by_roof[r.roof_flops].insert(trace.ops[i].device);
        }
    }
    double most = 0;
    for (const auto& [roof, flops] : flops_by_roof) {
        if (flops > most) {
            most = flops;
            u.peak_flops = roof * static_cast<double>(devices_by_roof[roof].size());
        }
    }
    return u;
}

void publish_utilization(StatGroup& run, const Utilization& u) {
    run.add_scalar("model_flops", "FLOP", "FLOPs of operators that are not recomputation")
        .set(u.model_flops);
    run.add_scalar("hardware_flops", "FLOP", "FLOPs of every operator, recomputation included")
        .set(u.hardware_flops);
    run.add_scalar("peak_flops", "FLOP/s",
                   "the roof utilization is measured against: the peak of the unit and dtype "
                   "that carried the most FLOPs, times the devices that ran at it")
        .set(u.peak_flops);
    run.add_scalar("mfu", "ratio", "model FLOPs utilization: model FLOPs / time / peak")
        .set(u.mfu());
    run.add_scalar("hfu", "ratio", "hardware FLOPs utilization: all FLOPs / time / peak")
        .set(u.hfu());
}

}  // namespace sim
