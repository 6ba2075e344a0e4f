// SPDX-License-Identifier: MIT
#include "models/cim/cim_op_model.h"

#include "models/cim/core/op_shape.h"

#include <systemc>

#include <cmath>

namespace sim::cim {

namespace {
// sc_time and TimePs are 64-bit picoseconds; keep a margin below the wrap.
constexpr double kLatestSeconds = double(uint64_t{1} << 62) * 1e-12;
}  // namespace

CimOpModel::Stats::Stats(StatGroup& g)
    : layers(g.add_counter("layers", "count", "gemm and conv2d operators run on the crossbars")),
      passes(g.add_counter("passes",
                           "count",
                           "weight loads (more than one per layer: it did "
                           "not fit the chip)")),
      crossbar_time(g.add_scalar("time", "s", "time the chip was busy with layers")),
      adc_conversions(g.add_scalar("adc_conversions", "count", "column conversions")),
      ops(g.add_scalar("ops", "op", "2 M K N over all layers")),
      energy(),
      energy_total(g.add_group("energy").add_scalar("total", "J", "all components, all layers")) {
    StatGroup& e = *g.find_group("energy");
    for (size_t i = 0; i < kComponentCount; ++i) {
        const char* name = component_name(static_cast<Component>(i));
        energy[i] = &e.add_scalar(name, "J", std::string("all layers: ") + name);
    }
}

CimOpModel::CimOpModel(const CimConfig& cfg, StatGroup& stats, exec::DeviceExecutor& executor)
    : cfg_(cfg), peak_(peak_figures(cfg_)), executor_(executor), stats_(stats) {
    cfg_.validate();
}

std::string CimOpModel::why_unsupported(const Op& op) const {
    try {
        map_gemm(cfg_, gemm_shape_of(op));
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "";
}

bool CimOpModel::supports(const Op& op) const {
    return why_unsupported(op).empty();
}

OpResult CimOpModel::execute(const Op& op) {
    const GemmShape g = gemm_shape_of(op);
    const LayerMapping map = map_gemm(cfg_, g);
    const LayerTiming t = time_gemm(cfg_, g, map);
    const Breakdown energy = layer_energy(cfg_, map, t);
    if (!(t.time_s < kLatestSeconds)) {
        throw ConfigError(op.where, "kind",
                          "operator '" + op.name + "' would end beyond the simulator's time range");
    }
    const TimePs duration{static_cast<uint64_t>(std::ceil(t.time_s * 1e12))};
    // The layer occupies the chip; its weights stream in through the memory port (the bytes
    // of the weight operand, programmed into the crossbars).
    exec::Job job{duration};
    job.compute = 1;
    job.memory_bytes = double(g.k) * double(g.n) * double(dtype_bytes(op.dtype));
    const exec::JobTimes ran = executor_.run(job);
    const TimePs start = ran.start;
    const TimePs end = ran.end;

    ++stats_.layers;
    stats_.passes += map.passes;
    stats_.crossbar_time += t.time_s;
    stats_.adc_conversions += t.adc_conversions;
    stats_.ops += t.ops;
    for (size_t i = 0; i < kComponentCount; ++i)
        *stats_.energy[i] += energy.values[i];
    stats_.energy_total += energy.total();

    OpResult r;
    r.start = start;
    r.end = end;
    r.cost = cost_of(op);
    r.cost.flops = t.ops;
    r.roof_flops = peak_.ops_per_s;
    r.roof_bandwidth = cfg_.organisation.tile_buffer_bandwidth * cfg_.organisation.tiles;
    const std::string bound = t.bound;
    r.bound = bound == "buffer" ? "memory" : bound == "network" ? "network" : "compute";
    r.fidelity = Fidelity::Cycle;
    r.model = "cim.crossbar";
    // The engine's energy classes: the analogue MVM and its converters (and any weight
    // rewrites) are compute; buffers and tile logic are on-chip SRAM; the router is the link;
    // the off-chip I/O is the host link. The always-on blocks are charged here, on the tiles
    // the layer occupies, so the device reports no separate static power.
    r.energy.compute = energy[Component::Cells] + energy[Component::Dac] +
                       energy[Component::SampleHold] + energy[Component::Adc] +
                       energy[Component::ShiftAdd] + energy[Component::Programming];
    r.energy.sram = energy[Component::ImaBuffers] + energy[Component::TileBuffer] +
                    energy[Component::TileDigital];
    r.energy.link = energy[Component::Network];
    r.energy.host = energy[Component::ChipIo];
    r.static_power = 0;
    return r;
}

}  // namespace sim::cim
