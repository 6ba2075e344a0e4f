// SPDX-License-Identifier: MIT
// FlashAttention-2's backward pass as one kernel: each CTA owns a block of K and V rows, keeps
// dK and dV on chip, and walks the query blocks; per block it recomputes S = QKᵀ and P = exp(S -
// logsumexp), then dP = dO·Vᵀ, dS = P ∘ (dP - D), dV += Pᵀ·dO, dK += dSᵀ·Q, and the block's dQ
// = dS·K, which it adds into an FP32 dQ in memory (a TMA reduce-add; FA2 uses atomics).
#include <algorithm>

#include "models/gpu/kernels/block_pipeline.h"
#include "models/gpu/kernels/gemm.h"
#include "models/gpu/kernels/kernel_shape.h"
#include "models/gpu/kernels/program_builder.h"

namespace sim::gpu {

KernelLaunch flash_attention_backward_kernel(const AttentionParams& p,
                                             DType dtype,
                                             const GpuTarget& g,
                                             AddressSpace& space) {
    using Axis = AddressStream::Axis;
    using tensor_core::OperandA;
    if (dtype == DType::FP32 || !g.tensor.supports(dtype))
        throw NotLowerable("fused attention needs a " + to_string(dtype) + " Tensor Core path");
    const uint32_t kin = tensor_core::mma_k(dtype);
    if (p.head_dim % kin != 0 || p.head_dim > 128)
        throw NotLowerable("head_dim must be a multiple of " + std::to_string(kin) +
                           " up to 128 for the fused backward kernel");
    const uint64_t kv_seq = p.kv_seq ? p.kv_seq : p.seq;
    if (p.causal && kv_seq != p.seq)
        throw NotLowerable("the causal backward kernel needs kv_seq = seq");
    const uint64_t es = dtype_bytes(dtype);
    const uint32_t d = static_cast<uint32_t>(p.head_dim);
    const uint32_t bq = 64;  // query rows per step
    // K and V rows per CTA: 128 (8 warps) when K, V, two stages of Q and dO, dS and the FP32
    // dQ block fit in shared memory, else 64 (4 warps).
    const auto shared_bytes = [&](uint32_t bkv) {
        return (2 * bkv * d + 2 * 2 * bq * d + bq * bkv) * es + bq * d * 4;
    };
    const uint32_t bkv = shared_bytes(128) <= g.core.sm.shared_memory ? 128 : 64;
    if (shared_bytes(bkv) > g.core.sm.shared_memory)
        throw NotLowerable("the fused backward kernel's tiles do not fit in shared memory");
    const uint32_t warps = bkv / 16;
    const uint32_t stages = 2;

    KernelLaunch k;
    k.name = "flash_attention_backward";
    k.tile = std::to_string(bkv) + " KV x " + std::to_string(bq) + " query rows " +
             std::to_string(stages) + " stages";
    k.grid.batch = p.batch * p.heads;
    k.grid.m_tiles = ceil_div(kv_seq, bkv);
    k.grid.k_tiles = ceil_div(p.seq, bq);
    k.ctas = checked_grid(k.grid.ctas());
    k.threads_per_cta = warps * 32;
    k.registers_per_thread = 255;
    k.shared_bytes_per_cta = static_cast<uint32_t>(shared_bytes(bkv));
    const uint64_t bh = k.grid.batch;
    k.streams.push_back(rows_stream("K", space, bh, kv_seq, d * es, Axis::M, bkv));
    k.streams.push_back(rows_stream("V", space, bh, kv_seq, d * es, Axis::M, bkv));
    k.streams.push_back(rows_stream("Q", space, bh, p.seq, d * es, Axis::K, bq));
    k.streams.push_back(rows_stream("dO", space, bh, p.seq, d * es, Axis::K, bq));
    k.streams.push_back(rows_stream("dQ", space, bh, p.seq, d * 4, Axis::K, bq));
    k.streams.push_back(rows_stream("dK", space, bh, kv_seq, d * es, Axis::M, bkv));
    k.streams.push_back(rows_stream("dV", space, bh, kv_seq, d * es, Axis::M, bkv));
    constexpr uint8_t kK = 0, kV = 1, kQ = 2, kDo = 3, kDq = 4, kDk = 5, kDv = 6;
    if (p.causal) {
        for (uint8_t stream : {kQ, kDo, kDq})
            k.streams[stream].diagonal_step = bkv / bq;
    }

    // Two MMA shapes, both n = 64: an operand from shared memory (S, dP, dQ) or from registers
    // (dV and dK take P and dS from the accumulators); mma.sync does both as m16n8k16.
    const bool wgmma = g.tensor.family == tensor_core::MmaFamily::Wgmma;
    k.mma[0] = mma_cost(g, 64, dtype, OperandA::SharedMemory);
    k.mma[1] = mma_cost(g, 64, dtype, OperandA::Registers);
    // Each of the five products is 2·bq·bkv·d FLOPs per step, spread over the warps.
    const double product = 2.0 * bq * bkv * d;
    const auto mmas = [&](uint8_t kind) {
        return std::max<uint32_t>(1, uint32_t(product / (k.mma[kind].flops * warps)));
    };

    ProgramBuilder b;
    const uint8_t s = b.reg(), dp = b.reg(), dv = b.reg(), dk = b.reg(), frag = b.reg();
    const uint8_t kv = b.reg();
    const uint8_t stage = b.regs(stages);
    BlockPipeline pipe(b, g, warps, stages);
    pipe.copy(kK, kv, 0, false);
    pipe.copy(kV, kv, 0, false);
    pipe.copy(kQ, stage, 0, true);
    pipe.copy(kDo, stage, 0, true);
    pipe.wait(kv, false, false);
    // Causal: the CTA of KV block m walks the query blocks from its diagonal (m·bkv/bq) to the
    // end; block 0, the longest, is launched first, as FA2's grid does.
    pipe.loop(static_cast<uint32_t>(k.grid.k_tiles), p.causal, bkv / bq, true);
    pipe.wait(stage, true, true);
    pipe.copy(kQ, stage, 1, true);
    pipe.copy(kDo, stage, 1, true);
    const uint32_t values = bq * bkv / (warps * 32);  // S elements per thread
    const uint32_t fragments = std::max<uint32_t>(1, uint32_t(bkv * d * es / kLdmatrixBytes));
    if (!wgmma) b.op(Opcode::Lds, fragments, fragments, frag).wavefronts(kWideWavefronts);
    b.op(Opcode::Mma, mmas(0), mmas(0), s, wgmma ? kv : frag);   // S = Q·Kᵀ
    b.op(Opcode::Ffma, values, values, s, s);                    // S·scale - lse
    b.op(Opcode::Sfu, values, values, s, s);                     // P = exp(..)
    b.op(Opcode::Falu, values / 2, values / 2, s, s);            // P to 16-bit pairs
    b.op(Opcode::Mma, mmas(0), mmas(0), dp, wgmma ? kv : frag);  // dP = dO·Vᵀ
    b.op(Opcode::Falu, 2 * values, values, dp, dp, s);           // dS = P (dP - D)
    b.op(Opcode::Falu, values / 2, values / 2, dp, dp);          // dS to 16-bit pairs
    b.op(Opcode::Mma, mmas(1), mmas(1), dv, s, dv).mma_kind(1);  // dV += Pᵀ·dO
    b.op(Opcode::Sts, std::max<uint32_t>(1, uint32_t(values * es / 16)), 1, kNoReg, dp)
        .wavefronts(kWideWavefronts);
    b.bar();                                                      // dS in shared memory
    b.op(Opcode::Mma, mmas(1), mmas(1), dk, dp, dk).mma_kind(1);  // dK += dSᵀ·Q
    if (!wgmma) b.op(Opcode::Lds, fragments, fragments, frag).wavefronts(kWideWavefronts);
    b.op(Opcode::Mma, mmas(0), mmas(0), frag, dp);  // dQ = dS·K
    const uint32_t dq_values = bq * d / (warps * 32);
    b.op(Opcode::Sts, std::max<uint32_t>(1, dq_values * 4 / 16), 1, kNoReg, frag)
        .wavefronts(kWideWavefronts);
    b.bar();
    b.tma_store(kDq, 1).leader_only();  // reduce-add into dQ
    b.marker(Opcode::LoopEnd);
    // Epilogue: scale dK, convert dK and dV, stage them in shared memory, store both.
    const uint32_t outputs = bkv * d / (warps * 32);
    const uint32_t stores = std::max<uint32_t>(1, uint32_t(outputs * es / 16));
    b.op(Opcode::Falu, outputs, outputs, dk, dk);
    b.op(Opcode::Falu, outputs, outputs, dv, dv);
    b.op(Opcode::Sts, stores, 1, kNoReg, dk).wavefronts(kWideWavefronts);
    b.op(Opcode::Sts, stores, 1, kNoReg, dv).wavefronts(kWideWavefronts);
    b.bar();
    b.tma_store(kDk, 1).leader_only();
    b.tma_store(kDv, 1).leader_only();
    k.program = b.finish();
    return k;
}

}  // namespace sim::gpu
