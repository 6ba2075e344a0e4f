// SPDX-License-Identifier: MIT
// Static description of a ReRAM compute-in-memory (CIM) accelerator in the style of ISAAC
// (Shafiee et al., ISCA 2016) and NeuroSim (Peng et al.): crossbars of bit-sliced
// conductance cells, bit-serial inputs through DACs, column ADCs shared by multiplexers,
// shift-and-add, IMAs and tiles with buffers and a network, device non-idealities, weight
// programming, and the energy and area of each component. Plain C++ (no SystemC).
// A CIM file's reader states each key's range (models/cim/cim_params.h, `wallsim list --params
// cim`); validate() throws InvalidParam naming the key for the checks between keys and for the
// bounds the integer arithmetic needs (divisors, shift widths, 64-bit cell counts).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace sim::cim {

/// A parameter that cannot hold; key is its dotted config path ("crossbar.rows").
class InvalidParam : public std::invalid_argument {
  public:
    InvalidParam(std::string key, const std::string& message)
        : std::invalid_argument(key + ": " + message), key_(std::move(key)), message_(message) {}
    const std::string& key() const { return key_; }
    const std::string& message() const { return message_; }

  private:
    std::string key_;
    std::string message_;
};

/// How a signed weight is stored in unsigned conductances.
enum class SignEncoding {
    /// Two columns per slice, one for positive and one for negative magnitudes; the digital
    /// side subtracts them (PRIME, NeuroSim). Doubles the columns, cancels common-mode errors.
    Differential,
    /// One column per slice holding weight + 2^(bits-1); the digital side subtracts
    /// 2^(bits-1) * sum(inputs) (ISAAC's biased encoding). No extra columns.
    Offset,
};

/// One crossbar and its periphery.
struct CrossbarConfig {
    uint32_t rows = 128;                 ///< word lines (inputs)
    uint32_t columns = 128;              ///< bit lines (one ADC input each, through the mux)
    uint32_t cell_bits = 2;              ///< bits stored per cell (2^b conductance levels)
    uint32_t dac_bits = 1;               ///< input bits applied per read cycle
    uint32_t adc_bits = 8;               ///< ADC resolution
    uint32_t columns_per_adc = 128;      ///< columns multiplexed onto one ADC
    double adc_sample_rate_hz = 1.28e9;  ///< conversions per second of one ADC
    double read_time_s = 100e-9;         ///< shortest read cycle (settle + sample and hold)
    double adc_full_scale = 1.0;         ///< ADC range as a fraction of the largest column sum
    double on_off_ratio = 100;           ///< G_on / G_off, > 1
    double on_conductance_us = 100;      ///< G_on, microsiemens
    double read_voltage_v = 0.2;         ///< word-line voltage of a full-scale input code
    SignEncoding sign = SignEncoding::Offset;
    /// ISAAC's flipped encoding: a column whose levels add up to more than half of
    /// rows x (2^b - 1) stores the complements (2^b - 1 - level) instead, and the digital side
    /// recovers the sum as (2^b - 1) x sum(inputs) - read sum. Every column sum then stays
    /// within half the range, which saves the ADC one bit.
    bool flip_columns = false;

    void validate() const;
    uint32_t adcs() const { return columns / columns_per_adc; }
    uint32_t levels() const { return (1u << cell_bits) - 1; }  ///< highest cell level
    uint32_t dac_max() const { return (1u << dac_bits) - 1; }  ///< highest input code
};

/// Device non-idealities. All zero (and an infinite on/off ratio not needed: the offset is
/// subtracted by a reference column) gives an ideal device.
struct NonidealityConfig {
    double variation_sigma = 0;    ///< lognormal sigma of programmed conductance (device-to-device)
    double write_noise_sigma = 0;  ///< Gaussian write error, in units of one level step
    double drift_nu = 0;           ///< drift exponent: G(t) = G0 * (t / t0)^-nu
    double drift_t0_s = 1;         ///< time after programming at which G = G0
    double time_since_programming_s = 1;  ///< when the reads happen
    double nonlinearity = 0;              ///< I = G*V_r*sinh(k*V/V_r)/k; k = 0 is Ohmic
    double wire_resistance_ohm = 0;       ///< per cell segment of word and bit line (IR drop)
};

