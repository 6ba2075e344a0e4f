// SPDX-License-Identifier: MIT
#include "models/gpu/kernels/gemm.h"
#include "models/gpu/kernels/kernels.h"

namespace sim::gpu {

namespace {

GemmProblem gemm_problem(const GemmParams& g, DType dtype) {
    GemmProblem p;
    p.batch = g.batch;
    p.m = g.m;
    p.n = g.n;
    p.k = g.k;
    p.dtype = dtype;
    p.out_dtype = g.out_dtype;
    p.a_transposed = g.layout.size() == 2 && g.layout[0] == 't';
    p.b_transposed = g.layout.size() == 2 && g.layout[1] == 't';
    return p;
}

KernelLaunch single(const Op& op, const GpuTarget& target, AddressSpace& space) {
    switch (op.kind) {
        case OpKind::Elementwise:
            return elementwise_kernel(std::get<ElementwiseParams>(op.params), op.dtype, op.kernel,
                                      space);
        case OpKind::Memcpy:
            return memcpy_kernel(std::get<MemcpyParams>(op.params), op.kernel, space);
        case OpKind::Reduction:
            return reduction_kernel(std::get<ReductionParams>(op.params), op.dtype, op.kernel,
                                    space);
        case OpKind::Softmax:
            return softmax_kernel(std::get<RowParams>(op.params), op.dtype, op.kernel, target,
                                  space);
        case OpKind::Layernorm:
            return layernorm_kernel(std::get<RowParams>(op.params), op.dtype, op.kernel, target,
                                    space);
        case OpKind::Embedding:
            return embedding_kernel(std::get<EmbeddingParams>(op.params), op.dtype, op.kernel,
                                    space);
        case OpKind::Conv2d:
            return conv2d_kernel(std::get<Conv2dParams>(op.params), op.dtype, target, space);
        case OpKind::Attention: {
            const auto& p = std::get<AttentionParams>(op.params);
            return p.backward ? flash_attention_backward_kernel(p, op.dtype, target, space)
                              : flash_attention_kernel(p, op.dtype, target, space);
        }
        case OpKind::PointerChase:
            return pointer_chase_kernel(std::get<PointerChaseParams>(op.params), target, true);
        case OpKind::BulkCopy: return bulk_copy_kernel(std::get<BulkCopyParams>(op.params), target);
        case OpKind::CacheRead: {
            const auto& p = std::get<CacheReadParams>(op.params);
            return cache_read_kernel(p, p.ctas);
        }
        default: throw NotLowerable("the kernel library has no " + to_string(op.kind) + " kernel");
    }
}

/// The GPU as a kernel issuing the hinted MMA instruction sees it (kernel: {mma: ...}):
/// mma.sync on a Hopper core runs at its mma_sync_rate, with cp.async copies and no clusters,
/// as a kernel written for Ampere does there. wgmma on an Ampere core throws
/// std::invalid_argument: the hint asks for an instruction the GPU does not have.
GpuTarget issuing_target(const GpuTarget& target, const KernelHints& h) {
    if (h.mma.empty()) return target;
    GpuTarget t = target;
    t.tensor = target.tensor.issuing(tensor_core::parse_mma_family(h.mma));
    return t;
}

/// A GEMM's kernel hints as the GEMM kernel builder takes them.
GemmRequest gemm_request(const KernelHints& h) {
    GemmRequest r;
    r.library = h.library == "deepgemm" ? GemmLibrary::DeepGemm : GemmLibrary::Cublas;
    r.split_k = h.split_k;
    if (h.tile.size() == 2) {
        r.tile_m = static_cast<uint32_t>(h.tile[0]);
        r.tile_n = static_cast<uint32_t>(h.tile[1]);
    }
    if (h.cluster.size() == 2) {
        r.cluster_m = static_cast<uint32_t>(h.cluster[0]);
        r.cluster_n = static_cast<uint32_t>(h.cluster[1]);
    }
    return r;
}

}  // namespace

std::vector<KernelLaunch> lower(const Op& op, const GpuTarget& gpu) {
    const GpuTarget target = issuing_target(gpu, op.kernel);
    if (op.kind == OpKind::Attention && std::get<AttentionParams>(op.params).backward &&
        !std::get<AttentionParams>(op.params).fused)
        throw NotLowerable("the kernel library has no unfused attention backward");
    if (op.kind == OpKind::Attention && !std::get<AttentionParams>(op.params).fused)
        return naive_attention_kernels(std::get<AttentionParams>(op.params), op.dtype, op.kernel,
                                       target);
    if (op.kind == OpKind::Gemm) {
        GemmProblem p = gemm_problem(std::get<GemmParams>(op.params), op.dtype);
        p.sparse = op.kernel.sparse;
        return gemm_kernels(p, target, gemm_request(op.kernel));
    }
    AddressSpace space;
    return {single(op, target, space)};
}

}  // namespace sim::gpu
