// SPDX-License-Identifier: MIT
// The kernel library: each operator the cycle-level GPU runs becomes a grid of CTAs running a
// warp program, written the way a well-tuned CUDA kernel does it (vectorised 16-byte loads, one
// CTA per row for row-wise ops, block-wide tree reductions through shuffles and shared memory).
// Block size, vector width, registers per thread, shared memory per CTA, access stride and
// branch divergence come from the trace's `kernel:` hints where given. Pure C++.
#pragma once

#include <stdexcept>

#include "models/gpu/core/gpu_config.h"
#include "models/gpu/core/warp_program.h"
#include "models/tensor_core/tensor_core.h"
#include "sim/trace/op.h"

namespace sim::gpu {

/// An operator the kernel library cannot lower (the message says why).
class NotLowerable : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

/// The machine the tiled kernels are shaped for (tile sizes, stages, instruction family).
struct GpuTarget {
    GpuCoreConfig core;
    tensor_core::TensorCoreConfig tensor;  ///< macs_per_clock empty: no Tensor Cores
};

KernelLaunch elementwise_kernel(const ElementwiseParams& p,
                                DType dtype,
                                const KernelHints& h,
                                AddressSpace& space);
/// A device-to-device copy as a kernel: 16-byte loads and stores.
KernelLaunch memcpy_kernel(const MemcpyParams& p, const KernelHints& h, AddressSpace& space);
/// Sum of `elements` values to `outputs` results: each CTA reduces a chunk (grid-stride over
/// its items, then a block reduction) and writes one partial.
KernelLaunch reduction_kernel(const ReductionParams& p,
                              DType dtype,
                              const KernelHints& h,
                              AddressSpace& space);
/// One CTA per row: max, exp and sum, normalise. The row stays in registers when it fits on
/// the target's SMs; a longer row is walked twice (online max and sum, then normalise).
KernelLaunch softmax_kernel(const RowParams& p,
                            DType dtype,
                            const KernelHints& h,
                            const GpuTarget& target,
                            AddressSpace& space);
/// One CTA per row: mean, variance, scale and shift by gamma and beta; a row too long for
/// registers is walked twice (Welford's mean and variance, then scale and shift).
KernelLaunch layernorm_kernel(const RowParams& p,
                              DType dtype,
                              const KernelHints& h,
                              const GpuTarget& target,
                              AddressSpace& space);
/// Gathers `tokens` rows of `dim` from a `vocab`-row table.
KernelLaunch embedding_kernel(const EmbeddingParams& p,
                              DType dtype,
                              const KernelHints& h,
                              AddressSpace& space);
/// The element-wise part of naive (unfused) attention: S = QKᵀ is in HBM; scale, causal mask
/// and softmax over each row of S (batch × heads × seq rows of kv_seq), P written back.
KernelLaunch attention_softmax_kernel(const AttentionParams& p,
                                      DType dtype,
                                      const KernelHints& h,
                                      const GpuTarget& target,
                                      AddressSpace& space);

/// Steps of a pointer chase's warm-up lap: the footprint once over, or 0 when it exceeds L2.
uint64_t pointer_chase_warm_steps(const PointerChaseParams& p, const GpuTarget& target);
/// A one-thread pointer chase: the warm-up lap, then (when timed) the p.steps loads timed.
KernelLaunch pointer_chase_kernel(const PointerChaseParams& p, const GpuTarget& target, bool timed);

/// Luo et al.'s bulk-copy bandwidth microbenchmark: p.ctas one-warp CTAs, each copying p.copies
/// blocks into shared memory with p.in_flight outstanding; throws NotLowerable when those
/// copies do not fit an SM's shared memory.
KernelLaunch bulk_copy_kernel(const BulkCopyParams& p, const GpuTarget& target);

/// The gpu-benches cache-bandwidth microbenchmark: `ctas` CTAs of 1024 threads reading p's data
/// set over and over, a block each (p.ctas for the operator; half as many for its first half).
KernelLaunch cache_read_kernel(const CacheReadParams& p, uint64_t ctas);

/// The kernels op runs as, in order (naive attention is three), issuing the MMA instruction
/// its `mma` hint names; throws NotLowerable for kinds and shapes the library has no kernel
/// for, std::invalid_argument for an MMA instruction the GPU lacks.
std::vector<KernelLaunch> lower(const Op& op, const GpuTarget& target);

}  // namespace sim::gpu
