// SPDX-License-Identifier: MIT
#include "sim/trace/trace_parser.h"

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <unordered_map>

#include "sim/config/config_node.h"
#include "sim/config/loader.h"

namespace sim {

namespace {

constexpr uint64_t kTraceVersion = 1;
constexpr int kMaxRepeatDepth = 8;
constexpr uint64_t kMaxExpandedOps = 5'000'000;
constexpr uint32_t kMaxStreams = 1024;
constexpr int kMaxJsonDepth = 64;

// Names visible to `after:` inside a repeat body: the body's own ops (this iteration's copy)
// first, then enclosing bodies, then the whole trace.
struct NameScope {
    std::unordered_map<std::string, size_t> local;
    const NameScope* parent = nullptr;
};

// A duration in microseconds, finite, not negative and within the engine's time range
// (the simulator refuses operators longer than 1e6 s), as whole picoseconds.
uint64_t microseconds_to_ps(const ConfigNode& n, const std::string& key, double us) {
    if (!std::isfinite(us) || us < 0 || us > kMaxTraceMicroseconds)
        n.fail(key, "expected microseconds in [0, 1e12], got " + std::to_string(us));
    return static_cast<uint64_t>(std::llround(us * 1e6));
}

uint64_t require_positive(const ConfigNode& n, const std::string& key) {
    uint64_t v = 0;
    n.require(key, v);
    if (v == 0) n.fail(key, "must be at least 1");
    return v;
}

void get_positive(const ConfigNode& n, const std::string& key, uint64_t& v) {
    if (n.get(key, v) && v == 0) n.fail(key, "must be at least 1");
}

DType read_dtype(const ConfigNode& n, const std::string& key, DType fallback) {
    std::string s;
    if (!n.get_choice(key, s, {"fp64", "fp32", "tf32", "fp16", "bf16", "fp8", "int8"})) {
        return fallback;
    }
    return *parse_dtype(s);
}

// The optional `kernel:` map of an operator: how a GPU model shapes its kernel.
KernelHints read_kernel_hints(const ConfigNode& op, OpKind kind) {
    KernelHints h;
    if (!op.has("kernel")) return h;
    const ConfigNode n = op.child("kernel");
    if (!n.is_map()) op.fail("kernel", "expected a map of kernel hints (block, vector, ...)");
    const auto read = [&n](const char* key, std::optional<uint64_t>& out, uint64_t lo, uint64_t hi,
                           const char* expected) {
        uint64_t v = 0;
        if (!n.get(key, v)) return;
        if (v < lo || v > hi)
            n.fail(key, std::string("expected ") + expected + ", got " + std::to_string(v));
        out = v;
    };
    read("block", h.block, 32, 1024, "32..1024 threads");
    if (h.block && *h.block % 32 != 0) n.fail("block", "must be a multiple of 32 (whole warps)");
    read("vector", h.vector, 1, 16, "1, 2, 4, 8 or 16 elements");
    if (h.vector && (*h.vector & (*h.vector - 1)))
        n.fail("vector", "must be a power of two (1..16)");
    read("registers", h.registers, 1, 255, "1..255 registers per thread");
    read("shared_memory", h.shared_memory, 0, uint64_t{1} << 30, "bytes of shared memory per CTA");
    read("stride", h.stride, 1, uint64_t{1} << 20, "a stride of at least 1 element");
    read("divergence", h.divergence, 1, 32, "1..32 paths");
    n.get("sparse", h.sparse);
    read("split_k", h.split_k, 1, 16, "1..16 splits along K");
    if (h.split_k && kind != OpKind::Gemm) n.fail("split_k", "only gemm kernels split K");
    if (n.get_choice("library", h.library, {"cublas", "deepgemm"}) && kind != OpKind::Gemm)
        n.fail("library", "only gemm kernels come from a choice of library");
    const auto read_pair = [&](const char* key, std::vector<uint64_t>& out, uint64_t hi,
                               const char* expected) {
        if (!n.get(key, out)) return;
        if (kind != OpKind::Gemm) n.fail(key, "only gemm kernels take a tile and cluster shape");
        if (out.size() != 2) n.fail(key, std::string("expected two numbers, ") + expected);
        for (uint64_t v : out)
            if (v < 1 || v > hi)
                n.fail(key, std::string("expected ") + expected + ", got " + std::to_string(v));
    };
    read_pair("tile", h.tile, 256, "[M, N] outputs of a CTA, 1..256 each");
    read_pair("cluster", h.cluster, 2, "[M, N] CTAs of a cluster, 1 or 2 each");
    if (h.cluster.size() == 2 && h.cluster[0] * h.cluster[1] > 2)
        n.fail("cluster", "expected at most 2 CTAs in a cluster ([2, 1] or [1, 2]), got [2, 2]");
    if (n.get_choice("mma", h.mma, {"mma_sync", "wgmma"}) && kind != OpKind::Gemm &&
        kind != OpKind::Conv2d && kind != OpKind::Attention)
        n.fail("mma", "only gemm, conv2d and attention kernels issue MMAs");
    n.reject_unknown_keys();
    return h;
}

DType default_dtype(OpKind k) {
    switch (k) {
        case OpKind::Gemm:
        case OpKind::Conv2d:
        case OpKind::Attention:
        case OpKind::Embedding:
        case OpKind::AllReduce:
        case OpKind::AllGather:
        case OpKind::ReduceScatter:
        case OpKind::AllToAll:
        case OpKind::SendRecv: return DType::FP16;
        default: return DType::FP32;
    }
}

OpParams read_params(const ConfigNode& n, OpKind kind, DType dtype) {
    switch (kind) {
        case OpKind::Gemm: {
            GemmParams p;
            p.m = require_positive(n, "m");
            p.n = require_positive(n, "n");
            p.k = require_positive(n, "k");
            get_positive(n, "batch", p.batch);
            p.out_dtype = read_dtype(n, "out_dtype", dtype);
            n.get_choice("layout", p.layout, {"nn", "nt", "tn", "tt"});
            return p;
        }
        case OpKind::Conv2d: {
            Conv2dParams p;
            p.batch = require_positive(n, "batch");
            p.in_channels = require_positive(n, "in_channels");
            p.out_channels = require_positive(n, "out_channels");
            p.height = require_positive(n, "height");
            p.width = require_positive(n, "width");
            get_positive(n, "kernel_h", p.kernel_h);
            get_positive(n, "kernel_w", p.kernel_w);
            get_positive(n, "stride", p.stride);
            n.get("padding", p.padding);
            if (p.padding > (uint64_t{1} << 32)) n.fail("padding", "must be at most 4294967296");
            get_positive(n, "groups", p.groups);
            if (p.kernel_h > p.height + 2 * p.padding) {
                n.fail("kernel_h", "kernel is taller than the padded input (" +
                                       std::to_string(p.height + 2 * p.padding) + ")");
            }
            if (p.kernel_w > p.width + 2 * p.padding) {
                n.fail("kernel_w", "kernel is wider than the padded input (" +
                                       std::to_string(p.width + 2 * p.padding) + ")");
            }
            if (p.in_channels % p.groups != 0 || p.out_channels % p.groups != 0) {
                n.fail("groups", "in_channels and out_channels must be divisible by groups (" +
                                     std::to_string(p.groups) + ")");
            }
            return p;
        }
        case OpKind::Elementwise: {
            ElementwiseParams p;
            p.elements = require_positive(n, "elements");
            n.get("inputs", p.inputs);
            n.get("outputs", p.outputs);
            n.get("flops_per_element", p.flops_per_element);
            if (p.inputs + p.outputs == 0) n.fail("outputs", "an op must read or write something");
            return p;
        }
        case OpKind::Reduction: {
            ReductionParams p;
            p.elements = require_positive(n, "elements");
            get_positive(n, "outputs", p.outputs);
            if (p.outputs > p.elements) n.fail("outputs", "cannot exceed elements");
            return p;
        }
        case OpKind::Softmax:
        case OpKind::Layernorm: {
            RowParams p;
            p.rows = require_positive(n, "rows");
            p.cols = require_positive(n, "cols");
            return p;
        }
        case OpKind::Attention: {
            AttentionParams p;
            p.batch = require_positive(n, "batch");
            p.heads = require_positive(n, "heads");
            p.seq = require_positive(n, "seq");
            p.kv_seq = p.seq;
            get_positive(n, "kv_seq", p.kv_seq);
            p.head_dim = require_positive(n, "head_dim");
            std::string impl = "fused";
            n.get_choice("impl", impl, {"fused", "naive"});
            p.fused = impl == "fused";
            n.get("causal", p.causal);
            n.get("backward", p.backward);
            return p;
        }
        case OpKind::Embedding: {
            EmbeddingParams p;
            p.tokens = require_positive(n, "tokens");
            p.dim = require_positive(n, "dim");
            p.vocab = require_positive(n, "vocab");
            return p;
        }
        case OpKind::Memcpy: {
            MemcpyParams p;
            p.bytes = require_positive(n, "bytes");
            if (p.bytes > MemcpyParams::kMaxBytes) n.fail("bytes", "must be at most 64PiB");
            n.get_choice("direction", p.direction, {"d2d", "h2d", "d2h", "p2p"});
            if (p.direction == "p2p") {
                n.require("to", p.to);
                if (p.to.empty()) n.fail("to", "must name the device the copy goes to");
            } else if (n.has("to")) {
                n.fail("to", "only a copy with direction: p2p goes to another device");
            }
            return p;
        }
        case OpKind::AllReduce:
        case OpKind::AllGather:
        case OpKind::ReduceScatter:
        case OpKind::AllToAll:
        case OpKind::SendRecv: {
            CollectiveParams p;
            p.bytes = require_positive(n, "bytes");
            if (n.has("group") && n.yaml()["group"].IsSequence()) {
                std::vector<std::string> members;
                n.get("group", members);  // the devices; the parser makes one op per device
                p.group = members.size();
            } else {
                n.require("group", p.group);
            }
            if (p.group < 2) n.fail("group", "a collective needs at least 2 devices");
            return p;
        }
        case OpKind::DramTraffic: {
            DramTrafficParams p;
            p.bytes = require_positive(n, "bytes");
            n.get_choice("pattern", p.pattern,
                         {"stream", "write_stream", "read2_write1", "copy", "random", "strided"});
            get_positive(n, "request_bytes", p.request_bytes);
            get_positive(n, "outstanding", p.outstanding);
            get_positive(n, "stride", p.stride);
            n.get("seed", p.seed);
            if (p.request_bytes > (uint64_t{1} << 20))
                n.fail("request_bytes", "must be at most 1MiB");
            if (p.outstanding > (uint64_t{1} << 24))
                n.fail("outstanding", "must be at most 16777216");
            if (p.stride > (uint64_t{1} << 40)) n.fail("stride", "must be at most 1TiB");
            if (p.bytes > (uint64_t{1} << 50)) n.fail("bytes", "must be at most 1PiB");
            if (p.bytes < p.request_bytes)
                n.fail("bytes", "must be at least one request (request_bytes)");
            if (p.bytes % p.request_bytes != 0) {
                n.fail("bytes", "must be a whole number of requests (request_bytes)");
            }
            return p;
        }
        case OpKind::PointerChase: {
            PointerChaseParams p;
            p.footprint = require_positive(n, "footprint");
            get_positive(n, "stride", p.stride);
            get_positive(n, "steps", p.steps);
            if (p.stride % 8 != 0) n.fail("stride", "must be a multiple of 8 bytes (a pointer)");
            if (p.footprint > (uint64_t{1} << 40)) n.fail("footprint", "must be at most 1TiB");
            if (p.footprint < p.stride || p.footprint % p.stride != 0)
                n.fail("footprint", "must be a whole number of strides (stride)");
            if (p.steps > (uint64_t{1} << 30)) n.fail("steps", "must be at most 2^30");
            return p;
        }
        case OpKind::BulkCopy: {
            BulkCopyParams p;
            p.ctas = require_positive(n, "ctas");
            p.copies = require_positive(n, "copies");
            get_positive(n, "copy_bytes", p.copy_bytes);
            get_positive(n, "in_flight", p.in_flight);
            get_positive(n, "rows", p.rows);
            get_positive(n, "row_pitch", p.row_pitch);
            if (p.ctas > (uint64_t{1} << 31)) n.fail("ctas", "must be at most 2^31");
            if (p.copy_bytes > (uint64_t{1} << 20)) n.fail("copy_bytes", "must be at most 1MiB");
            if (p.rows > 256) n.fail("rows", "must be at most 256 (a TMA box's rows)");
            if (p.copy_bytes % p.rows != 0 || p.row_bytes() % 16 != 0)
                n.fail("copy_bytes", "must be rows x a multiple of 16 bytes (a bulk copy's unit)");
            if (p.in_flight > 64) n.fail("in_flight", "must be at most 64");
            if (p.copies > (uint64_t{1} << 30)) n.fail("copies", "must be at most 2^30");
            if (p.ctas * p.copy_bytes > (uint64_t{1} << 40) / p.copies)
                n.fail("copies", "ctas x copy_bytes x copies must be at most 1TiB");
            if (p.row_pitch && (p.row_pitch < p.ctas * p.row_bytes() || p.row_pitch % 16 != 0))
                n.fail("row_pitch",
                       "must be a multiple of 16 bytes and hold a round's rows (ctas x "
                       "copy_bytes / rows = " +
                           std::to_string(p.ctas * p.row_bytes()) + " B)");
            if (p.pitch() > (uint64_t{1} << 40) / (p.copies * p.rows))
                n.fail("row_pitch", "the array (row_pitch x rows x copies) must be at most 1TiB");
            return p;
        }
        case OpKind::CacheRead: {
            CacheReadParams p;
            p.footprint = require_positive(n, "footprint");
            get_positive(n, "block_bytes", p.block_bytes);
            get_positive(n, "ctas", p.ctas);
            constexpr uint64_t kLoad = 1024 * 8;  // a CTA's load: 1024 threads x 8 bytes
            if (p.block_bytes % kLoad != 0 || p.block_bytes > 16 * kLoad)
                n.fail("block_bytes", "must be 8192 x 1..16 bytes (1024 threads x 8 B a load)");
            if (p.footprint > (uint64_t{1} << 40)) n.fail("footprint", "must be at most 1TiB");
            if (p.footprint % p.block_bytes != 0)
                n.fail("footprint", "must be a whole number of blocks (block_bytes)");
            if (p.ctas > (uint64_t{1} << 24)) n.fail("ctas", "must be at most 2^24");
            if (p.ctas < 2 * p.regions())
                n.fail("ctas", "must be at least 2 x footprint / block_bytes (" +
                                   std::to_string(2 * p.regions()) +
                                   "): the first half of the grid warms the caches");
            return p;
        }
        case OpKind::Custom: {
            CustomParams p;
            if (!n.has("duration_us")) {
                n.require("flops", p.flops);
                n.require("bytes", p.bytes);
            } else {
                n.get("flops", p.flops);
                n.get("bytes", p.bytes);
            }
            std::string unit = "vector";
            n.get_choice("unit", unit, {"vector", "tensor"});
            p.unit = unit == "tensor" ? ComputeUnit::Tensor : ComputeUnit::Vector;
            double duration_us = 0;
            if (n.get("duration_us", duration_us)) {
                p.duration_ps = microseconds_to_ps(n, "duration_us", duration_us);
                if (p.duration_ps == 0) n.fail("duration_us", "must be at least 1 ps");
            }
            if (p.flops == 0 && p.bytes == 0 && p.duration_ps == 0)
                n.fail("flops", "flops and bytes are both 0 and there is no duration_us");
            return p;
        }
    }
    throw SimBug("unhandled op kind");
}

class TraceBuilder {
  public:
    explicit TraceBuilder(Trace& trace) : trace_(trace) {}

