// SPDX-License-Identifier: MIT
#include "models/systolic/hbm_backing.h"

#include "models/hbm/core/traffic.h"
#include "models/hbm/hbm_stats.h"

namespace sim::systolic {

HbmBacking calibrate_hbm(const hbm::HbmParams& params,
                         bool reads_only,
                         uint64_t calibration_bytes) {
    hbm::HbmSystem system(params.core);
    hbm::TrafficParams tp;
    tp.pattern = reads_only ? hbm::Pattern::Stream : hbm::Pattern::Read2Write1;
    tp.request_bytes = 64;
    tp.bytes = calibration_bytes / tp.request_bytes * tp.request_bytes;
    const hbm::TrafficResult r = hbm::run_traffic(system, tp);
    HbmBacking b;
    b.peak_bandwidth = params.peak_bandwidth();
    const double bytes = double(r.bytes_read + r.bytes_written);
    const double seconds = double(r.cycles) / double(params.core.clock_hz);
    b.sustained_bandwidth = bytes / seconds;
    b.energy_per_byte = hbm::hbm_energy(params, system) / bytes;
    b.calibration_bytes = uint64_t(bytes);
    return b;
}

}  // namespace sim::systolic
