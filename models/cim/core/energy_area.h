// SPDX-License-Identifier: MIT
// Energy and area of a CIM chip per component. Event energies (ADC conversions, DAC codes,
// sample-and-holds, cell reads, shift-and-adds) are charged per event of a layer; buffers,
// network, tile digital logic and chip I/O are charged as power x layer time on the IMAs and
// tiles the layer occupies (the chip I/O always). A layer larger than the chip also pays
// for rewriting its weights between passes. ADC and DAC energy and area scale as
// 2^(bits - reference bits).
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "models/cim/core/cim_config.h"
#include "models/cim/core/layer_mapping.h"

namespace sim::cim {

enum class Component : uint32_t {
    Cells,
    Dac,
    SampleHold,
    Adc,
    ShiftAdd,
    ImaBuffers,
    TileBuffer,
    Network,
    TileDigital,
    ChipIo,
    Programming,  ///< weight writes between passes of a layer larger than the chip
};
constexpr size_t kComponentCount = 11;

/// Stat and plot name of a component ("adc", "tile_buffer").
const char* component_name(Component c);

/// One number per component (joules, watts or mm^2).
struct Breakdown {
    std::array<double, kComponentCount> values{};
    double& operator[](Component c) { return values[static_cast<size_t>(c)]; }
    double operator[](Component c) const { return values[static_cast<size_t>(c)]; }
    double total() const;
};

/// Energy per ADC conversion and area per ADC at the configured resolution.
double adc_conversion_energy(const CimConfig& cfg);
double adc_area(const CimConfig& cfg);

/// Energy of one layer, joules.
Breakdown layer_energy(const CimConfig& cfg, const LayerMapping& map, const LayerTiming& t);

/// Area of the whole chip, mm^2.
Breakdown chip_area(const CimConfig& cfg);

/// Peak figures with every crossbar reading every column every cycle.
struct PeakFigures {
    double ops_per_s = 0;  ///< 2 x MACs of weight_bits x input_bits per second
    Breakdown power_w;     ///< per component at full activity
    Breakdown area_mm2;
    double cycle_time_s = 0;
    double tops_per_w() const;
    double tops_per_mm2() const;
};

PeakFigures peak_figures(const CimConfig& cfg);

}  // namespace sim::cim
