// SPDX-License-Identifier: MIT
// What a GPU kernel computes, judged from its name (the names cuBLAS, CUTLASS, FlashAttention,
// PyTorch's ATen kernels, Triton and NCCL give their kernels) and from the name of the ATen op
// that launched it. The two must agree before an op's recorded shapes describe a kernel.
#pragma once

#include <optional>
#include <string>

namespace sim::import {

enum class Work {
    Gemm,
    Conv,
    AttentionForward,
    AttentionBackward,
    Elementwise,
    Copy,
    Concat,
    Reduction,
    Softmax,
    LayerNorm,
    RmsNorm,
    Embedding,
    Collective,
    Unknown,
};

std::string to_string(Work w);

/// The work a kernel does, from its (demangled) name; Unknown when no rule matches.
Work classify_kernel(const std::string& kernel_name);

/// The work an ATen op (or record_param_comms) launches kernels for; nullopt for ops whose
/// kernels are judged by their own names only (element-wise ops are too many to list: an op
/// not named here takes the class of its element-wise kernels).
std::optional<Work> classify_op(const std::string& op_name);

/// wallsim's collective kind for an NCCL kernel name (ncclDevKernel_AllReduce_Sum_bf16_RING_LL
/// -> allreduce) or a PyTorch collective name (all_gather_into_tensor -> allgather); "" when it
/// has none (broadcast, reduce, barrier, ...).
std::string collective_kind(const std::string& name);

/// A short, readable form of a kernel name: the function's own name without return type,
/// namespaces, template arguments and parameters, at most 64 characters.
std::string short_kernel_name(const std::string& kernel_name);

}  // namespace sim::import
