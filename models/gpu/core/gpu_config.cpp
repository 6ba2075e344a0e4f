// SPDX-License-Identifier: MIT
#include "models/gpu/core/gpu_config.h"

#include <stdexcept>

namespace sim::gpu {

SchedulerPolicy parse_scheduler(const std::string& s) {
    if (s == "gto") return SchedulerPolicy::Gto;
    if (s == "lrr") return SchedulerPolicy::Lrr;
    throw std::invalid_argument("'" + s + "' is not a scheduler policy; expected gto or lrr");
}

std::string to_string(SchedulerPolicy p) {
    return p == SchedulerPolicy::Gto ? "gto" : "lrr";
}

void GpuCoreConfig::validate() const {
    const auto need = [](bool ok, const char* what) {
        if (!ok) throw std::invalid_argument(what);
    };
    need(sm_count >= 1, "sm.count must be at least 1");
    need(clock_hz > 0, "the SM clock must be positive");
    need(sm.sub_partitions >= 1 && sm.sub_partitions <= 8, "sm.sub_partitions must be 1..8");
    need(sm.max_warps >= 1 && sm.max_threads >= 32 && sm.max_ctas >= 1,
         "sm.max_warps, max_threads and max_ctas must allow one warp");
    need(sm.registers >= 256 && sm.register_granule >= 1, "sm.registers must be at least 256");
    for (const Pipeline* p : {&sm.fp32, &sm.integer, &sm.sfu, &sm.lsu, &sm.shuffle}) {
        need(p->lanes >= 1 && p->lanes <= 32 && 32 % p->lanes == 0,
             "pipeline lanes must divide 32 (1, 2, 4, 8, 16 or 32)");
    }
    need(l1.bytes >= 128 * l1.ways && l1.ways >= 1, "sm.l1 must hold at least one set");
    need(l1.bytes_per_clock >= 1 && l1.max_pending_lines >= 1, "sm.l1 bandwidth and miss entries");
    need(l2.slices >= 1 && l2.ways >= 1 && l2.bytes >= uint64_t{128} * l2.ways * l2.slices,
         "l2 must hold at least one set per slice");
    need(l2.bytes_per_clock_per_slice >= 1, "l2.bytes_per_clock_per_slice must be positive");
    need(l2.partitions >= 1 && l2.slices % l2.partitions == 0,
         "l2.partitions must divide l2.slices");
}

}  // namespace sim::gpu
