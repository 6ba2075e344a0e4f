// SPDX-License-Identifier: MIT
#include "sim/trace/op.h"

#include <algorithm>
#include <array>
#include <utility>

namespace sim {

namespace {
constexpr std::array<std::pair<OpKind, const char*>, 19> kKindNames{{
    {OpKind::Gemm, "gemm"},
    {OpKind::Conv2d, "conv2d"},
    {OpKind::Elementwise, "elementwise"},
    {OpKind::Reduction, "reduction"},
    {OpKind::Softmax, "softmax"},
    {OpKind::Layernorm, "layernorm"},
    {OpKind::Attention, "attention"},
    {OpKind::Embedding, "embedding"},
    {OpKind::Memcpy, "memcpy"},
    {OpKind::AllReduce, "allreduce"},
    {OpKind::AllGather, "allgather"},
    {OpKind::ReduceScatter, "reducescatter"},
    {OpKind::AllToAll, "alltoall"},
    {OpKind::SendRecv, "sendrecv"},
    {OpKind::Custom, "custom"},
    {OpKind::DramTraffic, "dram_traffic"},
    {OpKind::PointerChase, "pointer_chase"},
    {OpKind::BulkCopy, "bulk_copy"},
    {OpKind::CacheRead, "cache_read"},
}};

struct DTypeInfo {
    DType type;
    const char* name;
    uint64_t bytes;
};
constexpr std::array<DTypeInfo, 7> kDTypes{{
    {DType::FP64, "fp64", 8},
    {DType::FP32, "fp32", 4},
    {DType::TF32, "tf32", 4},
    {DType::FP16, "fp16", 2},
    {DType::BF16, "bf16", 2},
    {DType::FP8, "fp8", 1},
    {DType::INT8, "int8", 1},
}};
}  // namespace

const std::vector<OpKind>& all_op_kinds() {
    static const std::vector<OpKind> kinds = [] {
        std::vector<OpKind> v;
        for (const auto& [k, n] : kKindNames)
            v.push_back(k);
        return v;
    }();
    return kinds;
}

std::string to_string(OpKind k) {
    for (const auto& [kind, name] : kKindNames) {
        if (kind == k) return name;
    }
    return "?";
}

std::optional<OpKind> parse_op_kind(const std::string& s) {
    for (const auto& [kind, name] : kKindNames) {
        if (s == name) return kind;
    }
    return std::nullopt;
}

std::string to_string(DType d) {
    for (const auto& info : kDTypes) {
        if (info.type == d) return info.name;
    }
    return "?";
}

std::optional<DType> parse_dtype(const std::string& s) {
    for (const auto& info : kDTypes) {
        if (s == info.name) return info.type;
    }
    return std::nullopt;
}

uint64_t dtype_bytes(DType d) {
    for (const auto& info : kDTypes) {
        if (info.type == d) return info.bytes;
    }
    return 0;
}

std::string to_string(ComputeUnit u) {
    switch (u) {
        case ComputeUnit::Vector: return "vector";
        case ComputeUnit::Tensor: return "tensor";
        case ComputeUnit::Network: return "network";
        case ComputeUnit::Host: return "host";
    }
    return "?";
}

std::string to_string(LaunchMode m) {
    return m == LaunchMode::Graph ? "graph" : "stream";
}

std::optional<LaunchMode> parse_launch_mode(const std::string& s) {
    if (s == "stream") return LaunchMode::Stream;
    if (s == "graph") return LaunchMode::Graph;
    return std::nullopt;
}

bool is_collective(OpKind k) {
    return k == OpKind::AllReduce || k == OpKind::AllGather || k == OpKind::ReduceScatter ||
           k == OpKind::AllToAll || k == OpKind::SendRecv;
}

uint32_t Trace::stream_count() const {
    uint32_t n = 0;
    for (const Op& op : ops)
        n = std::max(n, op.stream + 1);
    return n;
}

}  // namespace sim
