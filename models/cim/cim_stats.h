// SPDX-License-Identifier: MIT
// Publishes CIM results as stats: the chip's peak figures (TOPS, TOPS/W, TOPS/mm^2, power and
// area per component with the ADC share), a layer's mapping, timing, events, energy per
// component and weight-programming cost, and functional accuracy against floating point.
#pragma once

#include <string>

#include "models/cim/core/accuracy.h"
#include "models/cim/core/cim_config.h"
#include "models/cim/core/layer_mapping.h"
#include "sim/stats/group.h"

namespace sim::cim {

void publish_peak(StatGroup& g, const CimConfig& cfg);

/// Mapping, timing, energy and programming of one GEMM layer; returns what bounds its time
/// (adc, crossbar_read, buffer or network).
std::string publish_layer(StatGroup& g, const CimConfig& cfg, const GemmShape& shape);

void publish_error(StatGroup& g, const ErrorStats& e);
void publish_accuracy(StatGroup& g, const LayerAccuracy& a);

}  // namespace sim::cim