    // One entry of an `ops:` list (top level or a repeat body).
    void add_entry(const ConfigNode& n, const std::string& suffix, NameScope* scope, int depth) {
        if (!n.is_map()) n.fail("", "expected an operator (a map with kind:) or a repeat block");
        if (n.has("repeat")) {
            add_repeat(n, suffix, scope, depth);
        } else {
            add_op(n, suffix, scope);
        }
    }

  private:
    void add_repeat(const ConfigNode& n, const std::string& suffix, NameScope* scope, int depth) {
        uint64_t count = 0;
        n.require("repeat", count);
        if (count == 0) n.fail("repeat", "must be at least 1");
        if (depth >= kMaxRepeatDepth) n.fail("repeat", "repeat blocks are nested too deeply");
        const std::vector<ConfigNode> body = n.sequence("ops");
        if (body.empty()) n.fail("ops", "a repeat body must not be empty");
        n.reject_unknown_keys();
        if (count > kMaxExpandedOps / body.size() ||
            trace_.ops.size() + count * body.size() > kMaxExpandedOps) {
            n.fail("repeat", "the trace would expand to more than " +
                                 std::to_string(kMaxExpandedOps) + " operators");
        }
        for (uint64_t i = 0; i < count; ++i) {
            NameScope inner;
            inner.parent = scope;
            for (const ConfigNode& entry : body) {
                add_entry(entry, suffix + "." + std::to_string(i), &inner, depth + 1);
            }
        }
    }

