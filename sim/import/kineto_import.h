// SPDX-License-Identifier: MIT
// PyTorch profiler (Kineto) trace -> wallsim operators. Every GPU activity of one device
// becomes an operator in start order, on its stream: a kernel is linked to the ATen op that
// launched it (External id, or its correlation through the runtime call, or the ac2g flow),
// classified by its own and that op's name, and sized from the op's recorded shapes; NCCL
// kernels take message size and group from their collective metadata; memcpy and memset take
// their bytes. A Stream Wait Event record makes the first kernel issued after it on the
// waiting stream depend on the last kernel issued before the matching cudaEventRecord on the
// other stream. A kernel that cannot be described becomes `custom` replaying its measured
// duration, and the summary says why. Every operator carries its measured time.
#pragma once

#include <cstdint>
#include <optional>

#include "sim/import/imported_trace.h"
#include "sim/import/kineto_profile.h"

namespace sim::import {

struct KinetoImportOptions {
    std::optional<int64_t> device;  ///< the GPU to import; default: the lowest id in the trace
};

/// Throws ConfigError when the requested device has no activities.
ImportedTrace import_kineto(const KinetoProfile& profile, const KinetoImportOptions& options);

/// The configs/hw preset matching a CUDA device name ("NVIDIA H100 80GB HBM3" -> h100), ""
/// when none does.
std::string preset_for_gpu(const std::string& device_name);

}  // namespace sim::import
