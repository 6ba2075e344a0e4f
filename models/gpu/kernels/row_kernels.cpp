// SPDX-License-Identifier: MIT
// Row-wise kernels, one CTA per row (the shape of PyTorch's and Apex's softmax and layernorm
// for rows up to a few thousand elements): the CTA's threads each load `iterations` vectors of
// the row into registers, reduce across the block (shuffles, shared memory, barriers), and write
// the row once. HBM traffic is one read and one write of the tensor.
#include <vector>

#include "models/gpu/kernels/kernel_shape.h"
#include "models/gpu/kernels/kernels.h"
#include "models/gpu/kernels/program_builder.h"

namespace sim::gpu {

namespace {

struct RowShape {
    uint32_t vec = 4;
    uint32_t block = 256;
    uint32_t iterations = 1;  ///< vectors per thread
};

RowShape row_shape(uint64_t cols, DType dtype, const KernelHints& h) {
    RowShape s;
    s.vec = vector_width(dtype, h);
    const uint64_t vectors = ceil_div(cols, s.vec);
    // Enough threads that each holds at most 8 vectors, in whole warps, at most 1024.
    s.block = h.block ? static_cast<uint32_t>(*h.block)
                      : static_cast<uint32_t>(std::clamp<uint64_t>(
                            ceil_div(ceil_div(vectors, 8), 32) * 32, 32, 1024));
    s.iterations = static_cast<uint32_t>(ceil_div(vectors, s.block));
    if (s.iterations > 16) {
        throw NotLowerable(
            "rows over 16 vectors per thread need a multi-pass kernel, which the "
            "library has not got");
    }
    return s;
}

KernelLaunch row_kernel(const std::string& name,
                        uint64_t rows,
                        uint64_t cols,
                        const KernelHints& h,
                        const RowShape& s) {
    if (rows == 0 || cols == 0) throw NotLowerable(name + " needs rows and cols");
    KernelLaunch k;
    k.name = name;
    k.ctas = checked_grid(rows);
    k.threads_per_cta = s.block;
    k.registers_per_thread = static_cast<uint32_t>(
        h.registers.value_or(std::min<uint64_t>(255, 32 + s.iterations * s.vec)));
    k.shared_bytes_per_cta = static_cast<uint32_t>(h.shared_memory.value_or(128));
    return k;
}

/// The input x and output y of a row kernel: CTA c walks row c, thread t on iteration i its
/// vector i * block + t.
void add_row_streams(
    KernelLaunch& k, const RowParams& p, DType dtype, const RowShape& s, AddressSpace& space) {
    const uint64_t row_vectors = ceil_div(p.cols, s.vec);
    for (const char* name : {"x", "y"}) {
        k.streams.push_back(
            dense_stream(name, space, p.rows * p.cols, dtype, s.vec, row_vectors, s.block));
    }
}

}  // namespace

KernelLaunch softmax_kernel(const RowParams& p,
                            DType dtype,
                            const KernelHints& h,
                            AddressSpace& space) {
    const RowShape s = row_shape(p.cols, dtype, h);
    KernelLaunch k = row_kernel("softmax", p.rows, p.cols, h, s);
    add_row_streams(k, p, dtype, s, space);
    const uint32_t warps = k.warps_per_cta();
    ProgramBuilder b;
    const uint8_t addr = b.reg(), m = b.reg(), sum = b.reg();
    b.op(Opcode::Ialu, 4, 1, addr);
    const std::vector<uint8_t> x = b.ldg_unrolled(0, addr, s.iterations);  // the row
    for (uint32_t i = 0; i < s.iterations; ++i)
        b.op(Opcode::Falu, s.vec, s.vec, m, m, x[i]);
    b.block_reduce(m, warps);
    for (uint32_t i = 0; i < s.iterations; ++i) {  // exp(x - max) and the running sum
        b.op(Opcode::Falu, s.vec, s.vec, x[i], x[i], m)
            .op(Opcode::Sfu, s.vec, s.vec, x[i], x[i])
            .op(Opcode::Falu, s.vec, s.vec, sum, sum, x[i]);
    }
    b.block_reduce(sum, warps);
    b.op(Opcode::Sfu, 1, 1, sum, sum);  // 1 / sum
    for (uint32_t i = 0; i < s.iterations; ++i)
        b.op(Opcode::Falu, s.vec, s.vec, x[i], x[i], sum).stg(1, x[i], addr, i);
    k.program = b.finish();
    return k;
}

KernelLaunch layernorm_kernel(const RowParams& p,
                              DType dtype,
                              const KernelHints& h,
                              AddressSpace& space) {
    const RowShape s = row_shape(p.cols, dtype, h);
    KernelLaunch k = row_kernel("layernorm", p.rows, p.cols, h, s);
    add_row_streams(k, p, dtype, s, space);
    // gamma and beta: one row every CTA reads (L1 and L2 hits after the first CTAs).
    k.streams.push_back(dense_stream("gamma", space, p.cols, dtype, s.vec, 0, s.block));
    k.streams.push_back(dense_stream("beta", space, p.cols, dtype, s.vec, 0, s.block));
    const uint32_t warps = k.warps_per_cta();
    ProgramBuilder b;
    const uint8_t addr = b.reg(), mean = b.reg(), var = b.reg();
    const uint8_t g[2] = {b.reg(), b.reg()}, bt[2] = {b.reg(), b.reg()};
    b.op(Opcode::Ialu, 4, 1, addr);
    const std::vector<uint8_t> x = b.ldg_unrolled(0, addr, s.iterations);  // the row
    for (uint32_t i = 0; i < s.iterations; ++i)
        b.op(Opcode::Falu, s.vec, s.vec, mean, mean, x[i]);
    b.block_reduce(mean, warps);
    for (uint32_t i = 0; i < s.iterations; ++i) {
        b.op(Opcode::Falu, s.vec, s.vec, x[i], x[i], mean)    // x - mean
            .op(Opcode::Ffma, s.vec, s.vec, var, var, x[i]);  // sum of squares
    }
    b.block_reduce(var, warps);
    b.op(Opcode::Sfu, 1, 1, var, var);  // rsqrt(var + eps)
    // Scale and shift, with gamma and beta double-buffered: the next pair loads while this
    // one is used.
    b.ldg(g[0], 2, addr, 0).ldg(bt[0], 3, addr, 0);
    for (uint32_t i = 0; i < s.iterations; ++i) {
        if (i + 1 < s.iterations)
            b.ldg(g[(i + 1) % 2], 2, addr, i + 1).ldg(bt[(i + 1) % 2], 3, addr, i + 1);
        b.op(Opcode::Falu, s.vec, s.vec, x[i], x[i], var)
            .op(Opcode::Ffma, s.vec, s.vec, x[i], g[i % 2], bt[i % 2])
            .stg(1, x[i], addr, i);
    }
    k.program = b.finish();
    return k;
}

KernelLaunch attention_softmax_kernel(const AttentionParams& p,
                                      DType dtype,
                                      const KernelHints& h,
                                      AddressSpace& space) {
    const uint64_t kv = p.kv_seq ? p.kv_seq : p.seq;
    RowParams rows{p.batch * p.heads * p.seq, kv};
    KernelLaunch k = softmax_kernel(rows, dtype, h, space);
    k.name = "attention_softmax";
    // Scale by 1/sqrt(d) (and the causal mask: a compare and select) before the row max.
    const RowShape s = row_shape(kv, dtype, h);
    Instr scale;
    scale.op = Opcode::Falu;
    scale.count = s.vec * s.iterations * (p.causal ? 2 : 1);
    scale.chains = s.vec;
    // After the row's loads (before the first max), on the first loaded register.
    for (size_t i = 0; i < k.program.size(); ++i) {
        if (k.program[i].op == Opcode::Falu) {
            scale.dst = scale.src[0] = k.program[i].src[1];
            k.program.insert(k.program.begin() + static_cast<long>(i), scale);
            break;
        }
    }
    return k;
}

}  // namespace sim::gpu
