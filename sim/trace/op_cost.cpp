// SPDX-License-Identifier: MIT
#include "sim/trace/op_cost.h"

namespace sim {

namespace {

double d(uint64_t v) {
    return static_cast<double>(v);
}

// Kernels that run on matrix units when their dtype has one; fp32 stays on CUDA cores, as
// PyTorch does without TF32.
ComputeUnit matrix_unit(DType t) {
    return t == DType::FP32 ? ComputeUnit::Vector : ComputeUnit::Tensor;
}

struct CostVisitor {
    const Op& op;
    double s;  // bytes per element of op.dtype

    OpCost operator()(const GemmParams& p) const {
        OpCost c;
        c.flops = 2.0 * d(p.batch) * d(p.m) * d(p.n) * d(p.k);
        c.dram_bytes = d(p.batch) * ((d(p.m) * d(p.k) + d(p.k) * d(p.n)) * s +
                                     d(p.m) * d(p.n) * d(dtype_bytes(p.out_dtype)));
        c.unit = matrix_unit(op.dtype);
        return c;
    }
    OpCost operator()(const Conv2dParams& p) const {
        OpCost c;
        const double pq = d(p.out_height()) * d(p.out_width());
        const double cin_per_group = d(p.in_channels) / d(p.groups);
        c.flops = 2.0 * d(p.batch) * d(p.out_channels) * pq * cin_per_group * d(p.kernel_h) *
                  d(p.kernel_w);
        c.dram_bytes = (d(p.batch) * d(p.in_channels) * d(p.height) * d(p.width) +
                        d(p.out_channels) * cin_per_group * d(p.kernel_h) * d(p.kernel_w) +
                        d(p.batch) * d(p.out_channels) * pq) *
                       s;
        c.unit = matrix_unit(op.dtype);
        return c;
    }
    OpCost operator()(const ElementwiseParams& p) const {
        OpCost c;
        c.flops = d(p.elements) * d(p.flops_per_element);
        c.dram_bytes = d(p.elements) * d(p.inputs + p.outputs) * s;
        return c;
    }
    OpCost operator()(const ReductionParams& p) const {
        OpCost c;
        c.flops = d(p.elements);
        c.dram_bytes = (d(p.elements) + d(p.outputs)) * s;
        return c;
    }
    OpCost operator()(const RowParams& p) const {
        OpCost c;
        const double n = d(p.rows) * d(p.cols);
        if (op.kind == OpKind::Softmax) {
            c.flops = 5.0 * n;
            c.dram_bytes = 2.0 * n * s;
        } else {
            c.flops = 8.0 * n;
            c.dram_bytes = (2.0 * n + 2.0 * d(p.cols)) * s;
        }
        return c;
    }
    OpCost operator()(const AttentionParams& p) const {
        OpCost c;
        const double bh = d(p.batch) * d(p.heads);
        const double scores = bh * d(p.seq) * d(p.kv_seq);
        c.unit = matrix_unit(op.dtype);
        if (p.backward) {
            // FlashAttention-2: S recomputed, then dP, dV, dK, dQ: five s x kv x d products
            // (the unfused backward reads the stored P instead: four).
            c.flops = (p.fused ? 10.0 : 8.0) * scores * d(p.head_dim) + 5.0 * scores;
            if (p.causal) c.flops /= 2.0;
            // Q, O, dO, dQ and K, V, dK, dV, plus the FP32 logsumexp per query row; unfused:
            // no O, but P read twice, dP written and read, dS written and read twice.
            const double q = bh * d(p.seq) * d(p.head_dim) * s;
            const double kv = bh * d(p.kv_seq) * d(p.head_dim) * s;
            c.dram_bytes = p.fused ? 4.0 * q + 4.0 * kv + 4.0 * bh * d(p.seq)
                                   : 3.0 * q + 4.0 * kv + 7.0 * scores * s;
            return c;
        }
        c.flops = 4.0 * scores * d(p.head_dim) + 5.0 * scores;
        if (p.causal) c.flops /= 2.0;
        c.dram_bytes = bh * (2.0 * d(p.seq) + 2.0 * d(p.kv_seq)) * d(p.head_dim) * s;
        // Unfused: S = QK^T written, read and written by softmax, read by PV.
        if (!p.fused) c.dram_bytes += 4.0 * scores * s;
        return c;
    }
    OpCost operator()(const EmbeddingParams& p) const {
        OpCost c;
        c.dram_bytes = 2.0 * d(p.tokens) * d(p.dim) * s + 4.0 * d(p.tokens);
        return c;
    }
    OpCost operator()(const MemcpyParams& p) const {
        OpCost c;
        if (p.direction == "d2d") {
            c.dram_bytes = 2.0 * d(p.bytes);
        } else if (p.direction == "p2p") {
            // Read here, sent over the links to the other device's memory.
            c.dram_bytes = d(p.bytes);
            c.wire_bytes = d(p.bytes);
            c.unit = ComputeUnit::Network;
        } else {
            // The device side reads or writes once; the host link carries the bytes.
            c.dram_bytes = d(p.bytes);
            c.host_bytes = d(p.bytes);
            c.unit = ComputeUnit::Host;
        }
        return c;
    }
    OpCost operator()(const CollectiveParams& p) const {
        OpCost c;
        const double g = d(p.group);
        switch (op.kind) {
            case OpKind::AllReduce: c.wire_bytes = 2.0 * (g - 1.0) / g * d(p.bytes); break;
            case OpKind::SendRecv: c.wire_bytes = d(p.bytes); break;
            default: c.wire_bytes = (g - 1.0) / g * d(p.bytes); break;
        }
        c.unit = ComputeUnit::Network;
        return c;
    }
    OpCost operator()(const DramTrafficParams& p) const {
        OpCost c;
        c.dram_bytes = d(p.bytes);
        return c;
    }
    OpCost operator()(const PointerChaseParams& p) const {
        OpCost c;
        c.dram_bytes = 8.0 * d(p.steps);  // the pointers loaded (a bound: caches may hold them)
        return c;
    }
    OpCost operator()(const BulkCopyParams& p) const {
        OpCost c;
        c.dram_bytes = d(p.bytes());  // every block read once, from DRAM
        return c;
    }
    OpCost operator()(const CacheReadParams& p) const {
        OpCost c;
        c.dram_bytes = d(p.bytes());  // every read, as if from DRAM: a bound the caches beat
        return c;
    }
    OpCost operator()(const CustomParams& p) const {
        OpCost c;
        c.flops = d(p.flops);
        c.dram_bytes = d(p.bytes);
        c.unit = p.unit;
        c.replay_ps = p.duration_ps;
        return c;
    }
};

}  // namespace

OpCost cost_of(const Op& op) {
    OpCost c = std::visit(CostVisitor{op, d(dtype_bytes(op.dtype))}, op.params);
    c.dtype = op.dtype;
    return c;
}

}  // namespace sim
