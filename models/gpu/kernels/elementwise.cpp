// SPDX-License-Identifier: MIT
// Element-wise kernels (PyTorch's vectorised elementwise kernel shape): each thread loads one
// vector of every input, combines them, does the remaining arithmetic as FFMAs (one chain per
// element of its vector), and stores every output. No grid-stride loop: one vector per thread,
// as many CTAs as it takes, so a large op runs in many waves.
#include "models/gpu/kernels/kernel_shape.h"
#include "models/gpu/kernels/kernels.h"
#include "models/gpu/kernels/program_builder.h"

namespace sim::gpu {

KernelLaunch elementwise_kernel(const ElementwiseParams& p,
                                DType dtype,
                                const KernelHints& h,
                                AddressSpace& space) {
    if (p.inputs + p.outputs == 0) throw NotLowerable("an element-wise op must read or write");
    if (p.inputs > 8 || p.outputs > 4)
        throw NotLowerable("the element-wise kernel takes at most 8 inputs and 4 outputs");
    const uint32_t vec = vector_width(dtype, h);
    const uint32_t block = block_size(h, 256);
    const uint64_t stride = h.stride.value_or(1);
    const uint32_t paths = static_cast<uint32_t>(h.divergence.value_or(1));
    KernelLaunch k;
    k.name = "elementwise";
    k.threads_per_cta = block;
    k.registers_per_thread = static_cast<uint32_t>(h.registers.value_or(32));
    k.shared_bytes_per_cta = static_cast<uint32_t>(h.shared_memory.value_or(0));
    k.ctas = checked_grid(ceil_div(ceil_div(p.elements, vec), block));
    if (p.flops_per_element > (uint64_t{1} << 24))
        throw NotLowerable("more than 2^24 FLOPs per element is not an element-wise kernel");
    for (uint64_t i = 0; i < p.inputs + p.outputs; ++i) {
        const std::string name =
            i < p.inputs ? "in" + std::to_string(i) : "out" + std::to_string(i - p.inputs);
        k.streams.push_back(dense_stream(name, space, p.elements, dtype, vec, block, 0, stride));
    }

    ProgramBuilder b;
    const uint8_t addr = b.reg();
    b.op(Opcode::Ialu, 4, 1, addr);  // global index, bounds check, byte offset, address
    std::vector<uint8_t> in;
    for (uint64_t i = 0; i < p.inputs; ++i) {
        in.push_back(b.reg());
        b.ldg(in.back(), static_cast<uint8_t>(i), addr);
    }
    const uint8_t acc = p.inputs ? in[0] : b.reg();
    // FLOPs per thread: flops_per_element for each element of the vector. Combining n inputs
    // takes n - 1 adds per element; the rest are FMAs (2 FLOP), one dependency chain per element.
    uint64_t flops = p.flops_per_element * vec;
    if (paths > 1) b.marker(Opcode::Diverge, paths);
    for (size_t i = 1; i < in.size() && flops > 0; ++i) {
        const uint64_t adds = std::min<uint64_t>(vec, flops);
        b.op(Opcode::Falu, static_cast<uint32_t>(adds), vec, acc, acc, in[i]);
        flops -= adds;
    }
    if (flops > 0) {
        b.op(Opcode::Ffma, static_cast<uint32_t>(flops / 2), vec, acc, acc);
        if (flops % 2) b.op(Opcode::Falu, 1, 1, acc, acc);
    }
    if (paths > 1) b.marker(Opcode::Reconverge);
    for (uint64_t o = 0; o < p.outputs; ++o)
        b.stg(static_cast<uint8_t>(p.inputs + o), acc, addr);
    k.program = b.finish();
    return k;
}

KernelLaunch memcpy_kernel(const MemcpyParams& p, const KernelHints& h, AddressSpace& space) {
    if (p.direction == "p2p") throw NotLowerable("peer copies cross the links, not the SMs");
    if (p.direction != "d2d") throw NotLowerable("host copies cross PCIe, not the SMs");
    ElementwiseParams e;
    e.elements = std::max<uint64_t>(1, p.bytes / 4);
    e.inputs = 1;
    e.outputs = 1;
    e.flops_per_element = 0;
    KernelLaunch k = elementwise_kernel(e, DType::FP32, h, space);
    k.name = "memcpy";
    return k;
}

}  // namespace sim::gpu
