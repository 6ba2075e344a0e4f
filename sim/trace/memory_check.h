// SPDX-License-Identifier: MIT
// The device-memory check of `wallsim run`: a trace that declares the memory it needs on each
// device (its header's `memory:`, traces/README.md) must fit the device's memory capacity, as it
// must on real hardware, where the allocation fails before the first kernel runs. Only the
// declaration is checked; the simulated kernels do not allocate.
#pragma once

#include <cstdint>
#include <string>

#include "sim/trace/op.h"

namespace sim {

class StatGroup;

/// The device's memory capacity from its published figures (hw.hbm_capacity), bytes; 0 when
/// the device publishes none.
uint64_t device_memory_capacity(const StatGroup& stats_root);

/// What would make `declared` fit `capacity_bytes`, as a phrase: sharding the model states over
/// more GPUs (ZeRO), or, when activations and workspace alone overflow it, recomputing or
/// sharding the activations. Used in the error message.
std::string what_would_fit(const DeclaredMemory& declared, uint64_t capacity_bytes);

/// Throws ConfigError at the trace's memory: key when its declared total exceeds
/// capacity_bytes, naming the parts, the overflow and what_would_fit. capacity_key names the
/// hardware key in the message (hbm.capacity). Does nothing without a declaration.
void check_declared_memory(const Trace& trace,
                           uint64_t capacity_bytes,
                           const std::string& capacity_key);

}  // namespace sim
