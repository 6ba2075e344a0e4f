// SPDX-License-Identifier: MIT
// The cycle-level HBM model (models/hbm) behind a systolic array, for presets with
// `systolic.dram.model: hbm`. The array's fold pipeline needs a DRAM bandwidth and an energy
// per byte; here both are measured, once per configuration, by streaming the array's kind of
// traffic (sequential 64-byte reads of operand tiles, and outputs written back when they
// live in DRAM) through every
// pseudo-channel controller of the hardware file's `hbm:` section: JEDEC timing, row switches,
// refresh and all. What is not modelled: per-fold request-level interaction between the array
// and the controllers (the calibrated bandwidth is a sustained average).
#pragma once

#include <cstdint>

#include "models/hbm/hbm_params.h"

namespace sim::systolic {

struct HbmBacking {
    double peak_bandwidth = 0;       ///< pseudo-channels x burst bytes / burst time, B/s
    double sustained_bandwidth = 0;  ///< what the calibration stream achieved, B/s
    double energy_per_byte = 0;      ///< counted HBM energy (ACT, data bits, REF) / bytes, J/B
    uint64_t calibration_bytes = 0;  ///< bytes streamed to measure it
};

/// Streams calibration_bytes through the HBM model and returns what it sustained. reads_only:
/// sequential reads (weights only, activations on chip); otherwise two read streams and one
/// write stream (two operands in, one out: the read2_write1 pattern).
HbmBacking calibrate_hbm(const hbm::HbmParams& params,
                         bool reads_only,
                         uint64_t calibration_bytes = 8ULL << 20);

}  // namespace sim::systolic
