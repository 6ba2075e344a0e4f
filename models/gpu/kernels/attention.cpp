// SPDX-License-Identifier: MIT
// Convolution as implicit GEMM, and attention fused or naive, on top of the tiled GEMM.
#include <algorithm>

#include "models/gpu/kernels/block_pipeline.h"
#include "models/gpu/kernels/gemm.h"
#include "models/gpu/kernels/kernel_shape.h"
#include "models/gpu/kernels/program_builder.h"

namespace sim::gpu {

namespace {
using Axis = AddressStream::Axis;

}  // namespace

KernelLaunch conv2d_kernel(const Conv2dParams& c,
                           DType dtype,
                           const GpuTarget& g,
                           AddressSpace& space) {
    if (c.groups != 1) throw NotLowerable("grouped convolutions have no implicit-GEMM kernel");
    const uint64_t es = dtype_bytes(dtype);
    const uint64_t bk_bytes = 128;
    const uint64_t channel_tiles = ceil_div(c.in_channels * es, bk_bytes);
    GemmProblem p;
    p.m = c.batch * c.out_height() * c.out_width();
    p.n = c.out_channels;
    p.k = c.kernel_h * c.kernel_w * channel_tiles * (bk_bytes / es);
    p.dtype = dtype;
    p.out_dtype = dtype;
    const GemmTile t = choose_gemm_tile(p, g);
    KernelLaunch k = gemm_kernel(p, t, g, space, "conv2d_implicit_gemm");
    AddressStream& a = k.streams[0];
    a.im2col = true;
    a.conv = {c.height, c.width,   c.out_height(),     c.out_width(), c.kernel_w,
              c.stride, c.padding, c.in_channels * es, channel_tiles};
    a.batch_bytes = 0;
    a.base = space.allocate(c.batch * c.height * c.width * c.in_channels * es);
    return k;
}

KernelLaunch flash_attention_kernel(const AttentionParams& p,
                                    DType dtype,
                                    const GpuTarget& g,
                                    AddressSpace& space) {
    if (dtype == DType::FP32 || !g.tensor.supports(dtype))
        throw NotLowerable("fused attention needs a " + to_string(dtype) + " Tensor Core path");
    const uint32_t kin = tensor_core::mma_k(dtype);
    if (p.head_dim % kin != 0 || p.head_dim > 256)
        throw NotLowerable("head_dim must be a multiple of " + std::to_string(kin) +
                           " up to 256 for the fused kernel");
    const uint64_t es = dtype_bytes(dtype);
    const uint32_t d = static_cast<uint32_t>(p.head_dim);
    const bool wgmma = g.tensor.family == tensor_core::MmaFamily::Wgmma;
    // 128 query rows per CTA. wgmma: 8 warps (two warpgroups) of 16 rows, 128 KV rows per
    // block up to head dim 128. mma.sync: FlashAttention-2's own shapes
    // (flash_fwd_launch_template.h, docs/references.md [flash-attention2]): 4 warps of 32
    // rows, 128 KV rows per block at head dim 64 and 64 up to 128; 8 warps above.
    const uint32_t bm = 128;
    const uint32_t warps = wgmma ? bm / 16 : (d <= 128 ? 4 : 8);
    const uint32_t rows = bm / warps;  // query rows per warp
    const uint32_t bn = wgmma ? (d <= 128 ? 128 : 64) : (d <= 64 ? 128 : 64);  // KV rows per block
    const uint32_t stages = wgmma ? 2 : 1;  // K and V buffers in shared memory
    const uint64_t kv_seq = p.kv_seq ? p.kv_seq : p.seq;
    KernelLaunch k;
    k.name = "flash_attention";
    k.tile = std::to_string(bm) + " query x " + std::to_string(bn) + " KV rows " +
             std::to_string(stages) + (stages > 1 ? " stages" : " stage");
    k.grid.batch = p.batch * p.heads;
    k.grid.m_tiles = ceil_div(p.seq, bm);
    k.grid.k_tiles = ceil_div(kv_seq, bn);
    k.ctas = checked_grid(k.grid.ctas());
    k.threads_per_cta = warps * 32;
    k.registers_per_thread = 255;
    k.shared_bytes_per_cta = static_cast<uint32_t>((bm + 2 * stages * bn) * d * es);
    const uint64_t bh = k.grid.batch;
    k.streams.push_back(rows_stream("Q", space, bh, p.seq, d * es, Axis::M, bm));
    k.streams.push_back(rows_stream("K", space, bh, kv_seq, d * es, Axis::K, bn));
    k.streams.push_back(rows_stream("V", space, bh, kv_seq, d * es, Axis::K, bn));
    k.streams.push_back(rows_stream("O", space, bh, p.seq, d * es, Axis::M, bm));
    constexpr uint8_t kQ = 0, kK = 1, kV = 2, kO = 3;

    // Two MMA shapes: S = QKᵀ (n = BN, Q from shared memory) and O += PV (n = d, P from
    // registers); mma.sync does both as m16n8k16 with fragments from ldmatrix, Q's again for
    // every KV block (FlashAttention-2 keeps Q in shared memory, not in registers).
    k.mma[0] = mma_cost(g, bn, dtype, tensor_core::OperandA::SharedMemory);
    k.mma[1] = mma_cost(g, d, dtype, tensor_core::OperandA::Registers);
    const uint32_t row_tiles = rows / 16;  // a warp's m16 tiles
    const uint32_t qk_mmas = wgmma ? d / kin : row_tiles * (bn / 8) * (d / kin);
    const uint32_t pv_mmas = wgmma ? bn / kin : row_tiles * (d / 8) * (bn / kin);

    ProgramBuilder b;
    const uint8_t s = b.reg(), pr = b.reg(), o = b.reg(), frag = b.reg(), q = b.reg();
    const uint32_t values = rows * bn / 32;  // S elements per thread
    // ldmatrix.x4 per warp: Q's rows and the K block for S, the V block for O.
    const uint32_t kv_fragments = std::max<uint32_t>(1, uint32_t(bn * d * es / kLdmatrixBytes));
    const uint32_t qk_fragments = kv_fragments + uint32_t(rows * d * es / kLdmatrixBytes);
    // Online softmax of the warp's rows x BN block: row max, exp, row sum, rescale O.
    const auto softmax = [&] {
        b.op(Opcode::Falu, values, 4, s, s);
        b.op(Opcode::Shfl, 2, 1, frag, s).op(Opcode::Falu, 2, 1, s, s, frag);
        b.op(Opcode::Ffma, values, values, s, s);
        b.op(Opcode::Sfu, values, values, pr, s);
        b.op(Opcode::Falu, values, 4, pr, pr);
        b.op(Opcode::Falu, values / 2, values / 2, pr, pr);  // P to 16-bit pairs (cvt .bf16x2)
        b.op(Opcode::Falu, rows * d / 32, rows * d / 32, o, o);
    };
    if (wgmma) {
        // Two stages: this block's K and V were copied during the last block's math.
        const uint8_t stage = b.regs(stages);
        BlockPipeline pipe(b, g, warps, stages);
        pipe.copy(kQ, q, 0, false);
        pipe.copy(kK, stage, 0, true);
        pipe.copy(kV, stage, 0, true);
        pipe.wait(q, false, false);
        pipe.loop(static_cast<uint32_t>(k.grid.k_tiles), p.causal, bm / bn);
        // Wait for this block's K and V, let every warp see them, prefetch the next block.
        pipe.wait(stage, true, true);
        pipe.copy(kK, stage, 1, true);
        pipe.copy(kV, stage, 1, true);
        b.op(Opcode::Mma, qk_mmas, qk_mmas, s, q);
        softmax();
        b.op(Opcode::Mma, pv_mmas, pv_mmas, o, pr, o).mma_kind(1);
    } else {
        // FlashAttention-2's schedule (flash_fwd_kernel.h): one shared-memory buffer each for
        // K and V. V's copy runs under S = QKᵀ and the next K's under the softmax and O += PV;
        // every warp waits for each copy and meets the others at a barrier before using it.
        const uint8_t kb = b.reg(), vb = b.reg();
        BlockPipeline pipe(b, g, warps, 1);
        pipe.copy(kQ, q, 0, false);
        pipe.copy(kK, kb, 0, false);
        pipe.loop(static_cast<uint32_t>(k.grid.k_tiles), p.causal, bm / bn);
        pipe.wait(q, false, false);
        pipe.wait(kb, false, true);
        pipe.copy(kV, vb, 0, false);
        b.op(Opcode::Lds, qk_fragments, qk_fragments, frag).wavefronts(kWideWavefronts);
        b.op(Opcode::Mma, qk_mmas, qk_mmas, s, frag);
        pipe.wait(vb, false, true);
        pipe.copy(kK, kb, 1, false);
        softmax();
        b.op(Opcode::Lds, kv_fragments, kv_fragments, frag).wavefronts(kWideWavefronts);
        b.op(Opcode::Mma, pv_mmas, pv_mmas, o, pr, o).mma_kind(1);
    }
    b.marker(Opcode::LoopEnd);
    // Epilogue: divide by the row sums, stage O in shared memory, store it.
    const uint32_t outputs = rows * d / 32;
    b.op(Opcode::Falu, outputs, outputs, o, o);
    b.op(Opcode::Sts, std::max<uint32_t>(1, uint32_t(outputs * es / 16)), 1, kNoReg, o)
        .wavefronts(kWideWavefronts);
    b.bar();
    b.tma_store(kO, 1).leader_only();
    k.program = b.finish();
    return k;
}

std::vector<KernelLaunch> naive_attention_kernels(const AttentionParams& p,
                                                  DType dtype,
                                                  const KernelHints& hints,
                                                  const GpuTarget& g) {
    AddressSpace space;
    const uint64_t kv_seq = p.kv_seq ? p.kv_seq : p.seq;
    GemmProblem qk;
    qk.batch = p.batch * p.heads;
    qk.m = p.seq;
    qk.n = kv_seq;
    qk.k = p.head_dim;
    qk.dtype = qk.out_dtype = dtype;
    qk.b_transposed = true;  // K is kv_seq x head_dim
    GemmProblem pv = qk;
    pv.n = p.head_dim;
    pv.k = kv_seq;
    pv.b_transposed = false;  // V is kv_seq x head_dim
    std::vector<KernelLaunch> kernels;
    kernels.push_back(gemm_kernel(qk, choose_gemm_tile(qk, g), g, space, "attention_qk"));
    kernels.push_back(attention_softmax_kernel(p, dtype, hints, g, space));
    kernels.push_back(gemm_kernel(pv, choose_gemm_tile(pv, g), g, space, "attention_pv"));
    return kernels;
}

}  // namespace sim::gpu
