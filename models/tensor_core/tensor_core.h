// SPDX-License-Identifier: MIT
// The Tensor Core of one SM sub-partition as the cycle-level GPU sees it: the time a warp's
// share of one MMA instruction holds the unit. Two instruction families:
//   mma.sync m16n8kK (Ampere): one warp, operands in registers (loaded before by ldmatrix);
//   wgmma m64nNkK (Hopper): a warpgroup of four warps, one per sub-partition, each computing
//     m16nNkK; B (and A unless it is in registers) is read from shared memory.
// K is 16 for FP16/BF16, 8 for TF32 and 32 for FP8/INT8 (32 bytes of K per row). The rate is
// per precision (multiply-accumulates per clock per sub-partition, dense); 2:4 structured
// sparsity on A halves the math and A's bytes. Operands read from shared memory share the SM's
// shared-memory bandwidth among the sub-partitions, so a narrow tile (small N) can be limited
// by operand delivery rather than by the math: the instruction takes
//   max(math cycles, operand bytes / (shared bytes per clock / sub-partitions)).
// Accumulation is FP32 (INT32 for INT8) in registers. Pure C++.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "sim/trace/op.h"

namespace sim::tensor_core {

enum class MmaFamily {
    MmaSync,  ///< Ampere-style mma.sync, one warp, register operands
    Wgmma,    ///< Hopper-style warpgroup MMA, shared-memory operands
};
std::string to_string(MmaFamily f);
MmaFamily parse_mma_family(const std::string& s);  ///< throws std::invalid_argument

/// One warp's share of an MMA instruction.
struct MmaShape {
    uint32_t m = 16, n = 8, k = 16;
    double macs() const { return double(m) * n * k; }
};

struct TensorCoreConfig {
    MmaFamily family = MmaFamily::Wgmma;
    /// Dense multiply-accumulates per clock per sub-partition, per precision (no entry: the
    /// Tensor Core has no path for that precision). At the clock the kernel runs at.
    std::map<DType, double> macs_per_clock;
    double sparsity_speedup = 2;
    uint32_t sub_partitions = 4;
    uint32_t shared_bytes_per_clock = 128;  ///< per SM, all sub-partitions together
    uint32_t latency = 24;  ///< cycles from the last operand to the accumulator (ASSUMPTION)
    /// On a wgmma core, the fraction of macs_per_clock that mma.sync reaches: Hopper still runs
    /// Ampere's per-warp instruction, below the warpgroup instruction's rate. 1 on a core whose
    /// own family is mma.sync.
    double mma_sync_rate = 1;

    /// Throws std::invalid_argument naming the first impossible value.
    void validate() const;
    bool supports(DType d) const { return macs_per_clock.count(d) != 0; }
    /// This core as a kernel that issues `f` sees it: on a wgmma core, mma.sync runs at
    /// mma_sync_rate of each precision's rate. Throws std::invalid_argument for wgmma on an
    /// mma.sync core (Ampere has no warpgroup MMA).
    TensorCoreConfig issuing(MmaFamily f) const;
};

/// Where an MMA's A operand comes from (B always comes from shared memory for wgmma and
/// from registers for mma.sync).
enum class OperandA { Registers, SharedMemory };

struct MmaTiming {
    uint32_t interval = 1;        ///< cycles the sub-partition's Tensor Core is busy
    uint32_t math_cycles = 1;     ///< what the precision's rate alone needs
    uint32_t operand_cycles = 0;  ///< what delivering shared-memory operands needs
    uint32_t latency = 1;         ///< issue to accumulator ready
    double flops = 0;             ///< useful FLOPs (2 per MAC; sparse: of the dense product)
    double shared_bytes = 0;      ///< operand bytes read from shared memory (wgmma's A and B)
};

/// K of one instruction for a precision (bytes of K per row are 32; TF32 is stored in 4 bytes).
uint32_t mma_k(DType d);

/// The timing of one warp's m x n x k MMA. Throws std::invalid_argument for a precision the
/// Tensor Core lacks or a shape that is not the family's.
MmaTiming mma_timing(const TensorCoreConfig& c,
                     const MmaShape& s,
                     DType d,
                     bool sparse,
                     OperandA a = OperandA::SharedMemory);

}  // namespace sim::tensor_core