    void add_op(const ConfigNode& n, const std::string& suffix, NameScope* scope) {
        if (trace_.ops.size() >= kMaxExpandedOps) {
            n.fail("", "the trace expands to more than " + std::to_string(kMaxExpandedOps) +
                           " operators");
        }
        Op op;
        op.index = trace_.ops.size();
        op.where = n.location();
        op.launch = trace_.launch;

        std::string kind_text;
        n.require("kind", kind_text);
        const auto kind = parse_op_kind(kind_text);
        if (!kind) {
            std::string list;
            for (OpKind k : all_op_kinds())
                list += (list.empty() ? "" : ", ") + to_string(k);
            n.fail("kind", "'" + kind_text + "' is not an operator kind; expected one of: " + list);
        }
        op.kind = *kind;

        std::string base_name = to_string(op.kind) + std::to_string(op.index);
        n.get("name", base_name);
        if (base_name.empty()) n.fail("name", "must not be empty");
        op.name = base_name + suffix;
        if (names_.count(op.name)) {
            n.fail("name", "'" + op.name + "' is already used by operator " +
                               std::to_string(names_.at(op.name)));
        }

        if (n.get("device", op.device) && op.device.empty())
            n.fail("device", "must name a device of the system, e.g. gpu0");
        n.get("stream", op.stream);
        if (op.stream >= kMaxStreams)
            n.fail("stream", "must be below " + std::to_string(kMaxStreams));
        std::vector<std::string> after;
        n.get("after", after);
        for (const std::string& dep : after)
            op.after.push_back(resolve(n, dep, scope));

        op.dtype = read_dtype(n, "dtype", default_dtype(op.kind));
        op.params = read_params(n, op.kind, op.dtype);
        op.kernel = read_kernel_hints(n, op.kind);
        double measured_us = 0;
        if (n.get("measured_us", measured_us)) {
            microseconds_to_ps(n, "measured_us", measured_us);  // validates the range
            op.measured_us = measured_us;
        }
        n.get("recompute", op.recompute);
        read_pipeline_fields(n, op);
        read_token_field(n, op);
        n.reject_unknown_keys();

        const std::vector<std::string> members = group_members(n, op);
        if (!members.empty()) {
            // One copy per device; `after:` on the collective's name waits for the last copy
            // (all copies finish together).
            const size_t first = op.index;
            for (const std::string& device : members) {
                Op copy = op;
                copy.index = trace_.ops.size();
                copy.device = device;
                copy.name = op.name + "@" + device;
                copy.rendezvous = first;
                copy.rendezvous_size = static_cast<uint32_t>(members.size());
                copy.group = members;
                if (names_.count(copy.name))
                    n.fail("name", "'" + copy.name + "' is already used by operator " +
                                       std::to_string(names_.at(copy.name)));
                names_[copy.name] = copy.index;
                trace_.ops.push_back(std::move(copy));
            }
            names_[op.name] = trace_.ops.size() - 1;
            if (scope) scope->local[base_name] = trace_.ops.size() - 1;
            return;
        }
        names_[op.name] = op.index;
        if (scope) scope->local[base_name] = op.index;
        trace_.ops.push_back(std::move(op));
    }

