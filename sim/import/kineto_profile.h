// SPDX-License-Identifier: MIT
// The parts of a PyTorch profiler (Kineto) trace an import needs [kineto]: GPU activities
// (kernels, memcpy, memset) with their stream, times and arguments; the CPU ops that launched
// them (External id), with the shapes and dtypes PyTorch recorded; the runtime calls that link
// the two (correlation, ac2g flows); the Stream Wait Event records that order streams; and the
// device properties. Everything else in the trace (Python frames, annotations, memory events)
// is counted and dropped.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace sim::import {

/// A CPU op (cat cpu_op): an ATen operator or record_param_comms.
struct CpuOp {
    std::string name;
    nlohmann::json args;  ///< Input Dims, Input type, Input Strides, Concrete Inputs, comms keys
};

/// One GPU activity (cat kernel, gpu_memcpy or gpu_memset).
struct GpuActivity {
    enum class Type { Kernel, Memcpy, Memset };
    Type type = Type::Kernel;
    std::string name;
    int64_t device = 0;
    int64_t stream = 0;
    double ts_us = 0;                    ///< start, microseconds since the trace's epoch
    double dur_us = 0;                   ///< measured duration, microseconds
    std::optional<int64_t> correlation;  ///< CUPTI correlation id of the launching call
    std::optional<int64_t> external_id;  ///< the launching CPU op, when the kernel names it
    nlohmann::json args;                 ///< bytes, collective metadata, grid, ...
    int line = 0;                        ///< where the event starts in the file
};

/// A CUPTI synchronisation record "Stream Wait Event": `stream` waits for the event recorded
/// on `wait_on_stream` by the cudaEventRecord call with correlation `record_correlation`.
struct StreamWait {
    int64_t device = 0;
    int64_t stream = 0;
    int64_t correlation = 0;  ///< of the cudaStreamWaitEvent call
    int64_t wait_on_stream = 0;
    int64_t record_correlation = 0;
};

struct KinetoProfile {
    std::string file;
    std::vector<GpuActivity> activities;                    ///< in file order
    std::unordered_map<int64_t, CpuOp> cpu_ops;             ///< by External id
    std::unordered_map<int64_t, int64_t> runtime_external;  ///< runtime correlation -> External id
    std::vector<StreamWait> waits;
    nlohmann::json device_properties = nlohmann::json::array();
    nlohmann::json distributed_info;  ///< null when absent
    bool record_shapes_seen = false;  ///< some CPU op carried Input Dims
    uint64_t other_events = 0;        ///< events of other categories
    uint64_t runtime_calls = 0;
};

/// Reads a Kineto trace (.json or .json.gz). Throws ConfigError (file:line, key) on a file
/// that is not a Chrome trace or an event whose fields have the wrong type.
KinetoProfile read_kineto_profile(const std::string& path);

/// Same, from text already in memory; label names it in errors.
KinetoProfile parse_kineto_profile(const std::string& text, const std::string& label);

}  // namespace sim::import
