// SPDX-License-Identifier: MIT
// Reads the cycle-level GPU's structure from a hardware file: the SM count and clock and the
// FP32 lanes come from the datasheet-level sections every GPU preset has (sm.count,
// clocks.boost, compute.vector.flops_per_clock.fp32); the micro-architecture from optional keys
// under sm: (sub-partitions, occupancy limits, scheduler, pipelines, l1) and l2: (slices,
// ways, bandwidth, latencies); the Tensor Cores from compute.tensor and sm.tensor_core. Absent keys
// take H100-class defaults (configs/hw/README.md).
#pragma once

#include "models/gpu/core/gpu_core.h"
#include "models/hbm/hbm_params.h"
#include "models/tensor_core/tensor_core.h"
#include "sim/config/config_node.h"
#include "sim/config/param_table.h"

namespace sim::gpu {

struct GpuParams {
    GpuCoreConfig core;
    hbm::HbmParams hbm;
    /// The Tensor Cores (rates per sub-partition at tensor_clock_hz, the clock kernels that use
    /// them run at: compute.tensor.clock, the clock the datasheet's Tensor Core peaks assume).
    tensor_core::TensorCoreConfig tensor;
    uint64_t tensor_clock_hz = 0;

    /// Throws ConfigError naming the file, line and key of any bad value.
    static GpuParams from_config(const ConfigNode& root);
};

/// The described keys of sm (the cycle-level SM), sm.l1 and l2; the structs' initialisers
/// are their defaults.
ParamTable<SmConfig> sm_param_table();
ParamTable<L1Config> l1_param_table();
ParamTable<L2Config> l2_param_table();
/// sm.pipelines.<name>: the keys of one pipeline of SmConfig (fp32 takes only latency).
ParamTable<SmConfig> pipeline_param_table(Pipeline SmConfig::*which);
/// The pipelines sm.pipelines may hold, by key.
inline const std::pair<const char*, Pipeline SmConfig::*> kPipelines[] = {
    {"fp32", &SmConfig::fp32},
    {"integer", &SmConfig::integer},
    {"sfu", &SmConfig::sfu},
    {"lsu", &SmConfig::lsu},
    {"mio", &SmConfig::shuffle}};
/// sm.tensor_core's keys (the rates come from compute.tensor, the datasheet's).
ParamTable<tensor_core::TensorCoreConfig> tensor_core_param_table();

}  // namespace sim::gpu
