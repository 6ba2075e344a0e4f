// SPDX-License-Identifier: MIT
#include "models/cim/core/energy_area.h"

#include <algorithm>
#include <cmath>

namespace sim::cim {

namespace {

double resolution_scale(uint32_t bits, uint32_t reference_bits) {
    return std::ldexp(1.0, static_cast<int>(bits) - static_cast<int>(reference_bits));
}

double dac_energy(const CimConfig& cfg) {
    return cfg.energy.dac_conversion_j * resolution_scale(cfg.crossbar.dac_bits, 1);
}

}  // namespace

const char* component_name(Component c) {
    switch (c) {
        case Component::Cells: return "cells";
        case Component::Dac: return "dac";
        case Component::SampleHold: return "sample_hold";
        case Component::Adc: return "adc";
        case Component::ShiftAdd: return "shift_add";
        case Component::ImaBuffers: return "ima_buffers";
        case Component::TileBuffer: return "tile_buffer";
        case Component::Network: return "network";
        case Component::TileDigital: return "tile_digital";
        case Component::ChipIo: return "chip_io";
        case Component::Programming: return "programming";
    }
    return "?";
}

double Breakdown::total() const {
    double s = 0;
    for (double v : values)
        s += v;
    return s;
}

double adc_conversion_energy(const CimConfig& cfg) {
    return cfg.energy.adc_conversion_j *
           resolution_scale(cfg.crossbar.adc_bits, cfg.energy.adc_reference_bits);
}

double adc_area(const CimConfig& cfg) {
    return cfg.area.adc_mm2 *
           resolution_scale(cfg.crossbar.adc_bits, cfg.energy.adc_reference_bits);
}

Breakdown layer_energy(const CimConfig& cfg, const LayerMapping& map, const LayerTiming& t) {
    const EnergyConfig& e = cfg.energy;
    Breakdown b;
    b[Component::Cells] = t.cell_reads * e.cell_read_j;
    b[Component::Dac] = t.dac_conversions * dac_energy(cfg);
    b[Component::SampleHold] = t.adc_conversions * e.sample_hold_j;
    b[Component::Adc] = t.adc_conversions * adc_conversion_energy(cfg);
    b[Component::ShiftAdd] = t.shift_adds * e.shift_add_j;
    // Always-on blocks burn while the layer runs, but not while its weights are rewritten.
    const double busy = t.time_s - t.reprogram_time_s;
    b[Component::ImaBuffers] = e.ima_buffers_w * double(map.imas_used) * busy;
    b[Component::TileBuffer] = e.tile_buffer_w * double(map.tiles_used) * busy;
    b[Component::Network] = e.network_w * double(map.tiles_used) * busy;
    b[Component::TileDigital] = e.tile_digital_w * double(map.tiles_used) * busy;
    b[Component::ChipIo] = e.chip_io_w * busy;
    if (map.passes > 1) b[Component::Programming] = program_gemm(cfg, map).energy_j;
    return b;
}

Breakdown chip_area(const CimConfig& cfg) {
    const CrossbarConfig& xb = cfg.crossbar;
    const OrganisationConfig& org = cfg.organisation;
    const AreaConfig& a = cfg.area;
    const double crossbars = double(org.crossbars());
    const double imas = double(org.imas_per_tile) * org.tiles;
    Breakdown b;
    b[Component::Cells] = crossbars * a.crossbar_mm2;
    b[Component::Dac] = crossbars * xb.rows * a.dac_mm2 * resolution_scale(xb.dac_bits, 1);
    b[Component::SampleHold] = crossbars * xb.columns * a.sample_hold_mm2;
    b[Component::Adc] = crossbars * xb.adcs() * adc_area(cfg);
    b[Component::ShiftAdd] = imas * a.shift_add_mm2;
    b[Component::ImaBuffers] = imas * a.ima_buffers_mm2;
    b[Component::TileBuffer] = org.tiles * a.tile_buffer_mm2;
    b[Component::Network] = org.tiles * a.network_mm2;
    b[Component::TileDigital] = org.tiles * a.tile_digital_mm2;
    b[Component::ChipIo] = a.chip_io_mm2;
    return b;
}

PeakFigures peak_figures(const CimConfig& cfg) {
    const CrossbarConfig& xb = cfg.crossbar;
    const OrganisationConfig& org = cfg.organisation;
    const EnergyConfig& e = cfg.energy;
    const WeightLayout layout = weight_layout(xb, cfg.data);
    PeakFigures p;
    p.cycle_time_s = std::max(xb.read_time_s, xb.columns_per_adc / xb.adc_sample_rate_hz);
    const double cycles_per_vector = std::ceil(double(cfg.data.input_bits) / xb.dac_bits);
    const double crossbars = double(org.crossbars());
    const double macs_per_vector = double(xb.rows) * layout.weights_per_crossbar;
    p.ops_per_s = crossbars * 2 * macs_per_vector / (cycles_per_vector * p.cycle_time_s);
    const double cycles_per_s = crossbars / p.cycle_time_s;  // crossbar read cycles
    const double columns = double(layout.weights_per_crossbar) * layout.columns_per_weight;
    const double imas = double(org.imas_per_tile) * org.tiles;
    p.power_w[Component::Cells] = cycles_per_s * xb.rows * columns * e.cell_read_j;
    p.power_w[Component::Dac] = cycles_per_s * xb.rows * dac_energy(cfg);
    p.power_w[Component::SampleHold] = cycles_per_s * columns * e.sample_hold_j;
    p.power_w[Component::Adc] = cycles_per_s * columns * adc_conversion_energy(cfg);
    p.power_w[Component::ShiftAdd] = cycles_per_s * columns * e.shift_add_j;
    p.power_w[Component::ImaBuffers] = imas * e.ima_buffers_w;
    p.power_w[Component::TileBuffer] = org.tiles * e.tile_buffer_w;
    p.power_w[Component::Network] = org.tiles * e.network_w;
    p.power_w[Component::TileDigital] = org.tiles * e.tile_digital_w;
    p.power_w[Component::ChipIo] = e.chip_io_w;
    p.area_mm2 = chip_area(cfg);
    return p;
}

double PeakFigures::tops_per_w() const {
    const double w = power_w.total();
    return w > 0 ? ops_per_s / 1e12 / w : 0;
}

double PeakFigures::tops_per_mm2() const {
    const double a = area_mm2.total();
    return a > 0 ? ops_per_s / 1e12 / a : 0;
}

}  // namespace sim::cim
