// SPDX-License-Identifier: MIT
// A process technology's per-event energies (configs/technology/*.yaml): Horowitz's 45 nm,
// 0.9 V table (models/energy/core/energy_table.h) times one on-chip scale, quoted at the
// technology's nominal voltage. The scale is a property of the process, not of a chip: it is
// fitted once, to a named published measurement (`calibration:`, re-derived by
// tests/validation/technology_test.cpp), or derived from another technology by a published
// process-to-process power ratio (`derived_from:`), and then used unchanged by every chip and
// what-if built in that technology.
#pragma once

#include <optional>
#include <string>

#include "sim/core/error.h"
#include "sim/trace/op.h"

namespace sim {
class ConfigNode;
}

namespace sim::energy {

/// Whose count of the calibration GEMM's events the fit charged: the Roofline's (its FLOPs and
/// compulsory DRAM bytes, `--fidelity analytic`) or the cycle-level GPU's (every FLOP, shared
/// memory, L2 and HBM event its kernel counted, `--fidelity sampled`). A scale reproduces its
/// measurement only with the charge it was fitted with.
enum class CalibrationCharge { Analytic, Sampled };

/// The measurement a technology's scale was fitted to: a large GEMM on a shipped preset that
/// ran at `unthrottled_tflops` when its datapath barely toggled (zero inputs: below the power
/// limit, so at the maximum clock) and at `throttled_tflops` on random inputs (at the power
/// limit, at a clock lowered by the same ratio).
struct Calibration {
    std::string hardware;          ///< preset name under configs/hw
    uint64_t m = 0, n = 0, k = 0;  ///< the GEMM
    DType dtype = DType::FP16;
    double unthrottled_tflops = 0;                          ///< at the maximum clock, TFLOP/s
    double throttled_tflops = 0;                            ///< at the power limit, TFLOP/s
    std::string source;                                     ///< a key of docs/references.md
    CalibrationCharge charge = CalibrationCharge::Sampled;  ///< the events the fit charged
};

struct TechnologyParams {
    std::string name;            ///< e.g. "TSMC N7"
    std::string file;            ///< where it was read from
    double nominal_volts = 0.9;  ///< the voltage the energies are quoted at, V
    /// On-chip energies (FMA, register file, SRAM, L2) relative to Horowitz's 45 nm table:
    /// process scaling and every overhead the table leaves out (control, clocking, operand
    /// delivery), at nominal_volts.
    double scale = 1.0;
    std::optional<Calibration> calibration;  ///< when scale was fitted
    std::string derived_from;                ///< when scale = that technology's x power_ratio
    double power_ratio = 1.0;                ///< the published power ratio to derived_from
    std::string ratio_source;                ///< a key of docs/references.md

    /// Reads a technology file (a preset name of configs/technology or a path); follows
    /// derived_from. Throws ConfigError naming file, line and key of any bad value.
    static TechnologyParams load(const std::string& name_or_path,
                                 const std::string& base_dir,
                                 const SourceLocation& at,
                                 const std::string& key,
                                 int depth = 0);
};

}  // namespace sim::energy