/// Operand precision.
struct DataConfig {
    uint32_t weight_bits = 16;       ///< signed weights
    uint32_t input_bits = 16;        ///< unsigned input magnitudes (signed inputs take two passes)
    uint32_t output_bits = 16;       ///< written back to the buffers
    uint32_t partial_sum_bits = 32;  ///< partial sums between crossbars and tiles

    void validate() const;
};

/// Chip organisation: crossbars in IMAs (in-situ multiply-accumulate units) in tiles.
struct OrganisationConfig {
    uint32_t crossbars_per_ima = 8;
    uint32_t imas_per_tile = 12;
    uint32_t tiles = 168;
    double tile_buffer_bandwidth = 0;  ///< B/s per tile (eDRAM to IMAs)
    double network_bandwidth = 0;      ///< B/s per tile into the on-chip network

    void validate() const;
    uint64_t crossbars() const { return uint64_t{crossbars_per_ima} * imas_per_tile * tiles; }
};

/// Weight programming (write-verify) and endurance.
struct ProgrammingConfig {
    double pulse_time_s = 50e-9;       ///< one SET/RESET pulse
    double verify_time_s = 10e-9;      ///< one verify read
    double pulse_energy_j = 1e-12;     ///< one pulse, one cell
    double verify_energy_j = 0.1e-12;  ///< one verify read, one cell
    uint32_t pulses_per_write = 8;     ///< write-verify iterations per cell, on average
    uint32_t cells_per_write = 128;    ///< cells programmed at once in one crossbar (a row)
    double endurance_cycles = 1e6;     ///< pulses a cell survives
};

/// Energy per event and power of always-on blocks. ADC and DAC energies scale as
/// 2^(bits - reference bits): at low resolution a converter's energy per conversion grows
/// about 2x per bit (Walden figure of merit; Murmann, "ADC Performance Survey").
struct EnergyConfig {
    double adc_conversion_j = 0;  ///< one conversion at adc_reference_bits
    uint32_t adc_reference_bits = 8;
    double dac_conversion_j = 0;  ///< one input code on one word line at 1 bit
    double sample_hold_j = 0;     ///< one column sampled
    double cell_read_j = 0;       ///< one cell in one read cycle
    double shift_add_j = 0;       ///< one shift-and-add of one ADC output
    double ima_buffers_w = 0;     ///< input and output registers of an IMA, while running
    double tile_buffer_w = 0;     ///< eDRAM buffer and its bus, per tile
    double network_w = 0;         ///< router share, per tile
    double tile_digital_w = 0;    ///< activation, pooling, output register, per tile
    double chip_io_w = 0;         ///< off-chip links, per chip
};

/// Area per instance, mm^2. ADC and DAC areas scale as 2^(bits - reference bits).
struct AreaConfig {
    double adc_mm2 = 0;           ///< one ADC at EnergyConfig::adc_reference_bits
    double dac_mm2 = 0;           ///< one 1-bit DAC
    double sample_hold_mm2 = 0;   ///< one column sample-and-hold
    double crossbar_mm2 = 0;      ///< one crossbar array
    double shift_add_mm2 = 0;     ///< shift-and-add units of one IMA
    double ima_buffers_mm2 = 0;   ///< input and output registers of one IMA
    double tile_buffer_mm2 = 0;   ///< eDRAM and bus, per tile
    double network_mm2 = 0;       ///< router share, per tile
    double tile_digital_mm2 = 0;  ///< per tile
    double chip_io_mm2 = 0;       ///< per chip
};

struct CimConfig {
    std::string name;
    CrossbarConfig crossbar;
    NonidealityConfig nonideality;
    DataConfig data;
    OrganisationConfig organisation;
    ProgrammingConfig programming;
    EnergyConfig energy;
    AreaConfig area;

    /// The constraints between keys and the integer bounds (file comment); throws InvalidParam.
    void validate() const;
};

}  // namespace sim::cim
