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
    // Tensor Cores multiply in the operands' precision and add the products into a wider
    // accumulator (tensor_accumulator_bytes): an FP32 add (0.9 pJ) for TF32, FP16, BF16 and
    // FP8, a 32-bit integer add (0.1 pJ, Horowitz) for INT8, an FP64 add for FP64.
    t.tensor_fma[DType::FP16] = (1.1 + 0.9) * kPico;
    t.tensor_fma[DType::BF16] = t.tensor_fma[DType::FP16];
    t.tensor_fma[DType::TF32] = (1.1 + 0.9) * kPico;
    t.tensor_fma[DType::FP8] = (0.2 + 0.9) * kPico;
    t.tensor_fma[DType::INT8] = (0.2 + 0.1) * kPico;
    t.tensor_fma[DType::FP64] = t.fma[DType::FP64];
    // Operand traffic per FMA, in operands (multiplied by their bytes). CUDA cores: read a, b
    // and c, write d, all in one precision. Tensor cores: an m16n8k16 MMA per warp reads A
    // (16×16) and B (16×8) and reads and writes the accumulator C (16×8) for 2048 FMAs; its
    // depth spans 32 bytes of operands (m16n8k32 for FP8 and INT8, k8 for TF32), so narrower
    // operands share one accumulator read and write among more FMAs (fma_energy).
    t.register_operands_per_fma[ComputeUnit::Vector] = {2.0, 2.0};
    t.register_operands_per_fma[ComputeUnit::Tensor] = {(256.0 + 128) / 2048, 2 * 128.0 / 2048};
    t.register_per_byte = 10.0 / 8 * kPico;  // 8 KB SRAM, 64-bit read: 10 pJ
    t.sram_per_byte = 20.0 / 8 * kPico;      // 32 KB SRAM, 64-bit read: 20 pJ
    t.l2_per_byte = 100.0 / 8 * kPico;       // 1 MB SRAM, 64-bit read: 100 pJ
    // Off-chip DRAM, 64-bit access 1.3-2.6 nJ: the textbook's 640 pJ per 32 bits.
    t.hbm.read_per_bit = 640.0 / 32 * kPico;
    t.hbm.write_per_bit = 640.0 / 32 * kPico;
    return t;
}

uint64_t tensor_accumulator_bytes(DType operands) {
    return operands == DType::FP64 ? 8 : 4;
}

double EnergyTable::fma_energy(ComputeUnit unit,
                               DType dtype,
                               bool multiplicands_in_registers) const {
    const bool tensor = unit == ComputeUnit::Tensor;
    const std::map<DType, double>& arithmetic = tensor ? tensor_fma : fma;
    const auto f = arithmetic.find(dtype);
    if (f == arithmetic.end())
        throw std::out_of_range("no " + std::string(tensor ? "Tensor Core " : "") +
                                "FMA energy for " + to_string(dtype));
    const auto r = register_operands_per_fma.find(unit);
    const RegisterOperands operands =
        r == register_operands_per_fma.end() ? RegisterOperands{} : r->second;
    const double bytes = double(dtype_bytes(dtype));
    // A Tensor Core MMA is 32 bytes of operands deep: its accumulator traffic per FMA is
    // quoted at 16-bit operands and scales with the operands' width.
    const double accumulator = tensor ? operands.accumulator * bytes / 2 : operands.accumulator;
    const double accumulator_bytes = tensor ? double(tensor_accumulator_bytes(dtype)) : bytes;
    const double multiplicands =
        tensor && !multiplicands_in_registers ? 0.0 : operands.multiplicands;
    const double register_bytes = multiplicands * bytes + accumulator * accumulator_bytes;
    return scale * (f->second + register_bytes * register_per_byte);
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
