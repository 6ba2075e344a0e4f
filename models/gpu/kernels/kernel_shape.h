// SPDX-License-Identifier: MIT
// Shared choices of the kernel library: the vector width (16-byte accesses unless a hint says
// otherwise), the block size, and the address stream of a dense array. Pure C++.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "models/gpu/core/warp_program.h"
#include "models/gpu/kernels/kernels.h"
#include "sim/trace/op.h"

namespace sim::gpu {

/// Elements per thread per access: the hint, else 16 bytes' worth (4 FP32, 8 FP16). A strided
/// walk defaults to one element per thread (a vector would not be contiguous).
inline uint32_t vector_width(DType dtype, const KernelHints& h) {
    if (h.vector) return static_cast<uint32_t>(*h.vector);
    if (h.stride && *h.stride > 1) return 1;
    return static_cast<uint32_t>(std::max<uint64_t>(1, 16 / dtype_bytes(dtype)));
}

inline uint32_t block_size(const KernelHints& h, uint32_t fallback) {
    return static_cast<uint32_t>(h.block.value_or(fallback));
}

inline uint64_t ceil_div(uint64_t a, uint64_t b) {
    return a / b + (a % b != 0);
}

/// ldmatrix.x4: four 8 x 8 16-bit matrices per warp, as much as 16 bytes per thread.
constexpr uint32_t kLdmatrixBytes = 512;
/// Shared-memory wavefronts of a warp's 16-byte-per-thread access or ldmatrix.x4: its bytes
/// over 32 banks of 4 bytes per cycle (CUDA C++ Programming Guide, shared memory, compute
/// capability 5.x and later; docs/references.md [cuda-guide]).
constexpr uint8_t kWideWavefronts = kLdmatrixBytes / GpuCoreConfig::kSharedWavefrontBytes;

/// What a kernel's Mma instructions cost, from the Tensor Core model's timing of one.
inline MmaCost mma_cost_of(const tensor_core::MmaTiming& m) {
    return MmaCost{m.interval, m.latency, m.flops, m.shared_bytes};
}

/// CUDA's largest grid (gridDim.x); a larger operator is not one kernel launch.
constexpr uint64_t kMaxCtas = (uint64_t{1} << 31) - 1;

/// ctas, or NotLowerable for a grid CUDA cannot launch.
inline uint64_t checked_grid(uint64_t ctas) {
    if (ctas > kMaxCtas) {
        throw NotLowerable("its grid of " + std::to_string(ctas) +
                           " CTAs is beyond CUDA's 2^31 - 1 (not one kernel launch)");
    }
    return std::max<uint64_t>(1, ctas);
}

/// A dense array of `elements` at `base` walked `vector` elements per thread: thread t of CTA c
/// on iteration i touches vector c * cta_step + i * iteration_step + t.
inline AddressStream dense_stream_at(const std::string& name,
                                     uint64_t base,
                                     uint64_t elements,
                                     DType dtype,
                                     uint32_t vector,
                                     uint64_t cta_step,
                                     uint64_t iteration_step,
                                     uint64_t stride = 1) {
    AddressStream s;
    s.name = name;
    s.access_bytes = static_cast<uint32_t>(vector * dtype_bytes(dtype));
    if (s.access_bytes > 16)
        throw std::invalid_argument("an access is at most 16 bytes per thread");
    s.vectors = std::max<uint64_t>(1, ceil_div(elements, vector));
    s.base = base;
    s.cta_step = cta_step;
    s.iteration_step = iteration_step;
    s.thread_step = 1;
    if (stride > 1) {
        s.layout = AddressStream::Layout::Strided;
        s.stride = stride;
    }
    return s;
}

/// dense_stream_at on a new array allocated in space.
inline AddressStream dense_stream(const std::string& name,
                                  AddressSpace& space,
                                  uint64_t elements,
                                  DType dtype,
                                  uint32_t vector,
                                  uint64_t cta_step,
                                  uint64_t iteration_step,
                                  uint64_t stride = 1) {
    AddressStream s =
        dense_stream_at(name, 0, elements, dtype, vector, cta_step, iteration_step, stride);
    s.base = space.allocate(s.vectors * s.access_bytes);
    return s;
}

}  // namespace sim::gpu
