// SPDX-License-Identifier: MIT
// The 45 nm energy table and the charge of an operator: Horowitz's figures, the split into
// compute and data movement, and the calibration that scales the on-chip part.
#include "models/energy/core/energy_table.h"

#include <gtest/gtest.h>

namespace sim::energy {
namespace {

constexpr double kPico = 1e-12;

TEST(EnergyTable, HorowitzFiguresAt45nm) {
    const EnergyTable t = EnergyTable::horowitz_45nm();
    // ISSCC 2014 Fig. 1.1.9: FP32 mult 3.7 pJ + add 0.9 pJ; FP16 1.1 + 0.4; INT8 0.2 + 0.03.
    EXPECT_NEAR(t.fma.at(DType::FP32), 4.6 * kPico, 1e-15);
    EXPECT_NEAR(t.fma.at(DType::FP16), 1.5 * kPico, 1e-15);
    EXPECT_NEAR(t.fma.at(DType::INT8), 0.23 * kPico, 1e-15);
    // The textbook: a 32-bit DRAM read ≈ 640 pJ, ≈ 170 × a 32-bit FP multiply (3.7 pJ).
    const double dram_read_32 = 32 * t.hbm.read_per_bit;
    EXPECT_NEAR(dram_read_32, 640 * kPico, 1e-15);
    EXPECT_NEAR(dram_read_32 / (3.7 * kPico), 173, 1);
    // Bigger SRAMs cost more per byte: register file < L1 < L2 < DRAM.
    EXPECT_LT(t.register_per_byte, t.sram_per_byte);
    EXPECT_LT(t.sram_per_byte, t.l2_per_byte);
    EXPECT_LT(t.l2_per_byte, 8 * t.hbm.read_per_bit);
}

TEST(EnergyTable, TensorCoresSpendLessOnOperandsThanCudaCores) {
    const EnergyTable t = EnergyTable::horowitz_45nm();
    for (DType d : {DType::FP16, DType::BF16}) {
        const double vector = t.fma_energy(ComputeUnit::Vector, d);
        const double tensor = t.fma_energy(ComputeUnit::Tensor, d);
        EXPECT_LT(tensor, vector);
        // A CUDA-core FMA moves 4 two-byte operands through the register file; an MMA 0.1875
        // two-byte multiplicands and 0.125 four-byte accumulator words per FMA.
        EXPECT_NEAR(vector, (1.1 + 0.4) * kPico + 4 * 2 * t.register_per_byte, 1e-18);
        EXPECT_NEAR(tensor, (1.1 + 0.9) * kPico + (0.1875 * 2 + 0.125 * 4) * t.register_per_byte,
                    1e-18);
    }
    // wgmma reads its multiplicands from shared memory: only the accumulator's register traffic.
    EXPECT_NEAR(t.fma_energy(ComputeUnit::Tensor, DType::BF16, false),
                (1.1 + 0.9) * kPico + 0.125 * 4 * t.register_per_byte, 1e-18);
    EXPECT_THROW(EnergyTable{}.fma_energy(ComputeUnit::Vector, DType::FP32), std::out_of_range);
    EXPECT_THROW(EnergyTable{}.fma_energy(ComputeUnit::Tensor, DType::FP16), std::out_of_range);
}

// Tensor Cores multiply in the operands' precision and sum into FP32 (32-bit integers for
// INT8): narrower operands save on the multiplier and the operand traffic, not on the add.
TEST(EnergyTable, TensorCoreProductsAddIntoWideAccumulators) {
    const EnergyTable t = EnergyTable::horowitz_45nm();
    const auto arithmetic = [&](DType d) { return t.tensor_fma.at(d); };
    EXPECT_NEAR(arithmetic(DType::FP16) - t.fma.at(DType::FP16), (0.9 - 0.4) * kPico, 1e-18);
    EXPECT_NEAR(arithmetic(DType::FP8), (0.2 + 0.9) * kPico, 1e-18);
    EXPECT_NEAR(arithmetic(DType::INT8), (0.2 + 0.1) * kPico, 1e-18);
    EXPECT_EQ(tensor_accumulator_bytes(DType::FP8), 4u);
    EXPECT_EQ(tensor_accumulator_bytes(DType::FP64), 8u);
    // An FP8 MMA (m16n8k32) reads and writes its FP32 accumulator once per 32 products, an
    // FP16 one (m16n8k16) once per 16.
    EXPECT_NEAR(t.fma_energy(ComputeUnit::Tensor, DType::FP8),
                (0.2 + 0.9) * kPico + (0.1875 * 1 + 0.0625 * 4) * t.register_per_byte, 1e-18);
    // FP8 costs more than half of FP16 per FMA: the FP32 add does not shrink with the operands.
    const double ratio = t.fma_energy(ComputeUnit::Tensor, DType::FP8) /
                         t.fma_energy(ComputeUnit::Tensor, DType::FP16);
    EXPECT_GT(ratio, 0.5);
    EXPECT_LT(ratio, 0.6);
}

TEST(EnergyCharge, ComponentsAddUpAndFollowTheWork) {
    EnergyTable t = EnergyTable::horowitz_45nm();
    t.hbm.activate = 1e-9;
    t.link_per_bit = 2 * kPico;
    t.host_per_bit = 3 * kPico;
    t.scale = 0.5;
    OpCost c;
    c.unit = ComputeUnit::Vector;
    c.dtype = DType::FP32;
    c.flops = 2e6;  // 1e6 FMAs
    c.dram_bytes = 4096;
    c.wire_bytes = 100;
    c.host_bytes = 10;
    const EnergyBreakdown e = charge(t, c);
    EXPECT_DOUBLE_EQ(e.compute, 1e6 * 0.5 * (4.6 * kPico + 4 * 4 * t.register_per_byte));
    EXPECT_DOUBLE_EQ(e.sram, 4096 * t.sram_per_byte * 0.5);
    EXPECT_DOUBLE_EQ(e.l2, 4096 * t.l2_per_byte * 0.5);
    // HBM is not scaled: 4096 B × 8 bit × 20 pJ + 4 rows × 1 nJ.
    EXPECT_DOUBLE_EQ(e.dram, 4096 * 8 * 20 * kPico + 4 * 1e-9);
    EXPECT_DOUBLE_EQ(e.link, 800 * 2 * kPico);
    EXPECT_DOUBLE_EQ(e.host, 80 * 3 * kPico);
    EXPECT_DOUBLE_EQ(e.dynamic(), e.compute + e.sram + e.l2 + e.dram + e.link + e.host);
    EXPECT_NEAR(e.data_movement(), e.dynamic() - e.compute, 1e-18);
    // Twice the work, twice the energy.
    c.flops *= 2;
    EXPECT_DOUBLE_EQ(charge(t, c).compute, 2 * e.compute);
}

TEST(EnergyCharge, DataMovementDominatesBelowTheRidgeAndComputeAbove) {
    const EnergyTable t = EnergyTable::horowitz_45nm();
    OpCost c;
    c.unit = ComputeUnit::Tensor;
    c.dtype = DType::BF16;
    c.dram_bytes = 1e9;
    double last_share = 1.0;
    for (double intensity : {0.25, 1.0, 10.0, 100.0, 1000.0, 10000.0}) {
        c.flops = intensity * c.dram_bytes;
        const EnergyBreakdown e = charge(t, c);
        const double share = e.data_movement() / e.dynamic();
        EXPECT_LT(share, last_share) << intensity;
        last_share = share;
        if (intensity <= 1) {
            EXPECT_GT(share, 0.9) << intensity;
        }
        if (intensity >= 1000) {
            EXPECT_LT(share, 0.2) << intensity;
        }
    }
}

TEST(EnergyCalibration, TheScaleReproducesThePowerItWasSolvedFor) {
    EnergyTable t = EnergyTable::horowitz_45nm();
    t.static_power = 60;
    t.hbm.read_per_bit = t.hbm.write_per_bit = 4 * kPico;
    const double flops = 5e14, bytes = 2e11;
    t.scale = calibrate_to_power(t, ComputeUnit::Tensor, DType::BF16, flops, bytes, 500);
    OpCost second;
    second.unit = ComputeUnit::Tensor;
    second.dtype = DType::BF16;
    second.flops = flops;
    second.dram_bytes = bytes;
    EXPECT_NEAR(t.static_power + charge(t, second).dynamic(), 500, 1e-9);
    // Static power above the target leaves no positive scale.
    t.static_power = 600;
    EXPECT_THROW(calibrate_to_power(t, ComputeUnit::Tensor, DType::BF16, flops, bytes, 500),
                 std::invalid_argument);
}

}  // namespace
}  // namespace sim::energy