    // A collective's `group:` as a list of devices (validated here; its size is in the params).
    std::vector<std::string> group_members(const ConfigNode& n, const Op& op) const {
        if (!std::holds_alternative<CollectiveParams>(op.params) || !n.has("group") ||
            !n.yaml()["group"].IsSequence())
            return {};
        const std::vector<std::string> members = [&] {
            std::vector<std::string> out;
            for (const YAML::Node& m : n.yaml()["group"])
                out.push_back(m.Scalar());
            return out;
        }();
        if (!op.device.empty())
            n.fail("device",
                   "a collective over named devices runs on each of its group: leave "
                   "device out");
        std::set<std::string> seen;
        for (const std::string& m : members) {
            if (m.empty()) n.fail("group", "a device name must not be empty");
            if (!seen.insert(m).second) n.fail("group", "'" + m + "' is named twice");
        }
        if (trace_.ops.size() + members.size() > kMaxExpandedOps)
            n.fail("", "the trace expands to more than " + std::to_string(kMaxExpandedOps) +
                           " operators");
        return members;
    }

    // `phase:` and `microbatch:` place an op in a micro-batch's pass through a pipeline stage;
    // they need the header's pipeline: map.
    void read_pipeline_fields(const ConfigNode& n, Op& op) const {
        std::string phase;
        const bool has_phase = n.get_choice("phase", phase, {"forward", "backward"});
        const bool has_microbatch = n.get("microbatch", op.microbatch);
        if (!has_phase && !has_microbatch) return;
        if (!trace_.pipeline)
            n.fail(has_phase ? "phase" : "microbatch",
                   "needs a pipeline: map in the trace header (stages, microbatches)");
        if (!has_phase) n.fail("phase", "required with microbatch; expected forward or backward");
        if (!has_microbatch) n.fail("microbatch", "required with phase");
        if (op.microbatch >= trace_.pipeline->microbatches)
            n.fail("microbatch", "must be below the header's microbatches (" +
                                     std::to_string(trace_.pipeline->microbatches) + ")");
        op.phase = phase == "forward" ? PipelinePhase::Forward : PipelinePhase::Backward;
    }

