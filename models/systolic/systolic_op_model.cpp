// SPDX-License-Identifier: MIT
#include "models/systolic/systolic_op_model.h"

#include <systemc>

namespace sim::systolic {

OpLayer layer_of(const Op& op) {
    OpLayer out;
    if (const auto* g = std::get_if<GemmParams>(&op.params)) {
        out.layer = Layer::gemm(op.name, g->m, g->n, g->k);
        out.repeat = g->batch;
    } else if (const auto* c = std::get_if<Conv2dParams>(&op.params)) {
        Layer& l = out.layer;
        l.name = op.name;
        l.ifmap_h = c->height + 2 * c->padding;
        l.ifmap_w = c->width + 2 * c->padding;
        l.filter_h = c->kernel_h;
        l.filter_w = c->kernel_w;
        l.channels = c->in_channels;
        l.num_filters = c->out_channels;
        l.stride = c->stride;
        l.batch = c->batch;
    }
    return out;
}

SystolicOpModel::Stats::Stats(StatGroup& g)
    : ops(g.add_counter("ops", "count", "operators run on the systolic array")),
      macs(g.add_counter("macs", "count", "useful multiply-accumulates")),
      compute_cycles(
          g.add_counter("compute_cycles", "cycle", "fill + stream + drain of all folds")),
      stall_cycles(g.add_counter("stall_cycles", "cycle", "cycles the array waited for DRAM")),
      dram_bytes(g.add_scalar("dram_bytes", "B", "DRAM traffic of those operators")),
      utilisation(g.add_distribution(
          "utilisation", "ratio", "MACs / (rows x cols x total cycles) per op")) {}

SystolicOpModel::SystolicOpModel(const ArrayParams& params,
                                 double dram_bandwidth,
                                 StatGroup& stats,
                                 exec::DeviceExecutor& executor)
    : params_(params),
      dram_bandwidth_(dram_bandwidth),
      executor_(executor),
      stats_(stats) {}

std::string SystolicOpModel::why_unsupported(const Op& op) const {
    if (op.kind != OpKind::Gemm && op.kind != OpKind::Conv2d)
        return "the systolic array runs gemm and conv2d only";
    if (dtype_bytes(op.dtype) != params_.word_bytes) {
        return "the array's words are " + std::to_string(params_.word_bytes) + " B; this op's " +
               to_string(op.dtype) + " is " + std::to_string(dtype_bytes(op.dtype)) + " B";
    }
    if (const auto* c = std::get_if<Conv2dParams>(&op.params); c && c->groups != 1)
        return "grouped convolutions (groups > 1) are not modelled";
    return {};
}

OpResult SystolicOpModel::execute(const Op& op) {
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
