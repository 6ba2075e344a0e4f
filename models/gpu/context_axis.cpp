// SPDX-License-Identifier: MIT
#include "models/gpu/context_axis.h"

#include <vector>

#include "models/gpu/op_key.h"

namespace sim::gpu {

namespace {

uint64_t grid_step(uint64_t n) {
    int log2 = 0;
    while ((n >> (log2 + 1)) != 0)
        ++log2;
    return log2 > 4 ? uint64_t{1} << (log2 - 4) : 1;
}

// The candidate dimensions of op, as pointers into a copy of its params.
std::vector<uint64_t*> candidates(OpParams& params) {
    if (auto* g = std::get_if<GemmParams>(&params)) return {&g->n, &g->k};
    if (auto* r = std::get_if<RowParams>(&params)) return {&r->cols};
    if (auto* a = std::get_if<AttentionParams>(&params)) return {&a->kv_seq};
    return {};
}

}  // namespace

bool on_context_grid(uint64_t n) {
    return n % grid_step(n) == 0;
}

std::optional<ContextAxis> context_axis(const Op& op) {
    if (!op.token || *op.token == 0) return std::nullopt;
    Op probe = op;
    uint64_t* axis = nullptr;
    for (uint64_t* d : candidates(probe.params)) {
        if (on_context_grid(*d)) continue;
        if (axis) return std::nullopt;  // two dimensions off the grid: simulate it as it is
        axis = d;
    }
    if (!axis) return std::nullopt;
    ContextAxis a;
    a.value = *axis;
    const uint64_t step = grid_step(a.value);
    a.lower = a.value / step * step;
    a.upper = a.lower + step;
    *axis = 0;
    a.family = op_key(probe);
    return a;
}

Op with_context(const Op& op, uint64_t length) {
    Op out = op;
    for (uint64_t* d : candidates(out.params)) {
        if (!on_context_grid(*d)) *d = length;
    }
    return out;
}

}  // namespace sim::gpu
