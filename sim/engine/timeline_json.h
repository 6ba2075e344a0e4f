// SPDX-License-Identifier: MIT
// timeline.json: a run in the Chrome trace event format [chrome-trace], the format
// torch.profiler writes, so that the simulated run opens in Perfetto (ui.perfetto.dev) or
// chrome://tracing next to a real profile. One process per device, one thread (track) per
// stream, one complete ("X") slice per operator with its work and how it was timed in args.
#pragma once

#include <string>
#include <vector>

#include "sim/registry/op_model.h"
#include "sim/trace/op.h"

namespace sim {

/// The timeline of trace's results (same order and size): a process track per device the ops
/// ran on (op.device), named `device` (the system) and the device's name.
std::string format_timeline_json(const Trace& trace,
                                 const std::vector<OpResult>& results,
                                 const std::string& device);

}  // namespace sim
