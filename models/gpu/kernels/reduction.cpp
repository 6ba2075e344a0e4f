// SPDX-License-Identifier: MIT
// A sum reduction (CUB's block reduce shape): each thread loads `items` vectors, all in flight
// at once, and adds them (one add chain per vector element); the CTA reduces through shuffles and
// shared memory, and one thread per CTA writes a partial (the partials are a small second pass,
// left out).
#include "models/gpu/kernels/kernel_shape.h"
#include "models/gpu/kernels/kernels.h"
#include "models/gpu/kernels/program_builder.h"

namespace sim::gpu {

KernelLaunch reduction_kernel(const ReductionParams& p,
                              DType dtype,
                              const KernelHints& h,
                              AddressSpace& space) {
    if (p.elements == 0) throw NotLowerable("a reduction needs elements");
    constexpr uint32_t kItems = 8;  // vectors per thread
    const uint32_t vec = vector_width(dtype, h);
    const uint32_t block = block_size(h, 256);
    KernelLaunch k;
    k.name = "reduction";
    k.threads_per_cta = block;
    k.registers_per_thread = static_cast<uint32_t>(h.registers.value_or(40));
    k.shared_bytes_per_cta = static_cast<uint32_t>(h.shared_memory.value_or(128));
    const uint64_t per_cta = uint64_t{block} * kItems;  // vectors
    k.ctas = checked_grid(ceil_div(ceil_div(p.elements, vec), per_cta));
    k.streams.push_back(
        dense_stream("x", space, p.elements, dtype, vec, per_cta, block, h.stride.value_or(1)));
    AddressStream out = dense_stream("partials", space, k.ctas * block, dtype, 1, 1, 0);
    out.thread_step = 0;  // thread 0's value; every thread of the CTA names the same word
    k.streams.push_back(out);
    ProgramBuilder b;
    const uint8_t addr = b.reg(), acc = b.reg();
    b.op(Opcode::Ialu, 4, 1, addr);
    // Unrolled as CUB does: all the items' loads in flight, then the adds.
    const std::vector<uint8_t> x = b.ldg_unrolled(0, addr, kItems);
    for (uint32_t i = 0; i < kItems; ++i)
        b.op(Opcode::Falu, vec, vec, acc, acc, x[i]);
    b.op(Opcode::Falu, vec > 1 ? vec - 1 : 0, 1, acc, acc);  // the vector's lanes into one
    b.block_reduce(acc, k.warps_per_cta());
    b.stg(1, acc, addr);
    k.program = b.finish();
    return k;
}

}  // namespace sim::gpu
