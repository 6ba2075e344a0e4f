// SPDX-License-Identifier: MIT
#include "models/cim/cim_stats.h"

#include "models/cim/core/energy_area.h"

namespace sim::cim {

namespace {

void publish_breakdown(StatGroup& g,
                       const Breakdown& b,
                       const std::string& unit,
                       const std::string& what) {
    for (size_t i = 0; i < kComponentCount; ++i) {
        const auto c = static_cast<Component>(i);
        g.add_scalar(component_name(c), unit, what + ": " + component_name(c)).set(b[c]);
    }
    g.add_scalar("total", unit, what + ": sum of the components").set(b.total());
    g.add_scalar("adc_share", "ratio", "ADC share of the total")
        .set(b.total() > 0 ? b[Component::Adc] / b.total() : 0);
    const double periphery = b[Component::Adc] + b[Component::Dac] + b[Component::SampleHold];
    g.add_scalar("converter_share", "ratio", "ADC + DAC + sample-and-hold share of the total")
        .set(b.total() > 0 ? periphery / b.total() : 0);
}

}  // namespace

void publish_peak(StatGroup& g, const CimConfig& cfg) {
    const PeakFigures p = peak_figures(cfg);
    g.add_counter("crossbars", "count", "crossbars on the chip") += cfg.organisation.crossbars();
    g.add_scalar("cycle_time", "s", "read cycle: max(read time, columns per ADC / sample rate)")
        .set(p.cycle_time_s);
    g.add_scalar("ops_per_s", "op/s",
                 "peak: 2 x MACs per second with every crossbar busy (weight_bits x input_bits)")
        .set(p.ops_per_s);
    g.add_scalar("buffer_bandwidth", "B/s",
                 "tile buffer bandwidth x tiles: the memory roof of the chip's operators")
        .set(cfg.organisation.tile_buffer_bandwidth * double(cfg.organisation.tiles));
    g.add_scalar("tops_per_w", "TOPS/W", "peak ops / peak power").set(p.tops_per_w());
    g.add_scalar("tops_per_mm2", "TOPS/mm^2", "peak ops / chip area").set(p.tops_per_mm2());
    g.add_scalar("adc_conversion_energy", "J", "one conversion at the configured resolution")
        .set(adc_conversion_energy(cfg));
    publish_breakdown(g.add_group("power"), p.power_w, "W", "power at peak");
    publish_breakdown(g.add_group("area"), p.area_mm2, "mm^2", "chip area");
}

std::string publish_layer(StatGroup& g, const CimConfig& cfg, const GemmShape& shape) {
    const LayerMapping map = map_gemm(cfg, shape);
    const LayerTiming t = time_gemm(cfg, shape, map);
    const ProgrammingCost prog = program_gemm(cfg, map);
    const Breakdown energy = layer_energy(cfg, map, t);

    StatGroup& s = g.add_group("shape");
    s.add_counter("m", "count", "input vectors") += shape.m;
    s.add_counter("k", "count", "reduction length") += shape.k;
    s.add_counter("n", "count", "outputs") += shape.n;

    StatGroup& mg = g.add_group("mapping");
    mg.add_counter("slices", "count", "cells per stored weight value") += map.layout.slices;
    mg.add_counter("columns_per_weight", "count", "slices, x2 for a differential pair") +=
        map.layout.columns_per_weight;
    mg.add_counter("row_chunks", "count", "crossbars along K") += map.row_chunks;
    mg.add_counter("column_chunks", "count", "crossbars along N") += map.column_chunks;
    mg.add_counter("crossbars", "count", "crossbars holding one copy of the weights") +=
        map.crossbars;
    mg.add_counter("used_cells", "count", "K x N x columns per weight") += map.used_cells;
    mg.add_counter("allocated_cells", "count", "crossbars x rows x columns") += map.allocated_cells;
    mg.add_scalar("utilisation", "ratio", "used / allocated cells").set(map.utilisation);
    mg.add_counter("passes", "count", "weight loads (more than 1: the layer exceeds the chip)") +=
        map.passes;
    mg.add_counter("replicas", "count", "copies of the weights working on different vectors") +=
        map.replicas;
    mg.add_counter("imas_used", "count", "IMAs holding the layer") += map.imas_used;
    mg.add_counter("tiles_used", "count", "tiles holding the layer") += map.tiles_used;

    StatGroup& tg = g.add_group("timing");
    tg.add_counter("cycles_per_vector", "count", "read cycles per input vector") +=
        t.cycles_per_vector;
    tg.add_scalar("cycle_time", "s", "one read cycle").set(t.cycle_time_s);
    tg.add_scalar("adc_time_per_cycle", "s", "conversions of the busiest ADC per cycle")
        .set(t.adc_time_per_cycle_s);
    tg.add_counter("vector_rounds", "count", "input vectors in sequence per pass") +=
        t.vector_rounds;
    tg.add_scalar("compute_time", "s", "passes x rounds x cycles x cycle time")
        .set(t.compute_time_s);
    tg.add_scalar("buffer_bytes", "B", "buffer traffic").set(t.buffer_bytes);
    tg.add_scalar("buffer_time", "s", "buffer traffic / tile buffer bandwidth")
        .set(t.buffer_time_s);
    tg.add_scalar("network_bytes", "B", "on-chip network traffic").set(t.network_bytes);
    tg.add_scalar("network_time", "s", "network traffic / network bandwidth").set(t.network_time_s);
    tg.add_scalar("reprogram_time", "s", "weight loads between passes").set(t.reprogram_time_s);
    tg.add_scalar("time", "s",
                  "layer time: the longest of compute, buffer and network, plus "
                  "reprogramming")
        .set(t.time_s);
    tg.add_scalar("achieved_ops_per_s", "op/s", "2 M K N / layer time").set(t.ops / t.time_s);

    StatGroup& eg = g.add_group("events");
    eg.add_scalar("adc_conversions", "count", "column conversions").set(t.adc_conversions);
    eg.add_scalar("dac_conversions", "count", "word-line input codes").set(t.dac_conversions);
    eg.add_scalar("cell_reads", "count", "cells read x cycles").set(t.cell_reads);
    eg.add_scalar("shift_adds", "count", "ADC outputs shifted and added").set(t.shift_adds);

    StatGroup& en = g.add_group("energy");
    publish_breakdown(en, energy, "J", "layer energy");
    en.add_scalar("per_vector", "J", "total / input vectors (one MVM of the whole layer)")
        .set(energy.total() / double(shape.m));
    en.add_scalar("tops_per_w", "TOPS/W", "2 M K N / total energy, in 1e12 op/J")
        .set(t.ops / energy.total() / 1e12);

    StatGroup& pg = g.add_group("programming");
    pg.add_scalar("cells", "count", "cells written per weight load").set(prog.cells);
    pg.add_scalar("pulses", "count", "write pulses (each with a verify read)").set(prog.pulses);
    pg.add_scalar("time", "s", "write-verify time of all passes, crossbars in parallel")
        .set(prog.time_s);
    pg.add_scalar("energy", "J", "write-verify energy of one weight load").set(prog.energy_j);
    pg.add_scalar("reprograms_to_wearout", "count",
                  "full weight rewrites before the cells' endurance is used up (a training "
                  "run rewrites them every step)")
        .set(prog.reprograms_to_wearout);
    pg.add_scalar("write_over_inference_time", "ratio",
                  "one weight load / one inference of the layer")
        .set(prog.time_s / (t.time_s - t.reprogram_time_s));
    pg.add_scalar("write_over_inference_energy", "ratio",
                  "one weight load / one inference of the layer")
        .set(prog.energy_j / energy.total());
    return t.bound;
}

void publish_error(StatGroup& g, const ErrorStats& e) {
    g.add_counter("count", "count", "outputs compared") += e.count;
    g.add_scalar("rms_error", "value", "root mean square error").set(e.rms_error);
    g.add_scalar("max_abs_error", "value", "largest absolute error").set(e.max_abs_error);
    g.add_scalar("reference_rms", "value", "RMS of the reference").set(e.reference_rms);
    g.add_scalar("reference_range", "value", "max - min of the reference").set(e.reference_range);
    g.add_scalar("normalised_rms_error", "ratio", "rms error / reference RMS")
        .set(e.normalised_rms_error());
    g.add_scalar("effective_bits", "bit",
                 "log2(reference range / (rms error x sqrt 12)); 53 when exact")
        .set(e.effective_bits());
}

void publish_accuracy(StatGroup& g, const LayerAccuracy& a) {
    g.add_counter("crossbars", "count", "crossbars simulated functionally") += a.crossbars;
    g.add_counter("input_passes", "count", "2 when negative inputs need a second pass") +=
        a.input_passes;
    publish_error(g.add_group("vs_float"), a.vs_float);
    publish_error(g.add_group("vs_integer"), a.vs_integer);
    publish_error(g.add_group("quantisation"), a.quantisation);
}

}  // namespace sim::cim
