// SPDX-License-Identifier: MIT
// The energy tables of a device, read from its hardware file: the optional `energy:` section
// (overrides of the 45 nm defaults, static power, link energies and the scale, a number or
// `tdp`) and the HBM figures under `hbm.energy`. With `scale: tdp` the on-chip energies are
// scaled so that the reference load, a dense square BF16 tensor GEMM running at peak, draws
// `power.tdp`: a TDP-limited GPU runs such a GEMM at its power limit.
#pragma once

#include "models/energy/core/energy_table.h"
#include "models/hw/hw_params.h"
#include "sim/config/config_node.h"

namespace sim {
class StatGroup;
}

namespace sim::energy {

/// The reference load of `scale: tdp`: an n × n × n GEMM at the tensor peak.
inline constexpr double kReferenceGemmSize = 8192;

/// Reads hbm.energy (activate, read_per_bit, write_per_bit, refresh); values must be >= 0.
HbmEnergy read_hbm_energy(const ConfigNode& hbm_energy);

/// Static power by block, W: the SMs, the HBM stacks and the rest (PHYs, board).
struct StaticPower {
    double sms = 0, hbm = 0, other = 0;
    double total() const { return sms + hbm + other; }
};

struct EnergyParams {
    EnergyTable table;  ///< table.static_power = static_by_block.total()
    StaticPower static_by_block;
    bool calibrated = false;  ///< scale came from `tdp`
    DType reference_dtype = DType::BF16;

    /// Throws ConfigError naming file, line and key of a bad value, or of `scale: tdp` on a
    /// device without power.tdp or without a tensor rate to calibrate against.
    static EnergyParams from_config(const ConfigNode& root, const hw::HardwareParams& hw);
    /// hw.energy: the scale, static power, FMA energy per unit and dtype, per-byte and per-bit
    /// energies, and the reference load's power.
    void publish(StatGroup& g, const hw::HardwareParams& hw) const;
};

}  // namespace sim::energy
