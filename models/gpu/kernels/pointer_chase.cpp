// SPDX-License-Identifier: MIT
// The pointer-chase latency microbenchmark as a kernel (the fine-grained P-chase of Mei & Chu,
// as Jia et al. and Luo et al. run it, docs/references.md [jia2018], [luo2024]): one thread of
// one CTA loads a pointer, whose value is the address of the next load, `steps` times. Each
// load waits for the one before, so the time per step is the load-to-use latency of wherever
// the chain lives: L1 when the footprint fits there, L2 when it fits there, else DRAM.
// A warm-up lap first walks the whole footprint once, as the microbenchmarks do, so that the
// timed steps find it in the caches. A footprint larger than the L2 gets no warm-up lap: a
// cyclic walk larger than a cache finds nothing of it there under LRU, warm or not (and the
// lap would take as long as the timed steps many times over). Pure C++.
#include "models/gpu/kernels/kernel_shape.h"
#include "models/gpu/kernels/kernels.h"
#include "models/gpu/kernels/program_builder.h"

namespace sim::gpu {

uint64_t pointer_chase_warm_steps(const PointerChaseParams& p, const GpuTarget& target) {
    if (p.stride == 0 || p.footprint < p.stride) throw NotLowerable("a chase needs a stride");
    return p.footprint <= target.core.l2.bytes ? p.footprint / p.stride : 0;
}

KernelLaunch pointer_chase_kernel(const PointerChaseParams& p,
                                  const GpuTarget& target,
                                  bool timed) {
    const uint64_t warm = pointer_chase_warm_steps(p, target);
    if (p.steps == 0 || p.steps > UINT32_MAX || warm > UINT32_MAX)
        throw NotLowerable("a chase of " + std::to_string(p.steps) + " steps is not one loop");
    KernelLaunch k;
    k.name = "pointer_chase";
    k.ctas = 1;
    k.threads_per_cta = 1;
    k.registers_per_thread = 16;
    AddressSpace space;
    // Pointer i of the chain is at byte (i x stride) mod footprint.
    AddressStream chain =
        dense_stream("chain", space, p.footprint / 8, DType::FP64, 1, 0, p.stride / 8);
    chain.thread_step = 0;
    k.streams.push_back(chain);
    ProgramBuilder b;
    const uint8_t ptr = b.reg();
    b.op(Opcode::Ialu, 1, 1, ptr);  // the chain's first address
    if (warm > 0) {
        b.marker(Opcode::LoopBegin, static_cast<uint32_t>(warm)).reread_later();
        b.ldg(ptr, 0, ptr);
        b.marker(Opcode::LoopEnd);
    }
    if (timed) {
        b.marker(Opcode::LoopBegin, static_cast<uint32_t>(p.steps));
        b.ldg(ptr, 0, ptr);
        b.marker(Opcode::LoopEnd);
    }
    k.program = b.finish();
    return k;
}

}  // namespace sim::gpu
