// SPDX-License-Identifier: MIT
// The host's side of launching a trace: one CPU thread per device enqueues its operators in
// program order, each call taking the time its model gives (OpModel::host_launch). An operator
// can start on the device only once the call that enqueued it has returned, so a chain of
// kernels shorter than a launch runs at the host's launch rate, not the device's. A CUDA graph
// is enqueued by one call, after which every node is on the device.
#pragma once

#include <vector>

#include "sim/core/types.h"
#include "sim/registry/op_model.h"
#include "sim/trace/op.h"

namespace sim {

/// For each operator of trace (models[i] runs trace.ops[i]), the simulated time at which the
/// host has enqueued it: the earliest it may start.
std::vector<TimePs> host_issue_times(const Trace& trace, const std::vector<OpModel*>& models);

}  // namespace sim
