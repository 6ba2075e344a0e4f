// SPDX-License-Identifier: MIT
#include "models/cim/core/op_shape.h"

#include <stdexcept>

namespace sim::cim {

GemmShape gemm_shape_of(const Op& op) {
    if (const auto* g = std::get_if<GemmParams>(&op.params)) {
        if (g->batch != 1) {
            throw std::invalid_argument(
                "a batched GEMM multiplies activations by activations; its weights would have "
                "to be rewritten for every batch");
        }
        return {g->m, g->k, g->n};
    }
    if (const auto* c = std::get_if<Conv2dParams>(&op.params)) {
        if (c->groups != 1)
            throw std::invalid_argument("grouped convolutions are not mapped (groups = 1 only)");
        return {c->batch * c->out_height() * c->out_width(),
                c->kernel_h * c->kernel_w * c->in_channels, c->out_channels};
    }
    throw std::invalid_argument("only gemm and conv2d operators run on the crossbars");
}

}  // namespace sim::cim
