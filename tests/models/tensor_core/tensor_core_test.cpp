// SPDX-License-Identifier: MIT
// Tensor Core timing: the precision's rate, operand delivery from shared memory, 2:4 sparsity,
// and the instruction shapes of each family.
#include "models/tensor_core/tensor_core.h"

#include <gtest/gtest.h>

namespace sim::tensor_core {
namespace {

/// An H100 sub-partition at the Tensor Core clock: 4096 dense BF16 FLOP/clock/SM = 512 MAC
/// per clock per sub-partition (H100 whitepaper, Table 3).
TensorCoreConfig hopper() {
    TensorCoreConfig c;
    c.family = MmaFamily::Wgmma;
    c.macs_per_clock = {{DType::BF16, 512}, {DType::FP8, 1024}, {DType::TF32, 256}};
    return c;
}

TEST(TensorCore, WideWgmmaRunsAtThePrecisionsRate) {
    const MmaTiming t = mma_timing(hopper(), {16, 256, 16}, DType::BF16, false);
    EXPECT_EQ(t.math_cycles, 16u * 256 * 16 / 512);  // 128
    EXPECT_LT(t.operand_cycles, t.math_cycles);
    EXPECT_EQ(t.interval, t.math_cycles);
    EXPECT_DOUBLE_EQ(t.flops, 2.0 * 16 * 256 * 16);
    EXPECT_GT(t.latency, t.interval);
}

TEST(TensorCore, NarrowWgmmaIsLimitedBySharedMemoryOperands) {
    // n = 32: 16 math cycles, but A (512 B) + a quarter of B (256 B) at 32 B/clock take 24.
    const MmaTiming t = mma_timing(hopper(), {16, 32, 16}, DType::BF16, false);
    EXPECT_EQ(t.math_cycles, 16u);
    EXPECT_EQ(t.operand_cycles, 24u);
    EXPECT_EQ(t.interval, 24u);
    EXPECT_DOUBLE_EQ(t.shared_bytes, 512 + 256);
    // With A in registers only B is read: the math limits again.
    const MmaTiming rs =
        mma_timing(hopper(), {16, 32, 16}, DType::BF16, false, OperandA::Registers);
    EXPECT_EQ(rs.interval, 16u);
    EXPECT_DOUBLE_EQ(rs.shared_bytes, 256);
}

TEST(TensorCore, SparsityHalvesTheMathAndFp8DoublesTheRate) {
    const MmaShape s{16, 256, 16};
    EXPECT_EQ(mma_timing(hopper(), s, DType::BF16, true).math_cycles,
              mma_timing(hopper(), s, DType::BF16, false).math_cycles / 2);
    // FP8 is k32 at twice the MAC rate: the same cycles for twice the FLOPs.
    const MmaTiming f8 = mma_timing(hopper(), {16, 256, 32}, DType::FP8, false);
    EXPECT_EQ(f8.math_cycles, 128u);
    EXPECT_DOUBLE_EQ(f8.flops, 2 * mma_timing(hopper(), s, DType::BF16, false).flops);
    EXPECT_EQ(mma_k(DType::TF32), 8u);
    EXPECT_EQ(mma_k(DType::FP8), 32u);
}

TEST(TensorCore, RejectsMissingPrecisionsAndForeignShapes) {
    TensorCoreConfig ampere = hopper();
    ampere.family = MmaFamily::MmaSync;
    ampere.macs_per_clock.erase(DType::FP8);
    EXPECT_THROW(mma_timing(ampere, {16, 8, 32}, DType::FP8, false), std::invalid_argument);
    EXPECT_THROW(mma_timing(ampere, {16, 64, 16}, DType::BF16, false), std::invalid_argument);
    EXPECT_NO_THROW(mma_timing(ampere, {16, 8, 16}, DType::BF16, false));
    EXPECT_THROW(mma_timing(hopper(), {16, 256, 8}, DType::BF16, false), std::invalid_argument);
    EXPECT_THROW(parse_mma_family("hmma"), std::invalid_argument);
}

TEST(TensorCore, MmaSyncOnAWgmmaCoreRunsAtItsShareOfTheRate) {
    TensorCoreConfig h = hopper();
    h.mma_sync_rate = 2.0 / 3;
    const TensorCoreConfig sync = h.issuing(MmaFamily::MmaSync);
    EXPECT_EQ(sync.family, MmaFamily::MmaSync);
    EXPECT_DOUBLE_EQ(sync.macs_per_clock.at(DType::BF16), 512.0 * 2 / 3);
    EXPECT_DOUBLE_EQ(sync.macs_per_clock.at(DType::FP8), 1024.0 * 2 / 3);
    // m16n8k16: 2048 MACs, 4 clocks at the wgmma rate, 6 at two thirds of it.
    EXPECT_EQ(mma_timing(sync, {16, 8, 16}, DType::BF16, false).interval, 6u);
    EXPECT_NO_THROW(sync.validate());
    // A core issuing its own family is unchanged; Ampere has no wgmma to issue.
    EXPECT_EQ(h.issuing(MmaFamily::Wgmma).macs_per_clock, h.macs_per_clock);
    EXPECT_THROW(sync.issuing(MmaFamily::Wgmma), std::invalid_argument);
}

TEST(TensorCore, MmaSyncRateIsAShareOfAWgmmaCoresRate) {
    TensorCoreConfig h = hopper();
    h.mma_sync_rate = 0;
    EXPECT_THROW(h.validate(), std::invalid_argument);
    h.mma_sync_rate = 1.5;
    EXPECT_THROW(h.validate(), std::invalid_argument);
    TensorCoreConfig ampere = hopper();
    ampere.family = MmaFamily::MmaSync;
    ampere.mma_sync_rate = 0.5;  // mma.sync is an Ampere core's own rate
    EXPECT_THROW(ampere.validate(), std::invalid_argument);
}

}  // namespace
}  // namespace sim::tensor_core
