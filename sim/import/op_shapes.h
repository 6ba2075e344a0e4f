// SPDX-License-Identifier: MIT
// Turns an ATen op's recorded arguments (Kineto's Input Dims, Input type, Input Strides and
// Concrete Inputs, present when the profile was taken with record_shapes=True) into the keys
// of a wallsim operator: the GEMM's m, n, k and layout, the attention's batch, heads and
// sequence, the element-wise op's element count, and so on. The argument positions follow
// the ATen schemas (native_functions.yaml [pytorch-native-functions]).
#pragma once

#include <string>
#include <variant>

#include "sim/import/imported_trace.h"
#include "sim/import/kernel_class.h"
#include "sim/import/kineto_profile.h"

namespace sim::import {

/// The operator keys (kind, sizes, dtype) for a kernel doing `work` launched by op, or the
/// reason they cannot be derived (no shapes recorded, an unsupported dtype, shapes that do
/// not fit the op's schema). kernel_name refines the dtype (TF32 GEMMs).
std::variant<TraceOp, std::string> describe_from_op(const CpuOp& op,
                                                    Work work,
                                                    const std::string& kernel_name);

/// The keys of a collective from its metadata (Collective name, dtype, In/Out msg nelems,
/// Group size: on the NCCL kernel in recent traces, else on its record_param_comms op);
/// world_size stands in for a missing group size (0: unknown).
std::variant<TraceOp, std::string> describe_collective(const nlohmann::json& metadata,
                                                       const std::string& kernel_name,
                                                       uint64_t world_size);

/// wallsim's dtype for a PyTorch type name ("c10::BFloat16", "float", "BFloat16", "Half");
/// "" for types wallsim does not model (integers wider than a byte, complex).
std::string dtype_of(const std::string& torch_type);

}  // namespace sim::import
