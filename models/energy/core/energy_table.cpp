// SPDX-License-Identifier: MIT
#include "models/energy/core/energy_table.h"

#include <stdexcept>
#include <string>

namespace sim::energy {

namespace {
constexpr double kPico = 1e-12;
}

EnergyTable EnergyTable::horowitz_45nm() {
    EnergyTable t;
    // Horowitz ISSCC 2014, Fig. 1.1.9: multiply + add.
    t.fma[DType::FP32] = (3.7 + 0.9) * kPico;
    t.fma[DType::FP16] = (1.1 + 0.4) * kPico;
    t.fma[DType::INT8] = (0.2 + 0.03) * kPico;
    // Derived, not in the paper: a multiplier grows with the square of the mantissa width.
    // BF16 (8-bit mantissa) is costed as FP16 (11-bit), conservatively; TF32 multiplies like
    // FP16 and adds like FP32; FP8 multiplies like INT8 and adds like FP16; FP64 scales the
    // FP32 multiply by (53/24)^2 and doubles the add.
    t.fma[DType::BF16] = t.fma[DType::FP16];
    t.fma[DType::TF32] = (1.1 + 0.9) * kPico;
    t.fma[DType::FP8] = (0.2 + 0.4) * kPico;
    t.fma[DType::FP64] = (3.7 * (53.0 / 24) * (53.0 / 24) + 2 * 0.9) * kPico;
    // Operand traffic per FMA, in operands (multiplied by the dtype's bytes). CUDA cores:
    // read a, b, c, write d. Tensor cores: an m16n8k16 MMA per warp reads A (16×16) and
    // B (16×8), reads and writes C (16×8) for 2048 FMAs: (256 + 128 + 2 × 128) / 2048.
    t.register_operands_per_fma[ComputeUnit::Vector] = 4.0;
    t.register_operands_per_fma[ComputeUnit::Tensor] = (256.0 + 128 + 2 * 128) / 2048;
    t.register_per_byte = 10.0 / 8 * kPico;  // 8 KB SRAM, 64-bit read: 10 pJ
    t.sram_per_byte = 20.0 / 8 * kPico;      // 32 KB SRAM, 64-bit read: 20 pJ
    t.l2_per_byte = 100.0 / 8 * kPico;       // 1 MB SRAM, 64-bit read: 100 pJ
    // Off-chip DRAM, 64-bit access 1.3-2.6 nJ: the textbook's 640 pJ per 32 bits.
    t.hbm.read_per_bit = 640.0 / 32 * kPico;
    t.hbm.write_per_bit = 640.0 / 32 * kPico;
    return t;
}

double EnergyTable::fma_energy(ComputeUnit unit, DType dtype) const {
    const auto f = fma.find(dtype);
    if (f == fma.end()) throw std::out_of_range("no FMA energy for " + to_string(dtype));
    const auto r = register_operands_per_fma.find(unit);
    const double operands = r == register_operands_per_fma.end() ? 0.0 : r->second;
    return scale * (f->second + operands * dtype_bytes(dtype) * register_per_byte);
}

EnergyBreakdown charge(const EnergyTable& t, const OpCost& cost) {
    EnergyBreakdown e;
    if (cost.flops > 0 && (cost.unit == ComputeUnit::Vector || cost.unit == ComputeUnit::Tensor))
        e.compute = cost.flops / 2 * t.fma_energy(cost.unit, cost.dtype);
    const double bytes = cost.dram_bytes;
    e.sram = bytes * t.sram_per_byte * t.scale;
    e.l2 = bytes * t.l2_per_byte * t.scale;
    // The analytic charge does not know the read/write split: it averages the two.
    const double per_bit = (t.hbm.read_per_bit + t.hbm.write_per_bit) / 2;
    e.dram = bytes * 8 * per_bit + bytes / t.dram_row_bytes * t.hbm.activate;
    e.link = cost.wire_bytes * 8 * t.link_per_bit;
    e.host = cost.host_bytes * 8 * t.host_per_bit;
    return e;
}

double calibrate_to_power(const EnergyTable& table,
                          ComputeUnit unit,
                          DType dtype,
                          double flops_per_second,
                          double dram_bytes_per_second,
                          double power) {
    EnergyTable unscaled = table;
    unscaled.scale = 1.0;
    OpCost one_second;
    one_second.flops = flops_per_second;
    one_second.dram_bytes = dram_bytes_per_second;
    one_second.unit = unit;
    one_second.dtype = dtype;
    const EnergyBreakdown e = charge(unscaled, one_second);
    const double on_chip = e.compute + e.sram + e.l2;
    const double fixed = table.static_power + e.dram;
    if (!(power > fixed) || !(on_chip > 0)) {
        throw std::invalid_argument("static power and HBM alone (" + std::to_string(fixed) +
                                    " W) reach the " + std::to_string(power) +
                                    " W to calibrate to: no positive scale fits");
    }
    return (power - fixed) / on_chip;
}

}  // namespace sim::energy
