// SPDX-License-Identifier: MIT
#include "models/cim/cim_params.h"

#include <limits>

#include "models/cim/core/weight_encoding.h"
#include "sim/config/device_identity.h"
#include "sim/config/loader.h"
#include "sim/config/resolved.h"

namespace sim::cim {

namespace {

constexpr double kNoLimit = std::numeric_limits<double>::infinity();

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

ParamTable<CrossbarConfig> crossbar_param_table() {
    using P = CrossbarConfig;
    ParamTable<P> t;
    t.integer("rows", &P::rows, 1, 4096, "word lines", "crossbar rows: one input each").required();
    t.integer("columns", &P::columns, 1, 4096, "bit lines",
              "crossbar columns: one ADC input each, through the multiplexer")
        .required();
    t.integer("cell_bits", &P::cell_bits, 1, 8, "bits", "bits per cell: 2^b conductance levels")
        .required();
    t.integer("dac_bits", &P::dac_bits, 1, 8, "bits", "input bits applied per read cycle")
        .required();
    t.integer("adc_bits", &P::adc_bits, 1, 16, "bits", "ADC resolution").required();
    t.integer("columns_per_adc", &P::columns_per_adc, 1, 4096, "columns",
              "columns multiplexed onto one ADC; must divide columns")
        .required();
    t.positive_quantity("adc_sample_rate", &P::adc_sample_rate_hz, Dimension::Frequency,
                        "conversions per second of one ADC")
        .required();
    t.positive_quantity("read_time", &P::read_time_s, Dimension::Time,
                        "shortest read cycle: settle, sample and hold")
        .required();
    t.number("adc_full_scale", &P::adc_full_scale, 0, 1, true, "ratio",
             "ADC range as a fraction of the largest column sum");
    t.number("on_off_ratio", &P::on_off_ratio, 1, kNoLimit, true, "ratio", "G_on / G_off")
        .required();
    t.number("on_conductance_us", &P::on_conductance_us, 0, kNoLimit, true, "uS",
             "G_on, the low-resistance state (sets the IR drop per ohm)");
    t.number("read_voltage_v", &P::read_voltage_v, 0, kNoLimit, true, "V",
             "word-line voltage of a full-scale input code");
    t.options("sign_encoding", &P::sign,
              {{"offset", SignEncoding::Offset}, {"differential", SignEncoding::Differential}},
              "offset: weight + 2^(bits-1) in one column per slice (ISAAC); differential: a "
              "positive and a negative column (PRIME)");
    t.flag("flip_columns", &P::flip_columns,
           "ISAAC's encoding: a column whose levels add up to more than half the range stores "
           "complements, which saves the ADC one bit");
    return t;
}

ParamTable<NonidealityConfig> nonideality_param_table() {
    using P = NonidealityConfig;
    ParamTable<P> t;
    t.number("variation_sigma", &P::variation_sigma, 0, 3, false, "",
             "lognormal sigma of programmed conductance (device to device)");
    t.number("write_noise_sigma", &P::write_noise_sigma, 0, kNoLimit, false, "level steps",
             "Gaussian write error left after write-verify");
    t.number("drift_nu", &P::drift_nu, 0, kNoLimit, false, "",
             "drift exponent: G(t) = G0 (t / t0)^-nu");
    t.positive_quantity("drift_t0", &P::drift_t0_s, Dimension::Time,
                        "time after programming at which G = G0");
    t.positive_quantity("time_since_programming", &P::time_since_programming_s, Dimension::Time,
                        "when the reads happen");
    t.number("nonlinearity", &P::nonlinearity, 0, 10, false, "",
             "k in I = G V_r sinh(k V / V_r) / k; 0: Ohmic");
    t.number("wire_resistance_ohm", &P::wire_resistance_ohm, 0, kNoLimit, false, "ohm",
             "per cell segment of word and bit line (IR drop)");
    return t;
}

ParamTable<DataConfig> data_param_table() {
    using P = DataConfig;
    ParamTable<P> t;
    t.integer("weight_bits", &P::weight_bits, 2, 24, "bits", "signed weights").required();
    t.integer("input_bits", &P::input_bits, 1, 24, "bits",
              "unsigned input magnitudes; negative inputs take a second pass")
        .required();
    t.integer("output_bits", &P::output_bits, 1, 64, "bits", "written back to the buffers");
    t.integer("partial_sum_bits", &P::partial_sum_bits, 1, 64, "bits",
              "partial sums between crossbars and tiles (buffer and network traffic)");
    return t;
}

ParamTable<OrganisationConfig> organisation_param_table() {
    using P = OrganisationConfig;
    ParamTable<P> t;
    t.integer("crossbars_per_ima", &P::crossbars_per_ima, 1, 1u << 16, "crossbars",
              "crossbars in one IMA (in-situ multiply-accumulate unit)")
        .required();
    t.integer("imas_per_tile", &P::imas_per_tile, 1, 1u << 16, "IMAs", "IMAs in one tile")
        .required();
    t.integer("tiles", &P::tiles, 1, 1u << 20, "tiles", "tiles on the chip").required();
    t.positive_quantity("tile_buffer_bandwidth", &P::tile_buffer_bandwidth, Dimension::Bandwidth,
                        "per tile: its eDRAM buffer to its IMAs")
        .required();
    t.positive_quantity("network_bandwidth", &P::network_bandwidth, Dimension::Bandwidth,
                        "per tile: into the on-chip network")
        .required();
    return t;
}

ParamTable<ProgrammingConfig> programming_param_table() {
    using P = ProgrammingConfig;
    ParamTable<P> t;
    t.positive_quantity("pulse_time", &P::pulse_time_s, Dimension::Time, "one SET or RESET pulse");
    t.quantity("verify_time", &P::verify_time_s, Dimension::Time, 0, kNoLimit, "one verify read");
    t.quantity("pulse_energy", &P::pulse_energy_j, Dimension::Energy, 0, kNoLimit,
               "one pulse on one cell");
    t.quantity("verify_energy", &P::verify_energy_j, Dimension::Energy, 0, kNoLimit,
               "one verify read of one cell");
    t.integer("pulses_per_write", &P::pulses_per_write, 1, 1u << 20, "pulses",
              "write-verify iterations per cell, on average");
    t.integer("cells_per_write", &P::cells_per_write, 1, 1u << 24, "cells",
              "cells one crossbar programs at once (a row)");
    t.number("endurance_cycles", &P::endurance_cycles, 0, kNoLimit, true, "pulses",
             "pulses a cell survives");
    return t;
}

ParamTable<EnergyConfig> energy_param_table() {
    using P = EnergyConfig;
    ParamTable<P> t;
    t.quantity("adc_conversion", &P::adc_conversion_j, Dimension::Energy, 0, kNoLimit,
               "one conversion at adc_reference_bits; scales as 2^(adc_bits - reference)");
    t.integer("adc_reference_bits", &P::adc_reference_bits, 1, 16, "bits",
              "the resolution adc_conversion and area.adc_mm2 are given at");
    t.quantity("dac_conversion", &P::dac_conversion_j, Dimension::Energy, 0, kNoLimit,
               "one input code on one word line at 1 bit; scales as 2^(dac_bits - 1)");
    t.quantity("sample_hold", &P::sample_hold_j, Dimension::Energy, 0, kNoLimit,
               "one column sampled");
    t.quantity("cell_read", &P::cell_read_j, Dimension::Energy, 0, kNoLimit,
               "one cell in one read cycle");
    t.quantity("shift_add", &P::shift_add_j, Dimension::Energy, 0, kNoLimit,
               "one shift-and-add of one ADC output");
    t.quantity("ima_buffers", &P::ima_buffers_w, Dimension::Power, 0, kNoLimit,
               "input and output registers of an IMA, while running");
    t.quantity("tile_buffer", &P::tile_buffer_w, Dimension::Power, 0, kNoLimit,
               "eDRAM buffer and its bus, per tile");
    t.quantity("network", &P::network_w, Dimension::Power, 0, kNoLimit, "router share, per tile");
    t.quantity("tile_digital", &P::tile_digital_w, Dimension::Power, 0, kNoLimit,
               "activation, pooling and output register, per tile");
    t.quantity("chip_io", &P::chip_io_w, Dimension::Power, 0, kNoLimit, "off-chip links, per chip");
    return t;
}

ParamTable<AreaConfig> area_param_table() {
    using P = AreaConfig;
    ParamTable<P> t;
    const auto area = [&t](const char* key, double P::*member, const char* description) {
        t.number(key, member, 0, kNoLimit, false, "mm^2", description);
    };
    area("adc_mm2", &P::adc_mm2,
         "one ADC at energy.adc_reference_bits; scales as 2^(bits - reference)");
    area("dac_mm2", &P::dac_mm2, "one 1-bit DAC");
    area("sample_hold_mm2", &P::sample_hold_mm2, "one column sample-and-hold");
    area("crossbar_mm2", &P::crossbar_mm2, "one crossbar array");
    area("shift_add_mm2", &P::shift_add_mm2, "shift-and-add units of one IMA");
    area("ima_buffers_mm2", &P::ima_buffers_mm2, "input and output registers of one IMA");
    area("tile_buffer_mm2", &P::tile_buffer_mm2, "eDRAM and bus, per tile");
    area("network_mm2", &P::network_mm2, "router share, per tile");
    area("tile_digital_mm2", &P::tile_digital_mm2, "per tile");
    area("chip_io_mm2", &P::chip_io_mm2, "per chip");
    return t;
}

CimConfig cim_config_from(const ConfigNode& root) {
    CimConfig c;
    const DeviceIdentity& identity = resolved<DeviceIdentity>(root);
    c.name = identity.required_name(root);
    // The same file serves `wallsim cim` and, as a device, `wallsim run --hw`.
    const std::string device = identity.device.empty() ? "cim" : identity.device;
    if (device != "cim") root.fail("device", "'" + device + "': a CIM file describes device cim");
    crossbar_param_table().read(root.child("crossbar"), c.crossbar);
    if (const auto n = root.optional_child("nonideality"))
        nonideality_param_table().read(*n, c.nonideality);
    data_param_table().read(root.child("data"), c.data);
    organisation_param_table().read(root.child("organisation"), c.organisation);
    if (const auto n = root.optional_child("programming"))
        programming_param_table().read(*n, c.programming);
    if (const auto n = root.optional_child("energy")) energy_param_table().read(*n, c.energy);
    if (const auto n = root.optional_child("area")) area_param_table().read(*n, c.area);
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
