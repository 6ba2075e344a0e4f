// SPDX-License-Identifier: MIT
// Cycle-level GPU parameters from the shipped presets, and small kernels, for the GPU tests.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "models/gpu/core/gpu_core.h"
#include "models/gpu/gpu_params.h"
#include "models/gpu/kernels/gemm.h"
#include "models/gpu/kernels/kernels.h"
#include "sim/config/loader.h"
#include "tests/testing/temp_dir.h"

namespace sim::testing {

/// configs/hw/<name>.yaml with overrides, read as the GPU model reads it.
inline gpu::GpuParams gpu_preset(const std::string& name,
                                 const std::vector<std::string>& overrides = {}) {
    return gpu::GpuParams::from_config(
        ConfigNode::root_of(load_config(source_path("configs/hw/" + name + ".yaml"), overrides)));
}

/// The machine the tiled kernels are shaped for, from the GPU of p.
inline gpu::GpuTarget target_of(const gpu::GpuParams& p) {
    return {p.core, p.tensor};
}

/// A BF16 GEMM problem of m x n x k.
inline gpu::GemmProblem gemm_of(uint64_t m, uint64_t n, uint64_t k) {
    gpu::GemmProblem g;
    g.m = m;
    g.n = n;
    g.k = k;
    return g;
}

/// An H100 cut down to a few SMs and one HBM stack with a proportional L2: quick, and every
/// mechanism still applies.
inline gpu::GpuParams small_h100(uint32_t sms = 8, std::vector<std::string> extra = {}) {
    std::vector<std::string> o{"sm.count=" + std::to_string(sms), "hbm.stacks=1",
                               "hbm.capacity=16GB", "l2.size=4MB", "l2.slices=8"};
    o.insert(o.end(), extra.begin(), extra.end());
    return gpu_preset("h100", o);
}

/// The one kernel op lowers to for the GPU of p (H100 by default).
inline gpu::KernelLaunch lower_one(const Op& op, const gpu::GpuParams& p = gpu_preset("h100")) {
    std::vector<gpu::KernelLaunch> k = gpu::lower(op, {p.core, p.tensor});
    if (k.size() != 1) throw std::logic_error("the op lowers to several kernels");
    return k.front();
}

/// An element-wise op as a trace would give it.
inline Op elementwise_op(uint64_t elements,
                         uint64_t flops_per_element = 1,
                         KernelHints hints = {},
                         uint64_t inputs = 2,
                         uint64_t outputs = 1) {
    Op op;
    op.kind = OpKind::Elementwise;
    op.dtype = DType::FP32;
    op.params = ElementwiseParams{elements, inputs, outputs, flops_per_element};
    op.kernel = hints;
    return op;
}

/// Runs kernel k on the GPU of p at the Tensor Core clock (as the operator model runs Tensor
/// Core kernels), sampled or every CTA and trip.
inline gpu::KernelResult run_kernel(const gpu::GpuParams& p,
                                    const gpu::KernelLaunch& k,
                                    bool sampled = false) {
    gpu::GpuCoreConfig c = p.core;
    c.clock_hz = p.tensor_clock_hz;
    gpu::GpuCore core(c, p.hbm.core, k);
    gpu::SamplingOptions s;
    s.enabled = sampled;
    return core.run(s);
}

}  // namespace sim::testing
