// SPDX-License-Identifier: MIT
// Model and hardware FLOPs utilization of a run (Chowdhery et al. 2022, "PaLM", Appendix B;
// Korthikanti et al. 2022, §5): the FLOPs achieved per second over the peak of the unit and
// dtype that carried most of them. Model FLOPs leave out the operators a trace marks as
// recomputation (`recompute: true`, activation checkpointing): they are what the model needs
// (6·N per token for a transformer's training step); hardware FLOPs count every operator.
// So with full checkpointing HFU exceeds MFU by the recomputed forward pass, about 4/3.
#pragma once

#include <vector>

#include "sim/registry/op_model.h"
#include "sim/trace/op.h"

namespace sim {

class StatGroup;

struct Utilization {
    double model_flops = 0;     ///< FLOPs of operators not marked recompute
    double hardware_flops = 0;  ///< FLOPs of every operator
    double peak_flops = 0;      ///< FLOP/s: the roof of the unit and dtype with the most FLOPs
    double seconds = 0;         ///< the time the FLOPs took
    double mfu() const {
        return peak_flops > 0 && seconds > 0 ? model_flops / seconds / peak_flops : 0;
    }
    double hfu() const {
        return peak_flops > 0 && seconds > 0 ? hardware_flops / seconds / peak_flops : 0;
    }
};

/// The utilization of results (one per trace operator, in trace order) over seconds.
Utilization utilization_of(const Trace& trace,
                           const std::vector<OpResult>& results,
                           double seconds);

/// run.model_flops, run.hardware_flops, run.peak_flops, run.mfu and run.hfu.
void publish_utilization(StatGroup& run, const Utilization& u);

}  // namespace sim
