// SPDX-License-Identifier: MIT
// Reading configs/cim files: presets load, overrides apply, bad values name their key and the
// range their ParamTable states, the tables' defaults are the structs', and validate() keeps the
// checks between keys and the bounds the integer arithmetic needs.
#include "models/cim/cim_params.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>

#include "sim/config/loader.h"
#include "tests/testing/config_error.h"
#include "tests/testing/temp_dir.h"

namespace sim::cim {
namespace {

using sim::testing::config_error;
using ::testing::AllOf;
using ::testing::HasSubstr;

CimConfig isaac(const std::vector<std::string>& overrides = {}) {
    return load_cim_config(sim::testing::source_path("configs/cim/isaac.yaml"), overrides);
}

TEST(CimParams, PresetsLoad) {
    const CimConfig c = isaac();
    EXPECT_EQ(c.crossbar.rows, 128u);
    EXPECT_EQ(c.crossbar.sign, SignEncoding::Offset);
    EXPECT_TRUE(c.crossbar.flip_columns);
    EXPECT_DOUBLE_EQ(c.crossbar.adc_sample_rate_hz, 1.28e9);
    EXPECT_DOUBLE_EQ(c.energy.adc_conversion_j, 1.5625e-12);
    EXPECT_EQ(c.organisation.crossbars(), 16128u);
    const CimConfig t = load_cim_config(sim::testing::source_path("configs/cim/teaching.yaml"), {});
    EXPECT_EQ(t.crossbar.rows, 32u);
    EXPECT_EQ(t.crossbar.sign, SignEncoding::Differential);
    EXPECT_DOUBLE_EQ(t.nonideality.time_since_programming_s, 86400);
    EXPECT_DOUBLE_EQ(t.energy.adc_conversion_j, 1.5625e-12);  // inherited through extends
}

TEST(CimParams, OverridesApply) {
    EXPECT_EQ(isaac({"crossbar.adc_bits=6"}).crossbar.adc_bits, 6u);
    EXPECT_DOUBLE_EQ(isaac({"nonideality.drift_t0=10s"}).nonideality.drift_t0_s, 10);
}

TEST(CimParams, BadValuesNameTheirKeyAndFileLine) {
    EXPECT_THAT(config_error([] { isaac({"crossbar.rowz=3"}); }),
                AllOf(HasSubstr("crossbar.rowz"), HasSubstr("unknown key"),
                      HasSubstr("did you mean 'rows'")));
    EXPECT_THAT(config_error([] { isaac({"nonideality.variation_sigma=-0.1"}); }),
                AllOf(HasSubstr("nonideality.variation_sigma: = -0.1 is out of range: must be "
                                "between 0 and 3")));
    EXPECT_THAT(config_error([] { isaac({"crossbar.rows=0"}); }),
                HasSubstr("crossbar.rows: = 0 is out of range: must be between 1 and 4096"));
    EXPECT_THAT(config_error([] { isaac({"crossbar.columns_per_adc=3"}); }),
                AllOf(HasSubstr("crossbar.columns_per_adc"), HasSubstr("must divide")));
    EXPECT_THAT(config_error([] { isaac({"crossbar.on_off_ratio=1"}); }),
                HasSubstr("crossbar.on_off_ratio"));
    EXPECT_THAT(config_error([] { isaac({"crossbar.read_time=-1ns"}); }),
                HasSubstr("crossbar.read_time"));
    EXPECT_THAT(config_error([] {
                    isaac({"crossbar.columns=4", "crossbar.columns_per_adc=4"});
                }),
                AllOf(HasSubstr("crossbar.columns"), HasSubstr("cannot hold one weight")));
    EXPECT_THAT(config_error([] { isaac({"crossbar.sign_encoding=twos"}); }),
                HasSubstr("crossbar.sign_encoding"));
    // A value in the file itself is reported at its line.
    sim::testing::TempDir dir;
    const std::string path =
        dir.write("bad.yaml", "extends: " + sim::testing::source_path("configs/cim/isaac.yaml") +
                                  "\nnonideality:\n  wire_resistance_ohm: -2\n");
    EXPECT_THAT(config_error([&] { load_cim_config(path, {}); }),
                AllOf(HasSubstr("bad.yaml:3:"), HasSubstr("nonideality.wire_resistance_ohm")));
}

TEST(CimParams, EachSectionStatesItsRangesAtFileLineKey) {
    sim::testing::TempDir dir;
    const std::string isaac_path = sim::testing::source_path("configs/cim/isaac.yaml");
    const auto error_in = [&](const std::string& section, const std::string& line) {
        const std::string path = dir.write(
            "bad.yaml", "extends: " + isaac_path + "\n" + section + ":\n  " + line + "\n");
        return config_error([&] { load_cim_config(path, {}); });
    };
    EXPECT_THAT(error_in("crossbar", "adc_bits: 17"),
                HasSubstr("bad.yaml:3:13: crossbar.adc_bits: = 17 is out of range: must be "
                          "between 1 and 16"));
    EXPECT_THAT(error_in("crossbar", "adc_full_scale: 0"),
                HasSubstr("crossbar.adc_full_scale: = 0 is out of range: must be above 0 and at "
                          "most 1"));
    EXPECT_THAT(error_in("crossbar", "on_off_ratio: 1"),
                HasSubstr("crossbar.on_off_ratio: = 1 is out of range: must be above 1"));
    EXPECT_THAT(error_in("crossbar", "read_time: 0ns"),
                HasSubstr("bad.yaml:3:14: crossbar.read_time: = 0 s is out of range: must be "
                          "above 0"));
    EXPECT_THAT(error_in("nonideality", "nonlinearity: 11"),
                HasSubstr("nonideality.nonlinearity: = 11 is out of range: must be between 0 "
                          "and 10"));
    EXPECT_THAT(error_in("nonideality", "drift_t0: 0s"),
                HasSubstr("nonideality.drift_t0: = 0 s is out of range: must be above 0"));
    EXPECT_THAT(error_in("data", "output_bits: 65"),
                HasSubstr("data.output_bits: = 65 is out of range: must be between 1 and 64"));
    EXPECT_THAT(error_in("organisation", "network_bandwidth: 0GB/s"),
                HasSubstr("organisation.network_bandwidth: = 0 B/s is out of range: must be "
                          "above 0"));
    EXPECT_THAT(error_in("programming", "cells_per_write: 0"),
                HasSubstr("programming.cells_per_write: = 0 is out of range: must be between 1 "
                          "and 16777216"));
    EXPECT_THAT(error_in("programming", "endurance_cycles: 0"),
                HasSubstr("programming.endurance_cycles: = 0 is out of range: must be above 0"));
    EXPECT_THAT(error_in("energy", "adc_reference_bits: 0"),
                HasSubstr("energy.adc_reference_bits: = 0 is out of range: must be between 1 "
                          "and 16"));
    EXPECT_THAT(error_in("energy", "chip_io: -1W"), HasSubstr("energy.chip_io"));
    EXPECT_THAT(error_in("area", "adc_mm2: -0.5"),
                HasSubstr("area.adc_mm2: = -0.5 is out of range: must be at least 0"));
    // A required key stays required.
    const std::string path = dir.write("short.yaml",
                                       "name: short\ncrossbar: {rows: 8}\ndata: {}\n"
                                       "organisation: {}\n");
    EXPECT_THAT(config_error([&] { load_cim_config(path, {}); }),
                HasSubstr("crossbar.columns: required key is missing"));
}

TEST(CimParams, TablesDescribeTheStructsDefaults) {
    const auto doc_of = [](const std::vector<ParamDoc>& docs, const std::string& key) {
        for (const ParamDoc& d : docs)
            if (d.key == key) return d;
        ADD_FAILURE() << "no key " << key;
        return ParamDoc{};
    };
    const std::vector<ParamDoc> crossbar = crossbar_param_table().describe();
    EXPECT_EQ(doc_of(crossbar, "rows").default_text, "required");
    EXPECT_EQ(doc_of(crossbar, "rows").range, "1 .. 4096");
    EXPECT_EQ(doc_of(crossbar, "adc_full_scale").default_text, "1");
    EXPECT_EQ(doc_of(crossbar, "adc_full_scale").range, "above 0 and at most 1");
    EXPECT_EQ(doc_of(crossbar, "on_conductance_us").default_text, "100");
    EXPECT_EQ(doc_of(crossbar, "on_conductance_us").unit, "uS");
    EXPECT_EQ(doc_of(crossbar, "sign_encoding").default_text, "offset");
    EXPECT_EQ(doc_of(crossbar, "sign_encoding").range, "offset, differential");
    EXPECT_EQ(doc_of(crossbar, "flip_columns").default_text, "false");
    EXPECT_EQ(doc_of(crossbar, "read_time").range, "above 0");
    EXPECT_EQ(doc_of(crossbar, "read_time").unit, "s");
    const std::vector<ParamDoc> nonideality = nonideality_param_table().describe();
    EXPECT_EQ(doc_of(nonideality, "drift_t0").default_text, "1");
    EXPECT_EQ(doc_of(nonideality, "variation_sigma").range, "between 0 and 3");
    const std::vector<ParamDoc> programming = programming_param_table().describe();
    EXPECT_EQ(doc_of(programming, "pulse_time").default_text, "5e-08");
    EXPECT_EQ(doc_of(programming, "pulses_per_write").default_text, "8");
    EXPECT_EQ(doc_of(energy_param_table().describe(), "adc_reference_bits").default_text, "8");
    EXPECT_EQ(doc_of(area_param_table().describe(), "adc_mm2").unit, "mm^2");
    EXPECT_EQ(doc_of(data_param_table().describe(), "partial_sum_bits").default_text, "32");
    EXPECT_EQ(doc_of(organisation_param_table().describe(), "tiles").range, "1 .. 1048576");
    // Read through its table, an empty section leaves the struct's defaults.
    const auto doc = parse_config_text("programming: {}\n", "p.yaml");
    ProgrammingConfig p;
    programming_param_table().read(ConfigNode::root_of(doc).child("programming"), p);
    EXPECT_EQ(p.cells_per_write, ProgrammingConfig{}.cells_per_write);
}

// validate() guards C++ callers too: the checks between keys, and the integer bounds the
// arithmetic needs (shift widths, divisors); other single-key ranges are the file's tables'.
TEST(CimConfig, ValidateKeepsTheChecksBetweenKeysAndTheIntegerBounds) {
    const CimConfig c = isaac();
    const auto key_of = [&](const std::function<void(CimConfig&)>& change) -> std::string {
        CimConfig bad = c;
        change(bad);
        try {
            bad.validate();
        } catch (const InvalidParam& e) {
            return e.key();
        }
        return "";
    };
    EXPECT_EQ(key_of([](CimConfig& x) { x.crossbar.columns_per_adc = 3; }),
              "crossbar.columns_per_adc");
    EXPECT_EQ(key_of([](CimConfig& x) { x.crossbar.cell_bits = 32; }), "crossbar.cell_bits");
    EXPECT_EQ(key_of([](CimConfig& x) { x.crossbar.rows = 0; }), "crossbar.rows");
    EXPECT_EQ(key_of([](CimConfig& x) { x.data.input_bits = 64; }), "data.input_bits");
    EXPECT_EQ(key_of([](CimConfig& x) { x.organisation.tiles = 0; }), "organisation.tiles");
}

}  // namespace
}  // namespace sim::cim
