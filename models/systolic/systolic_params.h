// SPDX-License-Identifier: MIT
// The `systolic:` section of a hardware file (device: systolic) read into ArrayParams, every
// value checked at its file:line (configs/hw/README.md, "Systolic arrays").
#pragma once

#include <optional>
#include <string>

#include "models/systolic/core/array_params.h"
#include "models/systolic/core/tpu_pipeline.h"
#include "models/systolic/hbm_backing.h"
#include "sim/config/config_node.h"
#include "sim/config/param_table.h"

namespace sim {
class StatGroup;
}

namespace sim::systolic {

/// What feeds the array's SRAM buffers: a fixed bandwidth, or the cycle-level HBM model.
enum class DramModel { Bandwidth, Hbm };

struct SystolicParams {
    ArrayParams array;
    DramModel dram_model = DramModel::Bandwidth;
    double dram_bandwidth = 0;  ///< B/s: the preset's (model: bandwidth) or the HBM model's
    /// Set with `dram.model: hbm`: what the cycle-level HBM model of the `hbm:` section
    /// sustained; its bandwidth and energy per byte then drive the array.
    std::optional<HbmBacking> hbm_backing;
    uint64_t dram_capacity = 0;  ///< bytes; informational
    /// The `tpu:` section: TPU v1's Weight FIFO, accumulators, activation unit and host link
    /// (core/tpu_pipeline.h) time matrix, vector, pooling and host-transfer operators.
    TpuParams tpu;

    /// Reads root.systolic; throws ConfigError at the offending key.
    static SystolicParams from_config(const ConfigNode& root);
    /// Peak ops/s, DRAM bandwidth and ridge point under hw.
    void publish(StatGroup& hw) const;
};

/// The described keys of systolic (the array), systolic.sram (its buffers), systolic.dram
/// (what feeds them), systolic.energy (per-event energies) and systolic.tpu (TPU v1's
/// pipeline); the structs' initialisers are the defaults.
ParamTable<ArrayParams> array_param_table();
ParamTable<ArrayParams> sram_param_table();
ParamTable<SystolicParams> dram_param_table();
ParamTable<ArrayParams> energy_param_table();
ParamTable<TpuParams> tpu_param_table();

}  // namespace sim::systolic
