// SPDX-License-Identifier: MIT
// The cache-bandwidth microbenchmark as a kernel (the L2 cache test of gpu-benches,
// docs/references.md [gpu-benches]): CTAs of 1024 threads each load a block of a
// data set, 8 bytes a thread per load, all of a thread's loads in flight before it adds them
// up. The data set is split in regions of one block; CTA c reads region c mod regions, so every
// `regions` CTAs read the whole data set once more. Its bandwidth is that of wherever the data
// set lives: the L1s when a region's CTAs share an SM, L2 while the data set fits there, DRAM
// beyond. Pure C++.
#include "models/gpu/kernels/kernel_shape.h"
#include "models/gpu/kernels/kernels.h"
#include "models/gpu/kernels/program_builder.h"

namespace sim::gpu {

KernelLaunch cache_read_kernel(const CacheReadParams& p, uint64_t ctas) {
    constexpr uint64_t kThreads = 1024;
    constexpr uint64_t kLoad = kThreads * 8;  // one load of a CTA: 8 bytes a thread
    const uint64_t regions = p.regions();
    const auto loads = static_cast<uint32_t>(p.block_bytes / kLoad);
    if (regions == 0 || loads == 0 || loads > 16 || p.block_bytes % kLoad != 0)
        throw NotLowerable("a cache read needs blocks of 8192 x 1..16 bytes");
    KernelLaunch k;
    k.name = "cache_read";
    k.tile = std::to_string(p.block_bytes) + " B blocks, " + std::to_string(regions) + " regions";
    k.ctas = checked_grid(ctas);
    k.threads_per_cta = kThreads;
    k.registers_per_thread = 32;
    // Measured whole at every fidelity, as a microbenchmark is: its first CTAs fill the caches.
    k.may_sample = false;
    // Thread t of CTA c, load i: 8-byte word (c + i x regions) x 1024 + t of the data set, which
    // wraps: CTA c = q x regions + r reads region r's blocks, starting at its q-th.
    AddressSpace space;
    k.streams.push_back(
        dense_stream("data", space, p.footprint / 8, DType::FP64, 1, kThreads, regions * kThreads));
    ProgramBuilder b;
    const uint8_t address = b.reg(), sum = b.reg();
    b.op(Opcode::Ialu, 2, 1, address);
    const std::vector<uint8_t> words = b.ldg_unrolled(0, address, loads);
    for (uint8_t w : words)
        b.op(Opcode::Falu, 1, 1, sum, sum, w);
    k.program = b.finish();
    return k;
}

}  // namespace sim::gpu
