// SPDX-License-Identifier: MIT
#include "models/gpu/core/occupancy.h"

#include <algorithm>
#include <limits>

namespace sim::gpu {

Occupancy occupancy_of(const SmConfig& sm, const KernelLaunch& k) {
    const uint32_t warps = k.warps_per_cta();
    const uint32_t regs_per_warp = (k.registers_per_thread * 32 + sm.register_granule - 1) /
                                   sm.register_granule * sm.register_granule;
    struct Limit {
        const char* name;
        uint32_t ctas;
    };
    const uint32_t none = std::numeric_limits<uint32_t>::max();
    const Limit limits[] = {
        {"ctas", sm.max_ctas},
        {"threads", sm.max_threads / (warps * 32)},
        {"warps", sm.max_warps / warps},
        {"registers", sm.registers / (regs_per_warp * warps)},
        {"shared_memory",
         k.shared_bytes_per_cta ? sm.shared_memory / k.shared_bytes_per_cta : none},
    };
    Occupancy o;
    o.ctas_per_sm = none;
    for (const Limit& l : limits) {
        if (l.ctas < o.ctas_per_sm) {
            o.ctas_per_sm = l.ctas;
            o.limiter = l.name;
        }
    }
    o.warps_per_sm = o.ctas_per_sm * warps;
    return o;
}

}  // namespace sim::gpu
