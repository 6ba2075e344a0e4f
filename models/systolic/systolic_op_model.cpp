// SPDX-License-Identifier: MIT
#include "models/systolic/systolic_op_model.h"

#include <systemc>

namespace sim::systolic {

SystolicOpModel::Stats::Stats(StatGroup& g)
    : ops(g.add_counter("ops", "count", "operators run on the systolic array")),
      macs(g.add_counter("macs", "count", "useful multiply-accumulates")),
      compute_cycles(
          g.add_counter("compute_cycles", "cycle", "fill + stream + drain of all folds")),
      stall_cycles(g.add_counter("stall_cycles", "cycle", "cycles the array waited for DRAM")),
      dram_bytes(g.add_scalar("dram_bytes", "B", "DRAM traffic of those operators")),
      utilisation(
          g.add_distribution("utilisation", "ratio", "MACs / (rows x cols x total cycles) per op")),
      active_cycles(
          g.add_counter("active_cycles", "cycle", "tpu: matrix unit multiplying (Table 3 row 1)")),
      weight_stall_cycles(g.add_counter(
          "weight_stall_cycles", "cycle", "tpu: waiting for a weight tile from DRAM (row 4)")),
      weight_shift_cycles(g.add_counter(
          "weight_shift_cycles", "cycle", "tpu: waiting for a weight tile to shift in (row 5)")),
      non_matrix_cycles(g.add_counter(
          "non_matrix_cycles",
          "cycle",
          "tpu: layer drain, activation, vector and pooling layers, host transfers (row 6)")) {}

SystolicOpModel::SystolicOpModel(const ArrayParams& params,
                                 const TpuParams& tpu,
                                 double dram_bandwidth,
                                 StatGroup& stats,
                                 exec::DeviceExecutor& executor)
    : params_(params),
      tpu_(tpu),
      dram_bandwidth_(dram_bandwidth),
      executor_(executor),
      stats_(stats) {}

std::string SystolicOpModel::why_unsupported(const Op& op) const {
    const bool matrix = op.kind == OpKind::Gemm || op.kind == OpKind::Conv2d;
    if (!matrix && !tpu_.enabled) return "the systolic array runs gemm and conv2d only";
    if (!matrix && op.kind != OpKind::Elementwise && op.kind != OpKind::Reduction &&
        op.kind != OpKind::Memcpy) {
        return "a TPU runs gemm and conv2d on its matrix unit, elementwise and reduction on its "
               "activation unit, and h2d/d2h memcpy over its host link only";
    }
    if (const auto* m = std::get_if<MemcpyParams>(&op.params)) {
        if (m->direction != "h2d" && m->direction != "d2h")
            return "a TPU copies between host and device only (h2d, d2h)";
        return {};
    }
    if (dtype_bytes(op.dtype) != params_.word_bytes) {
        return "the array's words are " + std::to_string(params_.word_bytes) + " B; this op's " +
               to_string(op.dtype) + " is " + std::to_string(dtype_bytes(op.dtype)) + " B";
    }
    if (const auto* c = std::get_if<Conv2dParams>(&op.params); c && c->groups != 1)
        return "grouped convolutions (groups > 1) are not modelled";
    return {};
}

OpResult SystolicOpModel::finish(const Op& op, uint64_t cycles, double dram_bytes) {
    const TimePs duration{static_cast<uint64_t>(double(cycles) / params_.clock_hz * 1e12 + 0.5)};
    exec::Job job{duration};
    job.compute = 1;
    job.memory_bytes = dram_bytes;
    const exec::JobTimes ran = executor_.run(job);
    const TimePs start = ran.start;
    const TimePs end = ran.end;
    ++stats_.ops;
    OpResult r;
    r.start = start;
    r.end = end;
    r.cost = cost_of(op);
    r.roof_flops = params_.peak_ops();
    r.roof_bandwidth = dram_bandwidth_;
    r.fidelity = Fidelity::Cycle;
    r.model = "systolic.array";
    r.static_power = params_.static_power_w;
    return r;
}

OpResult SystolicOpModel::execute_tpu(const Op& op) {
    const TpuTiming t = tpu_op_timing(op, params_, tpu_);
    const uint64_t repeat = 1;  // already in t
    // The weights stream from the Weight Memory through the device's memory port.
    OpResult r = finish(op, t.cycles * repeat, double(t.weight_bytes * repeat));
    stats_.macs += t.macs * repeat;
    stats_.compute_cycles += t.active_cycles * repeat;
    stats_.stall_cycles += (t.cycles - t.active_cycles) * repeat;
    stats_.dram_bytes += double(t.weight_bytes * repeat);
    stats_.active_cycles += t.active_cycles * repeat;
    stats_.weight_stall_cycles += t.weight_stall_cycles * repeat;
    stats_.weight_shift_cycles += t.weight_shift_cycles * repeat;
    stats_.non_matrix_cycles += t.non_matrix_cycles * repeat;
    if (t.macs > 0) {
        stats_.utilisation.sample(double(t.macs) /
                                  (double(t.cycles) * params_.rows * params_.cols));
        r.cost.flops = 2.0 * double(t.macs * repeat);
        r.cost.dram_bytes = double(t.weight_bytes * repeat);
    }
    // Waiting for weights is the memory wall; the rest of an idle matrix unit is not.
    r.bound = t.weight_stall_cycles > t.active_cycles ? "memory"
              : op.kind == OpKind::Memcpy             ? "host"
                                                      : "compute";
    const double n = double(repeat);
    r.energy.compute = double(t.macs) * params_.mac_energy_j * n;
    r.energy.dram = double(t.weight_bytes) * params_.dram_energy_per_byte * n;
    return r;
}

OpResult SystolicOpModel::execute(const Op& op) {
    if (tpu_.enabled) return execute_tpu(op);
    const OpLayer ol = layer_of(op);
    const LayerTiming t = time_layer(params_, ol.layer);
    const uint64_t cycles = t.total_cycles * ol.repeat;
    const TimePs duration{static_cast<uint64_t>(double(cycles) / params_.clock_hz * 1e12 + 0.5)};
    exec::Job job{duration};
    job.compute = 1;
    job.memory_bytes = double(t.dram_bytes * ol.repeat);
    const exec::JobTimes ran = executor_.run(job);
    const TimePs start = ran.start;
    const TimePs end = ran.end;

    ++stats_.ops;
    stats_.macs += t.macs * ol.repeat;
    stats_.compute_cycles += t.compute_cycles * ol.repeat;
    stats_.stall_cycles += t.stall_cycles * ol.repeat;
    stats_.dram_bytes += double(t.dram_bytes * ol.repeat);
    stats_.utilisation.sample(t.overall_utilisation);

    OpResult r;
    r.start = start;
    r.end = end;
    r.cost = cost_of(op);
    r.cost.flops = 2.0 * double(t.macs * ol.repeat);
    r.cost.dram_bytes = double(t.dram_bytes * ol.repeat);  // what crossed DRAM on this array
    r.roof_flops = params_.peak_ops();
    r.roof_bandwidth = dram_bandwidth_;
    r.bound = t.memory_bound ? "memory" : "compute";
    r.fidelity = Fidelity::Cycle;
    r.model = "systolic.array";
    const double n = double(ol.repeat);
    r.energy.compute = t.mac_energy * n;
    r.energy.sram = t.sram_energy * n;
    r.energy.dram = t.dram_energy * n;
    r.static_power = params_.static_power_w;
    return r;
}

}  // namespace sim::systolic
