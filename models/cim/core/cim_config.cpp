// SPDX-License-Identifier: MIT
#include "models/cim/core/cim_config.h"

#include <cmath>

namespace sim::cim {

namespace {

void require_range(const std::string& key, uint64_t v, uint64_t least, uint64_t most) {
    if (v < least || v > most) {
        throw InvalidParam(key, "= " + std::to_string(v) + ": expected a whole number from " +
                                    std::to_string(least) + " to " + std::to_string(most));
    }
}

void require_positive(const std::string& key, double v) {
    if (!(v > 0) || !std::isfinite(v))
        throw InvalidParam(key, "must be greater than 0, got " + std::to_string(v));
}

void require_non_negative(const std::string& key, double v) {
    if (!(v >= 0) || !std::isfinite(v))
        throw InvalidParam(key, "must not be negative, got " + std::to_string(v));
}

}  // namespace

void CrossbarConfig::validate() const {
    require_range("crossbar.rows", rows, 1, 4096);
    require_range("crossbar.columns", columns, 1, 4096);
    require_range("crossbar.cell_bits", cell_bits, 1, 8);
    require_range("crossbar.dac_bits", dac_bits, 1, 8);
    require_range("crossbar.adc_bits", adc_bits, 1, 16);
    require_range("crossbar.columns_per_adc", columns_per_adc, 1, columns);
    if (columns % columns_per_adc != 0) {
        throw InvalidParam("crossbar.columns_per_adc", "= " + std::to_string(columns_per_adc) +
                                                           " must divide columns (" +
                                                           std::to_string(columns) + ")");
    }
    require_positive("crossbar.adc_sample_rate", adc_sample_rate_hz);
    require_positive("crossbar.read_time", read_time_s);
    if (!(adc_full_scale > 0 && adc_full_scale <= 1)) {
        throw InvalidParam("crossbar.adc_full_scale",
                           "must be in (0, 1], a fraction of the largest column sum");
    }
    if (!(on_off_ratio > 1) || !std::isfinite(on_off_ratio))
        throw InvalidParam("crossbar.on_off_ratio", "must be greater than 1");
    require_positive("crossbar.on_conductance_us", on_conductance_us);
    require_positive("crossbar.read_voltage_v", read_voltage_v);
}

void NonidealityConfig::validate() const {
    require_non_negative("nonideality.variation_sigma", variation_sigma);
    require_non_negative("nonideality.write_noise_sigma", write_noise_sigma);
    require_non_negative("nonideality.drift_nu", drift_nu);
    require_positive("nonideality.drift_t0", drift_t0_s);
    require_positive("nonideality.time_since_programming", time_since_programming_s);
    require_non_negative("nonideality.nonlinearity", nonlinearity);
    require_non_negative("nonideality.wire_resistance_ohm", wire_resistance_ohm);
    if (variation_sigma > 3) throw InvalidParam("nonideality.variation_sigma", "must be at most 3");
    if (nonlinearity > 10) throw InvalidParam("nonideality.nonlinearity", "must be at most 10");
}

void DataConfig::validate() const {
    require_range("data.weight_bits", weight_bits, 2, 24);
    require_range("data.input_bits", input_bits, 1, 24);
    require_range("data.output_bits", output_bits, 1, 64);
    require_range("data.partial_sum_bits", partial_sum_bits, 1, 64);
}

void OrganisationConfig::validate() const {
    require_range("organisation.crossbars_per_ima", crossbars_per_ima, 1, 1u << 16);
    require_range("organisation.imas_per_tile", imas_per_tile, 1, 1u << 16);
    require_range("organisation.tiles", tiles, 1, 1u << 20);
    require_positive("organisation.tile_buffer_bandwidth", tile_buffer_bandwidth);
    require_positive("organisation.network_bandwidth", network_bandwidth);
}

void ProgrammingConfig::validate() const {
    require_positive("programming.pulse_time", pulse_time_s);
    require_non_negative("programming.verify_time", verify_time_s);
    require_non_negative("programming.pulse_energy", pulse_energy_j);
    require_non_negative("programming.verify_energy", verify_energy_j);
    require_range("programming.pulses_per_write", pulses_per_write, 1, 1u << 20);
    require_range("programming.cells_per_write", cells_per_write, 1, 1u << 24);
    require_positive("programming.endurance_cycles", endurance_cycles);
}

void EnergyConfig::validate() const {
    require_non_negative("energy.adc_conversion", adc_conversion_j);
    require_range("energy.adc_reference_bits", adc_reference_bits, 1, 16);
    require_non_negative("energy.dac_conversion", dac_conversion_j);
    require_non_negative("energy.sample_hold", sample_hold_j);
    require_non_negative("energy.cell_read", cell_read_j);
    require_non_negative("energy.shift_add", shift_add_j);
    require_non_negative("energy.ima_buffers", ima_buffers_w);
    require_non_negative("energy.tile_buffer", tile_buffer_w);
    require_non_negative("energy.network", network_w);
    require_non_negative("energy.tile_digital", tile_digital_w);
    require_non_negative("energy.chip_io", chip_io_w);
}

void AreaConfig::validate() const {
    for (const auto& [key, v] : {std::pair<const char*, double>{"area.adc_mm2", adc_mm2},
                                 {"area.dac_mm2", dac_mm2},
                                 {"area.sample_hold_mm2", sample_hold_mm2},
                                 {"area.crossbar_mm2", crossbar_mm2},
                                 {"area.shift_add_mm2", shift_add_mm2},
                                 {"area.ima_buffers_mm2", ima_buffers_mm2},
                                 {"area.tile_buffer_mm2", tile_buffer_mm2},
                                 {"area.network_mm2", network_mm2},
                                 {"area.tile_digital_mm2", tile_digital_mm2},
                                 {"area.chip_io_mm2", chip_io_mm2}}) {
        require_non_negative(key, v);
    }
}

void CimConfig::validate() const {
    crossbar.validate();
    nonideality.validate();
    data.validate();
    organisation.validate();
    programming.validate();
    energy.validate();
    area.validate();
}

}  // namespace sim::cim
