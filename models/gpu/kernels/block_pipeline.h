// SPDX-License-Identifier: MIT
// The pieces the fused attention kernels share: the MMA cost of a tensor-core instruction on
// this GPU, and a CTA's software pipeline over blocks streamed through shared memory. On Hopper
// warp 0 issues one TMA copy per block and waits for it; on Ampere every warp copies its share
// with cp.async and waits for it. A CTA barrier then lets every warp see the block. Pure C++.
#pragma once

#include "models/gpu/kernels/kernel_shape.h"
#include "models/gpu/kernels/kernels.h"
#include "models/gpu/kernels/program_builder.h"

namespace sim::gpu {

/// The cost of one MMA of n columns, the A operand from shared memory or registers; mma.sync
/// (Ampere) runs m16n8k16 with fragments in registers whatever n is.
inline MmaCost mma_cost(const GpuTarget& g, uint32_t n, DType dtype, tensor_core::OperandA a) {
    using tensor_core::OperandA;
    const bool wgmma = g.tensor.family == tensor_core::MmaFamily::Wgmma;
    const auto m =
        tensor_core::mma_timing(g.tensor, {16, wgmma ? n : 8u, tensor_core::mma_k(dtype)}, dtype,
                                false, wgmma ? a : OperandA::Registers);
    return mma_cost_of(m);
}

class BlockPipeline {
  public:
    BlockPipeline(ProgramBuilder& b, const GpuTarget& g, uint32_t warps, uint32_t stages)
        : b_(b),
          tma_(g.tensor.family == tensor_core::MmaFamily::Wgmma),
          warps_(warps),
          stages_(stages) {}

    /// Copies the block of `stream` for iteration + unrolled into dst (a stage register, rotated
    /// by the iteration, when rotate).
    void copy(uint8_t stream, uint8_t dst, uint32_t unrolled, bool rotate) {
        b_.tma(stream, dst, tma_ ? 1 : warps_, unrolled);
        if (rotate) b_.rotating(stages_);
        if (tma_) b_.leader_only();
    }
    /// Waits for a copy into reg (rotated when rotate), then a CTA barrier when barrier.
    void wait(uint8_t reg, bool rotate, bool barrier) {
        b_.op(Opcode::Ialu, 1, 1, kNoReg, reg);
        if (rotate) b_.rotating(stages_);
        if (tma_) b_.leader_only();
        if (barrier) b_.bar();
    }
    /// The loop over `blocks`. Causal: up to the diagonal, (M tile + 1)·step trips, or (when
    /// from_diagonal) from it to the end, blocks - M tile·step trips.
    void loop(uint32_t blocks, bool causal, uint32_t step, bool from_diagonal = false) {
        if (!causal) {
            b_.marker(Opcode::LoopBegin, blocks);
        } else if (from_diagonal) {
            b_.from_diagonal_loop(blocks, step);
        } else {
            b_.triangular_loop(blocks, step);
        }
    }

  private:
    ProgramBuilder& b_;
    bool tma_;
    uint32_t warps_, stages_;
};

}  // namespace sim::gpu