    // `token:` places an op of an inference trace in the prefill (0) or a decode step.
    void read_token_field(const ConfigNode& n, Op& op) const {
        uint64_t token = 0;
        if (!n.get("token", token)) return;
        if (!trace_.inference)
            n.fail("token",
                   "needs an inference: map in the trace header (batch, prompt, "
                   "generate)");
        if (token >= trace_.inference->generate)
            n.fail("token", "must be below the header's generate (" +
                                std::to_string(trace_.inference->generate) + ")");
        op.token = token;
    }

    size_t resolve(const ConfigNode& n, const std::string& dep, const NameScope* scope) const {
        for (const NameScope* s = scope; s; s = s->parent) {
            if (auto it = s->local.find(dep); it != s->local.end()) return it->second;
        }
        if (auto it = names_.find(dep); it != names_.end()) return it->second;
        n.fail("after", "'" + dep + "' does not name an earlier operator");
    }

    Trace& trace_;
    std::unordered_map<std::string, size_t> names_;
};

// The header's `memory:` map: what the trace needs on each device, part by part.
DeclaredMemory read_declared_memory(const ConfigNode& header) {
    constexpr uint64_t kMaxPartBytes = uint64_t{1} << 60;
    const ConfigNode n = header.child("memory");
    DeclaredMemory m;
    m.where = header.location_of("memory");
    const std::pair<const char*, uint64_t*> parts[] = {
        {"weights", &m.weights},         {"gradients", &m.gradients}, {"optimizer", &m.optimizer},
        {"activations", &m.activations}, {"kv_cache", &m.kv_cache},   {"workspace", &m.workspace}};
    for (const auto& [key, value] : parts) {
        std::string text;
        n.accept(key);  // known even when absent, for did-you-mean suggestions
        if (!n.has(key)) continue;
        n.get(key, text);
        // A plain whole number is bytes (what generators write); anything else a size with a
        // unit ("13.5GB").
        if (!text.empty() && text.find_first_not_of("0123456789") == std::string::npos) {
            n.get(key, *value);
        } else if (!text.empty() && text.front() == '-') {
            n.fail(key, "'" + text + "' is negative; expected bytes or a size (80GB)");
        } else {
            n.get_size(key, *value);
        }
        if (*value > kMaxPartBytes) n.fail(key, "must be at most 1EiB (2^60 bytes)");
    }
    n.reject_unknown_keys();
    if (m.total() == 0)
        header.fail("memory",
                    "declares no bytes; expected weights, gradients, optimizer, "
                    "activations, kv_cache or workspace");
    return m;
}

// The header's `pipeline:` map: which stage of how many, over how many micro-batches.
PipelineLayout read_pipeline_layout(const ConfigNode& header) {
    constexpr uint64_t kMaxStages = 1 << 16, kMaxMicrobatches = 1 << 20;
    const ConfigNode n = header.child("pipeline");
    PipelineLayout p;
    p.where = header.location_of("pipeline");
    p.stages = require_positive(n, "stages");
    p.microbatches = require_positive(n, "microbatches");
    n.get("stage", p.stage);
    n.reject_unknown_keys();
    if (p.stages > kMaxStages) n.fail("stages", "must be at most " + std::to_string(kMaxStages));
    if (p.microbatches > kMaxMicrobatches)
        n.fail("microbatches", "must be at most " + std::to_string(kMaxMicrobatches));
    if (p.stage >= p.stages)
        n.fail("stage", "must be below stages (" + std::to_string(p.stages) + ")");
    return p;
}

// The header's `inference:` map: batch, prompt and generated tokens.
InferenceLayout read_inference_layout(const ConfigNode& header) {
    constexpr uint64_t kMaxTokens = uint64_t{1} << 24;
    const ConfigNode n = header.child("inference");
    InferenceLayout l;
    l.where = header.location_of("inference");
    l.batch = require_positive(n, "batch");
    l.prompt = require_positive(n, "prompt");
    l.generate = require_positive(n, "generate");
    n.reject_unknown_keys();
    for (const auto& [key, v] : {std::pair<const char*, uint64_t>{"batch", l.batch},
                                 {"prompt", l.prompt},
                                 {"generate", l.generate}}) {
        if (v > kMaxTokens) n.fail(key, "must be at most " + std::to_string(kMaxTokens));
    }
    return l;
}

void read_header(const ConfigNode& header, Trace& trace) {
    uint64_t version = 0;
    header.require("version", version);
    if (version != kTraceVersion) {
        header.fail("version", "version " + std::to_string(version) +
                                   " is not supported; expected " + std::to_string(kTraceVersion));
    }
    header.get("name", trace.name);
    if (header.has("memory")) trace.memory = read_declared_memory(header);
    if (header.has("pipeline")) trace.pipeline = read_pipeline_layout(header);
    if (header.has("inference")) trace.inference = read_inference_layout(header);
    if (trace.pipeline && trace.inference)
        header.fail("inference", "a trace is a pipeline stage or an inference run, not both");
    std::string launch = to_string(trace.launch);
    header.get("launch", launch);
    const auto mode = parse_launch_mode(launch);
    if (!mode)
        header.fail("launch", "'" + launch + "' is not a launch mode; expected stream or graph");
    trace.launch = *mode;
}

std::string stem_of(const std::string& label) {
    return std::filesystem::path(label).stem().string();
}

// JSON values become YAML nodes so that one reader (ConfigNode) validates both encodings.
YAML::Node to_yaml(const nlohmann::ordered_json& j, int depth = 0) {
    if (depth > kMaxJsonDepth) throw std::invalid_argument("nested more than 64 levels deep");
    switch (j.type()) {
        case nlohmann::ordered_json::value_t::object: {
            YAML::Node m(YAML::NodeType::Map);
            for (const auto& [k, v] : j.items())
                m.force_insert(k, to_yaml(v));  // JSON keys are unique: no search
            return m;
        }
        case nlohmann::ordered_json::value_t::array: {
            YAML::Node s(YAML::NodeType::Sequence);
            for (const auto& v : j)
                s.push_back(to_yaml(v));
            return s;
        }
        case nlohmann::ordered_json::value_t::string: return YAML::Node(j.get<std::string>());
        case nlohmann::ordered_json::value_t::null: return YAML::Node(YAML::NodeType::Null);
        default: return YAML::Node(j.dump());
    }
}

// Nesting depth of a JSON text, counted before parsing so that absurd nesting cannot exhaust
// the stack of any recursive step that follows.
int json_depth(const std::string& line) {
    int depth = 0, most = 0;
    bool in_string = false, escaped = false;
    for (char c : line) {
        if (in_string) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            most = std::max(most, ++depth);
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return most;
}

// nlohmann's message minus its "[json.exception...] parse error at line 1, column N: " prefix.
std::string json_error_text(const std::string& what) {
    const size_t colon = what.find(": ");
    return colon == std::string::npos ? what : what.substr(colon + 2);
}

}  // namespace

Trace parse_trace_yaml(const std::string& text, const std::string& label) {
    auto doc = parse_config_text(text, label);
    const ConfigNode root = ConfigNode::root_of(doc);
    Trace trace;
    trace.file = label;
    trace.name = stem_of(label);
    read_header(root, trace);
    const std::vector<ConfigNode> entries = root.sequence("ops");
    if (entries.empty()) root.fail("ops", "a trace needs at least one operator");
    root.reject_unknown_keys();
    TraceBuilder builder(trace);
    for (const ConfigNode& entry : entries)
        builder.add_entry(entry, "", nullptr, 0);
    return trace;
}

Trace parse_trace_jsonl(const std::string& text, const std::string& label) {
    Trace trace;
    trace.file = label;
    trace.name = stem_of(label);
    TraceBuilder builder(trace);
    std::istringstream in(text);
    bool have_header = false;
    int line_no = 0;
    for (std::string line; std::getline(in, line);) {
        ++line_no;
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        if (json_depth(line) > kMaxJsonDepth) {
            throw ConfigError({label, line_no, 0}, "", "JSON nested more than 64 levels deep");
        }
        nlohmann::ordered_json j;
        try {
            j = nlohmann::ordered_json::parse(line);
        } catch (const nlohmann::json::parse_error& e) {
            throw ConfigError({label, line_no, static_cast<int>(e.byte)}, "",
                              "malformed JSON: " + json_error_text(e.what()));
        } catch (const nlohmann::json::exception& e) {
            // out_of_range.406: a number beyond a double's range ("elements": 1e3840). Its
            // text follows the "[json.exception.out_of_range.406] " tag.
            const std::string what = e.what();
            const size_t tag_end = what.find("] ");
            throw ConfigError({label, line_no, 0}, "",
                              "malformed JSON: " +
                                  (tag_end == std::string::npos ? what : what.substr(tag_end + 2)));
        }
        if (!j.is_object()) {
            throw ConfigError({label, line_no, 1}, "", "expected a JSON object on each line");
        }
        YAML::Node yaml;
        try {
            yaml = to_yaml(j);
        } catch (const std::invalid_argument& e) {
            throw ConfigError({label, line_no, 0}, "", e.what());
        }
        auto doc = std::make_shared<ConfigDocument>(yaml, label, line_no);
        const ConfigNode node = ConfigNode::root_of(doc);
        if (!have_header) {
            read_header(node, trace);
            node.reject_unknown_keys();
            have_header = true;
        } else {
            builder.add_entry(node, "", nullptr, 0);
        }
    }
    if (!have_header)
        throw ConfigError({label, 0, 0}, "version", "empty trace; expected a header line");
    if (trace.ops.empty())
        throw ConfigError({label, line_no, 0}, "ops", "a trace needs at least one operator");
    return trace;
}

Trace parse_trace_file(const std::string& path) {
    const std::string ext = std::filesystem::path(path).extension().string();
    if (ext != ".yaml" && ext != ".yml" && ext != ".jsonl") {
        throw ConfigError(
            {path, 0, 0}, "",
            "unknown trace encoding '" + ext + "'; expected a .yaml, .yml or .jsonl file");
    }
    const std::string text = read_text_file(path);
    return ext == ".jsonl" ? parse_trace_jsonl(text, path) : parse_trace_yaml(text, path);
}

}  // namespace sim
