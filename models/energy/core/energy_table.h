// SPDX-License-Identifier: MIT
// Per-event energy tables every model charges its events to: energy per fused multiply-add by
// unit and precision, per byte of register-file, SRAM and L2 traffic, per HBM event and bit,
// per link bit, and the device's static power. The defaults are Horowitz's 45 nm figures
// (ISSCC 2014, "Computing's energy problem"); a hardware preset scales the on-chip part to its
// chip (see calibrate_to_power). Pure C++.
#pragma once

#include <map>
#include <utility>

#include "sim/core/energy.h"
#include "sim/trace/op.h"
#include "sim/trace/op_cost.h"

namespace sim::energy {

/// HBM energy per event, J (the cycle-level model charges these per command).
struct HbmEnergy {
    double activate = 0;       ///< one ACT + its PRE
    double read_per_bit = 0;   ///< array read + TSV + PHY, per data bit
    double write_per_bit = 0;  ///< per data bit
    double refresh = 0;        ///< one all-bank REF of one pseudo-channel
};

/// Register-file operands read and written per FMA: the two multiplicands, in the operation's
/// precision, and the accumulator's read and write, in the accumulator's (for a Tensor Core,
/// quoted at 16-bit operands: an MMA is 32 bytes of operands deep, so FP8 shares each
/// accumulator access among twice the FMAs).
struct RegisterOperands {
    double multiplicands = 0;
    double accumulator = 0;
};

struct EnergyTable {
    /// Arithmetic of one CUDA-core FMA (a multiply and an add in one precision, 2 FLOP), J,
    /// before scale.
    std::map<DType, double> fma;
    /// Arithmetic of one Tensor Core FMA by operand precision, J, before scale: a multiply in
    /// that precision and an add into the MMA's accumulator (accumulator_bytes wide).
    std::map<DType, double> tensor_fma;
    /// Register-file operands per FMA, by unit. A CUDA-core FMA reads three operands and
    /// writes one; a tensor-core MMA reuses each operand across a tile.
    std::map<ComputeUnit, RegisterOperands> register_operands_per_fma;
    double register_per_byte = 0;  ///< register file access, J/B, before scale
    double sram_per_byte = 0;      ///< L1 / shared memory, J/B, before scale
    double l2_per_byte = 0;        ///< L2, J/B, before scale
    HbmEnergy hbm;                 ///< device memory, not scaled (its own figures)
    double dram_row_bytes = 1024;  ///< bytes per activation when streaming (analytic charge)
    double link_per_bit = 0;       ///< NVLink-class link, J/bit
    double host_per_bit = 0;       ///< PCIe host link, J/bit
    double static_power = 0;       ///< W drawn whatever the device does
    /// Multiplies the on-chip dynamic energies (FMA, register, SRAM, L2): process scaling from
    /// 45 nm and the control and clocking overheads Horowitz's table leaves out.
    double scale = 1.0;

    /// Horowitz ISSCC 2014 at 45 nm, 0.9 V: FP16 add 0.4 pJ, mult 1.1 pJ; FP32 add 0.9 pJ,
    /// mult 3.7 pJ; INT8 add 0.03 pJ, mult 0.2 pJ; 64-bit cache read 10 pJ (8 KB), 20 pJ
    /// (32 KB), 100 pJ (1 MB); DRAM 1.3-2.6 nJ per 64 bits (the textbook's 640 pJ per 32-bit
    /// read is 20 pJ/bit). Precisions the paper does not list are derived and marked in
    /// energy_table.cpp.
    static EnergyTable horowitz_45nm();

    /// Energy of one FMA on unit in dtype including its register traffic, scaled, J. A Tensor
    /// Core FMA whose multiplicands come from shared memory (wgmma), not registers (mma.sync),
    /// leaves their register reads out: the kernel pays for the shared-memory reads instead.
    /// Throws std::out_of_range when the table has no entry for dtype.
    double fma_energy(ComputeUnit unit, DType dtype, bool multiplicands_in_registers = true) const;
};

/// Bytes of the accumulator a Tensor Core MMA on `operands` sums into: FP32 for TF32, FP16,
/// BF16 and FP8 (the compute type cuBLAS and the frameworks run them with), 32-bit integers
/// for INT8, FP64 for FP64.
uint64_t tensor_accumulator_bytes(DType operands);

/// The dynamic energy of an operator from its counted work: FLOPs at fma_energy, every
/// device-memory byte through L2 and SRAM once and over HBM (one activation per row), link
/// and host bytes at their per-bit energy. A lower bound on on-chip traffic: a cycle-level
/// model counts the real reuse. Static power is not included (it is charged over time).
EnergyBreakdown charge(const EnergyTable& table, const OpCost& cost);

/// The scale at which a reference load drawing `power` watts matches: the load runs
/// flops_per_second in dtype on unit while moving dram_bytes_per_second. Solves
/// static + scale × on-chip dynamic + HBM = power. Throws std::invalid_argument when the
/// static and HBM power alone exceed it (no positive scale fits).
double calibrate_to_power(const EnergyTable& table,
                          ComputeUnit unit,
                          DType dtype,
                          double flops_per_second,
                          double dram_bytes_per_second,
                          double power);

}  // namespace sim::energy
