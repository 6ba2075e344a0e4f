// SPDX-License-Identifier: MIT
#include "models/gpu/kernels/kernels.h"

namespace sim::gpu {

KernelLaunch lower(const Op& op) {
    AddressSpace space;
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
            return softmax_kernel(std::get<RowParams>(op.params), op.dtype, op.kernel, space);
        case OpKind::Layernorm:
            return layernorm_kernel(std::get<RowParams>(op.params), op.dtype, op.kernel, space);
        case OpKind::Embedding:
            return embedding_kernel(std::get<EmbeddingParams>(op.params), op.dtype, op.kernel,
                                    space);
        default:
            throw NotLowerable(
                "the kernel library has no " + to_string(op.kind) +
                " kernel (GEMM, convolution and attention need Tensor Core kernels)");
    }
}

}  // namespace sim::gpu
