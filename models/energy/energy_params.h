// SPDX-License-Identifier: MIT
// The energy tables and the power limit of a device, read from its hardware file: the
// technology it is built in (`energy.technology`, configs/technology/*.yaml: per-event
// on-chip energies, the same for every chip of that process), static power per block, link
// energies, the HBM figures under `hbm.energy`, and the power limit (`power.tdp`) with the V-f
// curve its clock governor moves along (`power.voltage_frequency`, `power.clock_step`).
#pragma once

#include "models/energy/core/clock_governor.h"
#include "models/energy/core/energy_table.h"
#include "models/energy/technology.h"
#include "models/hw/hw_params.h"
#include "sim/config/config_node.h"
#include "sim/config/param_table.h"

namespace sim {
class StatGroup;
}

namespace sim::energy {

/// The GEMM the published figures are quoted for (stats hw.energy.reference_gemm).
inline constexpr double kReferenceGemmSize = 8192;

/// hbm.energy (activate, read_per_bit, write_per_bit, refresh; each >= 0), read once for the
/// analytic energy tables and the cycle-level HBM model.
struct HbmEnergyParams {
    std::optional<HbmEnergy> per_event;  ///< nullopt when the file has no hbm.energy

    static HbmEnergyParams from_config(const ConfigNode& root);
};

/// Static power by block, W: the SMs, the HBM stacks and the rest (PHYs, board).
struct StaticPower {
    double sms = 0, hbm = 0, other = 0;
    double total() const { return sms + hbm + other; }
};

/// energy.static_power written per block: each rate times the device's count of the block.
struct StaticPowerRates {
    double per_sm = 0;         ///< W per SM
    double per_hbm_stack = 0;  ///< W per HBM stack
    double other = 0;          ///< W: PHYs, board
};

struct EnergyParams {
    EnergyTable table;  ///< at the technology's nominal voltage; static_power = blocks' total
    StaticPowerRates static_rates;  ///< as the file gives it
    StaticPower static_by_block;    ///< static_rates times the device's SMs and stacks
    /// Horowitz's 45 nm table at scale 1 when the file names no technology.
    std::optional<TechnologyParams> technology;
    GovernorParams governor;  ///< power_limit_w = power.tdp (0: no limit)

    /// Throws ConfigError naming file, line and key of a bad value.
    /// Its datasheet figures are the device's resolved hw::HardwareParams.
    static EnergyParams from_config(const ConfigNode& root);
    /// hw.energy: the technology and its scale, static power, FMA energy per unit and dtype,
    /// per-byte and per-bit energies, the power limit, and the reference GEMM's power and
    /// governed clock.
    void publish(StatGroup& g, const hw::HardwareParams& hw) const;
};

/// The described keys of a GPU file's energy:, energy.static_power:, hbm.energy: and of
/// power.voltage_frequency and power.clock_step (the governor's), and of a technology file
/// (configs/technology/): its top level, power_ratio:, calibration: and calibration.gemm:.
ParamTable<EnergyParams> energy_param_table();
ParamTable<StaticPowerRates> static_power_param_table();
ParamTable<HbmEnergy> hbm_energy_param_table();
ParamTable<GovernorParams> governor_param_table();
ParamTable<TechnologyParams> technology_param_table();
ParamTable<TechnologyParams> power_ratio_param_table();
ParamTable<Calibration> calibration_param_table();
ParamTable<Calibration> calibration_gemm_param_table();

/// What a device's analytic (Roofline) view of an operator costs against the clock: busy time
/// at the unit's maximum clock, the memory floor, on-chip and HBM energy. For `govern`.
ClockedLoad analytic_load(const EnergyParams& e, const hw::HardwareParams& hw, const OpCost& cost);
/// The same from the op's energy already charged at nominal voltage (charge(e.table, cost)).
ClockedLoad analytic_load(const EnergyParams& e,
                          const hw::HardwareParams& hw,
                          const OpCost& cost,
                          const EnergyBreakdown& charged);

/// The calibration GEMM as the Roofline counts it (its FLOPs and compulsory DRAM bytes),
/// charged from device's table at scale 1 and nominal voltage.
EnergyBreakdown analytic_events(const Calibration& cal, const EnergyParams& device);

/// The technology scale at which `device` draws exactly its power limit while running the
/// calibration GEMM at the throttled rate. `events`: the GEMM's events charged at scale 1 and
/// nominal voltage (analytic_events, or the cycle-level kernel's, as cal.charge says). The
/// governor's clock is max x throttled / unthrottled, the time flops / throttled, and
/// static + (scale x on-chip x (V/V0)^2 + HBM) / time = power.tdp is solved for scale. Throws
/// std::invalid_argument when no positive scale fits.
double fit_technology_scale(const Calibration& cal,
                            const hw::HardwareParams& hw,
                            const EnergyParams& device,
                            const EnergyBreakdown& events);

/// The maximum clock of the unit and dtype an operator runs on, Hz (0 when it has none).
double max_clock_of(const hw::HardwareParams& hw, ComputeUnit unit, DType dtype);

}  // namespace sim::energy
