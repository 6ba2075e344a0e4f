// SPDX-License-Identifier: MIT
#include "models/systolic/core/op_layer.h"

#include <variant>

namespace sim::systolic {

OpLayer layer_of(const Op& op) {
    OpLayer out;
    if (const auto* g = std::get_if<GemmParams>(&op.params)) {
        out.layer = Layer::gemm(op.name, g->m, g->n, g->k);
        out.repeat = g->batch;
    } else if (const auto* c = std::get_if<Conv2dParams>(&op.params)) {
        Layer& l = out.layer;
        l.name = op.name;
        l.ifmap_h = c->height + 2 * c->padding;
        l.ifmap_w = c->width + 2 * c->padding;
        l.filter_h = c->kernel_h;
        l.filter_w = c->kernel_w;
        l.channels = c->in_channels;
        l.num_filters = c->out_channels;
        l.stride = c->stride;
        l.batch = c->batch;
    }
    return out;
}

TpuTiming tpu_op_timing(const Op& op, const ArrayParams& a, const TpuParams& tpu) {
    TpuTiming t;
    if (op.kind == OpKind::Gemm || op.kind == OpKind::Conv2d) {
        const OpLayer ol = layer_of(op);
        t = tpu_matrix_layer(a, tpu, ol.layer);
        for (uint64_t* c :
             {&t.cycles, &t.active_cycles, &t.weight_stall_cycles, &t.weight_shift_cycles,
              &t.non_matrix_cycles, &t.macs, &t.weight_bytes, &t.tiles})
            *c *= ol.repeat;
        t.useful_mac_cycles *= double(ol.repeat);
    } else if (const auto* e = std::get_if<ElementwiseParams>(&op.params)) {
        t = tpu_vector_layer(tpu, e->elements);
    } else if (const auto* d = std::get_if<ReductionParams>(&op.params)) {
        t = tpu_vector_layer(tpu, d->elements);
    } else if (const auto* m = std::get_if<MemcpyParams>(&op.params)) {
        t = tpu_host_transfer(tpu, m->bytes);
    }
    return t;
}

}  // namespace sim::systolic
