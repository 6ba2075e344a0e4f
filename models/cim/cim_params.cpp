// SPDX-License-Identifier: MIT
#include "models/cim/cim_params.h"

#include "models/cim/core/weight_encoding.h"
#include "sim/config/device_identity.h"
#include "sim/config/loader.h"
#include "sim/config/resolved.h"

namespace sim::cim {

namespace {

void read_crossbar(const ConfigNode& n, CrossbarConfig& c) {
    n.require("rows", c.rows);
    n.require("columns", c.columns);
    n.require("cell_bits", c.cell_bits);
    n.require("dac_bits", c.dac_bits);
    n.require("adc_bits", c.adc_bits);
    n.require("columns_per_adc", c.columns_per_adc);
    if (!n.get_quantity("adc_sample_rate", Dimension::Frequency, c.adc_sample_rate_hz))
        n.fail("adc_sample_rate", "required key is missing; expected e.g. 1.28GHz");
    if (!n.get_quantity("read_time", Dimension::Time, c.read_time_s))
        n.fail("read_time", "required key is missing; expected e.g. 100ns");
    n.get("adc_full_scale", c.adc_full_scale);
    n.require("on_off_ratio", c.on_off_ratio);
    n.get("on_conductance_us", c.on_conductance_us);
    n.get("read_voltage_v", c.read_voltage_v);
    std::string sign = c.sign == SignEncoding::Offset ? "offset" : "differential";
    n.get_choice("sign_encoding", sign, {"offset", "differential"});
    c.sign = sign == "offset" ? SignEncoding::Offset : SignEncoding::Differential;
    n.get("flip_columns", c.flip_columns);
}

void read_nonideality(const ConfigNode& n, NonidealityConfig& d) {
    n.get("variation_sigma", d.variation_sigma);
    n.get("write_noise_sigma", d.write_noise_sigma);
    n.get("drift_nu", d.drift_nu);
    n.get_quantity("drift_t0", Dimension::Time, d.drift_t0_s);
    n.get_quantity("time_since_programming", Dimension::Time, d.time_since_programming_s);
    n.get("nonlinearity", d.nonlinearity);
    n.get("wire_resistance_ohm", d.wire_resistance_ohm);
}

void read_data(const ConfigNode& n, DataConfig& d) {
    n.require("weight_bits", d.weight_bits);
    n.require("input_bits", d.input_bits);
    n.get("output_bits", d.output_bits);
    n.get("partial_sum_bits", d.partial_sum_bits);
}

void read_organisation(const ConfigNode& n, OrganisationConfig& o) {
    n.require("crossbars_per_ima", o.crossbars_per_ima);
    n.require("imas_per_tile", o.imas_per_tile);
    n.require("tiles", o.tiles);
    if (!n.get_quantity("tile_buffer_bandwidth", Dimension::Bandwidth, o.tile_buffer_bandwidth))
        n.fail("tile_buffer_bandwidth", "required key is missing; expected e.g. 38.4GB/s");
    if (!n.get_quantity("network_bandwidth", Dimension::Bandwidth, o.network_bandwidth))
        n.fail("network_bandwidth", "required key is missing; expected e.g. 12.8GB/s");
}

void read_programming(const ConfigNode& n, ProgrammingConfig& p) {
    n.get_quantity("pulse_time", Dimension::Time, p.pulse_time_s);
    n.get_quantity("verify_time", Dimension::Time, p.verify_time_s);
    n.get_quantity("pulse_energy", Dimension::Energy, p.pulse_energy_j);
    n.get_quantity("verify_energy", Dimension::Energy, p.verify_energy_j);
    n.get("pulses_per_write", p.pulses_per_write);
    n.get("cells_per_write", p.cells_per_write);
    n.get("endurance_cycles", p.endurance_cycles);
}

void read_energy(const ConfigNode& n, EnergyConfig& e) {
    n.get_quantity("adc_conversion", Dimension::Energy, e.adc_conversion_j);
    n.get("adc_reference_bits", e.adc_reference_bits);
    n.get_quantity("dac_conversion", Dimension::Energy, e.dac_conversion_j);
    n.get_quantity("sample_hold", Dimension::Energy, e.sample_hold_j);
    n.get_quantity("cell_read", Dimension::Energy, e.cell_read_j);
    n.get_quantity("shift_add", Dimension::Energy, e.shift_add_j);
    n.get_quantity("ima_buffers", Dimension::Power, e.ima_buffers_w);
    n.get_quantity("tile_buffer", Dimension::Power, e.tile_buffer_w);
    n.get_quantity("network", Dimension::Power, e.network_w);
    n.get_quantity("tile_digital", Dimension::Power, e.tile_digital_w);
    n.get_quantity("chip_io", Dimension::Power, e.chip_io_w);
}

void read_area(const ConfigNode& n, AreaConfig& a) {
    n.get("adc_mm2", a.adc_mm2);
    n.get("dac_mm2", a.dac_mm2);
    n.get("sample_hold_mm2", a.sample_hold_mm2);
    n.get("crossbar_mm2", a.crossbar_mm2);
    n.get("shift_add_mm2", a.shift_add_mm2);
    n.get("ima_buffers_mm2", a.ima_buffers_mm2);
    n.get("tile_buffer_mm2", a.tile_buffer_mm2);
    n.get("network_mm2", a.network_mm2);
    n.get("tile_digital_mm2", a.tile_digital_mm2);
    n.get("chip_io_mm2", a.chip_io_mm2);
}

// Reports an InvalidParam at its key ("section.key") in the file.
[[noreturn]] void fail_at(const ConfigNode& root, const InvalidParam& e) {
    const std::string& key = e.key();
    const size_t dot = key.find('.');
    if (dot != std::string::npos) {
        if (const auto section = root.optional_child(key.substr(0, dot)))
            section->fail(key.substr(dot + 1), e.message());
    }
    root.fail(key, e.message());
}

}  // namespace

CimConfig cim_config_from(const ConfigNode& root) {
    CimConfig c;
    const DeviceIdentity& identity = resolved<DeviceIdentity>(root);
    c.name = identity.required_name(root);
    // The same file serves `wallsim cim` and, as a device, `wallsim run --hw`.
    const std::string device = identity.device.empty() ? "cim" : identity.device;
    if (device != "cim") root.fail("device", "'" + device + "': a CIM file describes device cim");
    read_crossbar(root.child("crossbar"), c.crossbar);
    if (const auto n = root.optional_child("nonideality")) read_nonideality(*n, c.nonideality);
    read_data(root.child("data"), c.data);
    read_organisation(root.child("organisation"), c.organisation);
    if (const auto n = root.optional_child("programming")) read_programming(*n, c.programming);
    if (const auto n = root.optional_child("energy")) read_energy(*n, c.energy);
    if (const auto n = root.optional_child("area")) read_area(*n, c.area);
    root.reject_unknown_keys_recursive();
    try {
        c.validate();
        weight_layout(c.crossbar, c.data);  // at least one weight must fit a crossbar
    } catch (const InvalidParam& e) {
        fail_at(root, e);
    }
    return c;
}

CimConfig load_cim_config(const std::string& path,
                          const std::vector<std::string>& overrides,
                          std::shared_ptr<ConfigDocument>* doc) {
    std::shared_ptr<ConfigDocument> d = load_config(path, overrides);
    CimConfig c = cim_config_from(ConfigNode::root_of(d));
    if (doc) *doc = std::move(d);
    return c;
}

}  // namespace sim::cim
