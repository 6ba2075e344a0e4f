// SPDX-License-Identifier: MIT
// A key naming what an operator asks of a GPU model: its kind, dtype, shape and kernel hints,
// but not its name, stream or dependencies. Two operators with the same key lower to the same
// kernels and, from a cold L2, simulate to the same result.
#pragma once

#include <string>

#include "sim/trace/op.h"

namespace sim::gpu {

std::string op_key(const Op& op);

}  // namespace sim::gpu
