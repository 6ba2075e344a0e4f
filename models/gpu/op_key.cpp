// SPDX-License-Identifier: MIT
#include "models/gpu/op_key.h"

#include <sstream>

namespace sim::gpu {

namespace {

struct ParamsKey {
    std::ostringstream& o;
    void operator()(const GemmParams& p) const {
        o << p.m << ',' << p.n << ',' << p.k << ',' << p.batch << ',' << to_string(p.out_dtype)
          << ',' << p.layout;
    }
    void operator()(const Conv2dParams& p) const {
        o << p.batch << ',' << p.in_channels << ',' << p.out_channels << ',' << p.height << ','
          << p.width << ',' << p.kernel_h << ',' << p.kernel_w << ',' << p.stride << ','
          << p.padding << ',' << p.groups;
    }
    void operator()(const ElementwiseParams& p) const {
        o << p.elements << ',' << p.inputs << ',' << p.outputs << ',' << p.flops_per_element;
    }
    void operator()(const ReductionParams& p) const { o << p.elements << ',' << p.outputs; }
    void operator()(const RowParams& p) const { o << p.rows << ',' << p.cols; }
    void operator()(const AttentionParams& p) const {
        o << p.batch << ',' << p.heads << ',' << p.seq << ',' << p.kv_seq << ',' << p.head_dim
          << ',' << p.fused << ',' << p.causal << ',' << p.backward;
    }
    void operator()(const EmbeddingParams& p) const {
        o << p.tokens << ',' << p.dim << ',' << p.vocab;
    }
    void operator()(const MemcpyParams& p) const { o << p.bytes << ',' << p.direction; }
    void operator()(const CollectiveParams& p) const { o << p.bytes << ',' << p.group; }
    void operator()(const CustomParams& p) const {
        o << p.flops << ',' << p.bytes << ',' << to_string(p.unit);
    }
    void operator()(const PointerChaseParams& p) const {
        o << p.footprint << ',' << p.stride << ',' << p.steps;
    }
    void operator()(const BulkCopyParams& p) const {
        o << p.ctas << ',' << p.copy_bytes << ',' << p.copies << ',' << p.in_flight << ',' << p.rows
          << ',' << p.row_pitch;
    }
    void operator()(const CacheReadParams& p) const {
        o << p.footprint << ',' << p.block_bytes << ',' << p.ctas;
    }
    void operator()(const DramTrafficParams& p) const {
        o << p.bytes << ',' << p.pattern << ',' << p.request_bytes << ',' << p.outstanding << ','
          << p.stride << ',' << p.seed;
    }
};

void hint(std::ostringstream& o, const std::optional<uint64_t>& h) {
    o << ',';
    if (h) o << *h;
}

}  // namespace

std::string op_key(const Op& op) {
    std::ostringstream o;
    o << to_string(op.kind) << '/' << to_string(op.dtype) << '/';
    std::visit(ParamsKey{o}, op.params);
    const KernelHints& h = op.kernel;
    o << '/';
    for (const auto* field : {&h.block, &h.vector, &h.registers, &h.shared_memory, &h.stride,
                              &h.divergence, &h.split_k})
        hint(o, *field);
    o << ',' << h.sparse << ',' << h.mma << ',' << h.library;
    for (const auto* pair : {&h.tile, &h.cluster}) {
        o << ',';
        for (uint64_t v : *pair)
            o << v << 'x';
    }
    return o.str();
}

}  // namespace sim::gpu
