// SPDX-License-Identifier: MIT
// The one dimension along which a decode step's kernels grow with the context: an attention
// GEMM's n (scores, Q·Kᵀ) or k (P·V), a softmax's or layernorm's columns, a fused attention's
// kv_seq. Every step of a decode trace has a context one token longer, so its attention kernels
// have a shape no step before had; simulating each anew costs a kernel simulation per step.
// The sampled GPU model instead simulates them at a grid of lengths, 16 per octave (at most
// 6.25% apart), and interpolates in between (gpu_op_model.cpp). Pure C++.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "sim/trace/op.h"

namespace sim::gpu {

struct ContextAxis {
    std::string family;  ///< the op's key with the axis left out: ops that differ only there
    uint64_t value = 0;  ///< the op's length along it
    uint64_t lower = 0;  ///< the grid points around value (lower < value < upper)
    uint64_t upper = 0;
};

/// True when n is a point of the grid: a multiple of 2^(floor(log2 n) - 4) (every integer up
/// to 32).
bool on_context_grid(uint64_t n);

/// op's context axis when op is a decode step (token >= 1) of a kind that has one and exactly
/// one of its candidate dimensions lies off the grid; nullopt otherwise (then it is simulated
/// as it is).
std::optional<ContextAxis> context_axis(const Op& op);

/// op with its context axis set to length (same name, token and hints).
Op with_context(const Op& op, uint64_t length);

}  // namespace sim::gpu
