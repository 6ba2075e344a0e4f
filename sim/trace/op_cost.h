// SPDX-License-Identifier: MIT
// The hardware-independent cost of an operator: FLOPs and the compulsory (minimum) bytes it
// must move, per traces/README.md. Every fidelity level starts from these; the analytic level
// divides them by peaks, the cycle-level models discover how many more bytes really move.
#pragma once

#include "sim/trace/op.h"

namespace sim {

struct OpCost {
    double flops = 0;       ///< floating-point (or integer) operations; an FMA counts 2
    double dram_bytes = 0;  ///< compulsory device-memory traffic, bytes
    double wire_bytes = 0;  ///< bytes each device sends on its links (collectives)
    double host_bytes = 0;  ///< bytes over the host link (h2d/d2h copies)
    ComputeUnit unit = ComputeUnit::Vector;  ///< the engine and roof the op is measured against
    DType dtype = DType::FP32;               ///< the roof's precision
    /// A measured duration the op replays instead of being timed (custom duration_us), ps.
    uint64_t replay_ps = 0;

    /// FLOPs per byte of device-memory traffic; 0 when no bytes move.
    double intensity() const { return dram_bytes > 0 ? flops / dram_bytes : 0.0; }
};

OpCost cost_of(const Op& op);

}  // namespace sim
