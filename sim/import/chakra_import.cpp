// SPDX-License-Identifier: MIT
#include "sim/import/chakra_import.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <queue>
#include <set>
#include <unordered_map>

#include "sim/core/error.h"
#include "sim/import/chakra_file.h"
#include "sim/import/kernel_class.h"
#include "sim/import/op_shapes.h"
#include "sim/trace/op.h"

namespace sim::import {

namespace {

using ChakraProtoMsg::AttributeProto;
using ChakraProtoMsg::Node;

const AttributeProto* attribute(const Node& n, const std::string& name) {
    for (const AttributeProto& a : n.attr()) {
        if (a.name() == name) return &a;
    }
    return nullptr;
}

// Chakra writers differ in the integer type of an attribute (num_ops is int64 in the PyTorch
// converter, tensor_size uint64): accept any integer field.
std::optional<int64_t> integer_attribute(const Node& n, const std::string& name) {
    const AttributeProto* a = attribute(n, name);
    if (!a) return std::nullopt;
    switch (a->value_case()) {
        case AttributeProto::kInt32Val: return a->int32_val();
        case AttributeProto::kInt64Val: return a->int64_val();
        case AttributeProto::kUint32Val: return a->uint32_val();
        case AttributeProto::kUint64Val: return static_cast<int64_t>(a->uint64_val());
        case AttributeProto::kSint32Val: return a->sint32_val();
        case AttributeProto::kSint64Val: return a->sint64_val();
        case AttributeProto::kFixed32Val: return a->fixed32_val();
        case AttributeProto::kFixed64Val: return static_cast<int64_t>(a->fixed64_val());
        case AttributeProto::kSfixed32Val: return a->sfixed32_val();
        case AttributeProto::kSfixed64Val: return a->sfixed64_val();
        default: return std::nullopt;
    }
}

bool is_cpu_node(const Node& n) {
    const AttributeProto* a = attribute(n, "is_cpu_op");
    return a && a->value_case() == AttributeProto::kBoolVal && a->bool_val();
}

bool imported(const Node& n) {
    switch (n.type()) {
        case ChakraProtoMsg::COMP_NODE: return !is_cpu_node(n);
        case ChakraProtoMsg::COMM_COLL_NODE:
        case ChakraProtoMsg::COMM_SEND_NODE:
        case ChakraProtoMsg::COMM_RECV_NODE:
        case ChakraProtoMsg::MEM_LOAD_NODE:
        case ChakraProtoMsg::MEM_STORE_NODE: return true;
        default: return false;
    }
}

std::string collective_of(int64_t comm_type) {
    switch (comm_type) {
        case ChakraProtoMsg::ALL_REDUCE: return "allreduce";
        case ChakraProtoMsg::ALL_GATHER: return "allgather";
        case ChakraProtoMsg::REDUCE_SCATTER:
        case ChakraProtoMsg::REDUCE_SCATTER_BLOCK: return "reducescatter";
        case ChakraProtoMsg::ALL_TO_ALL: return "alltoall";
        default: return "";
    }
}

// The first dtype a node's recorded input types name ("['Tensor(c10::BFloat16)', ...]").
std::string dtype_in(const std::string& types) {
    for (const char* t : {"c10::BFloat16", "c10::Half", "c10::Float8", "double", "float"}) {
        if (types.find(t) != std::string::npos) return dtype_of(t);
    }
    return "";
}

std::string node_label(const Node& n) {
    std::string s = n.name().empty() ? std::string("node") : short_kernel_name(n.name());
    return "n" + std::to_string(n.id()) + "." + s;
}

// The operator for an imported node, or the reason it only replays its duration.
std::variant<TraceOp, std::string> describe(const Node& n, uint64_t group) {
    const auto bytes_of = [&n](const char* key) -> std::optional<uint64_t> {
        const auto v = integer_attribute(n, key);
        if (!v || *v <= 0) return std::nullopt;
        return static_cast<uint64_t>(*v);
    };
    switch (n.type()) {
        case ChakraProtoMsg::COMP_NODE: {
            const auto flops = integer_attribute(n, "num_ops");
            const auto bytes = integer_attribute(n, "tensor_size");
            if (flops.value_or(0) < 0 || bytes.value_or(0) < 0)
                return std::string("negative num_ops or tensor_size");
            if (flops.value_or(0) == 0 && bytes.value_or(0) == 0)
                return std::string("compute node without num_ops or tensor_size");
            const Work w = classify_kernel(n.name());
            const bool tensor = w == Work::Gemm || w == Work::Conv || w == Work::AttentionForward ||
                                w == Work::AttentionBackward;
            std::string dtype = dtype_in(n.inputs().types());
            if (dtype.empty() || dtype == "int8") dtype = tensor ? "fp16" : "fp32";
            TraceOp t{{"kind", "custom"},
                      {"flops", static_cast<uint64_t>(flops.value_or(0))},
                      {"bytes", static_cast<uint64_t>(bytes.value_or(0))}};
            if (tensor) t["unit"] = "tensor";
            t["dtype"] = dtype;
            return t;
        }
        case ChakraProtoMsg::COMM_COLL_NODE: {
            const auto type = integer_attribute(n, "comm_type");
            if (!type) return std::string("collective without comm_type");
            const std::string kind = collective_of(*type);
            if (kind.empty())
                return "collective type " +
                       ChakraProtoMsg::CollectiveCommType_Name(
                           static_cast<ChakraProtoMsg::CollectiveCommType>(*type)) +
                       " has no wallsim kind";
            const auto bytes = bytes_of("comm_size");
            if (!bytes) return std::string("collective without comm_size");
            if (group < 2) return std::string("collective without a group (give --group)");
            return TraceOp{{"kind", kind}, {"bytes", *bytes}, {"group", group}};
        }
        case ChakraProtoMsg::COMM_SEND_NODE:
        case ChakraProtoMsg::COMM_RECV_NODE: {
            const auto bytes = bytes_of("comm_size");
            if (!bytes) return std::string("send/receive without comm_size");
            return TraceOp{{"kind", "sendrecv"}, {"bytes", *bytes}, {"group", 2}};
        }
        case ChakraProtoMsg::MEM_LOAD_NODE:
        case ChakraProtoMsg::MEM_STORE_NODE: {
            const auto bytes = bytes_of("tensor_size");
            if (!bytes) return std::string("memory node without tensor_size");
            return TraceOp{
                {"kind", "memcpy"},
                {"bytes", *bytes},
                {"direction", n.type() == ChakraProtoMsg::MEM_LOAD_NODE ? "h2d" : "d2h"}};
        }
        default: return std::string("not an operator");
    }
}

uint32_t default_stream(const Node& n) {
    switch (n.type()) {
        case ChakraProtoMsg::COMM_COLL_NODE:
        case ChakraProtoMsg::COMM_SEND_NODE:
        case ChakraProtoMsg::COMM_RECV_NODE: return 1;
        case ChakraProtoMsg::MEM_LOAD_NODE:
        case ChakraProtoMsg::MEM_STORE_NODE: return 2;
        default: return 0;
    }
}

}  // namespace

ImportedTrace import_chakra(const std::vector<std::string>& files,
                            const ChakraImportOptions& options) {
    if (files.empty()) throw ConfigError({"import", 0, 0}, "", "no Chakra files given");
    std::vector<ChakraFile> ranks;
    for (const std::string& f : files)
        ranks.push_back(read_chakra_file(f));
    const ChakraFile& file = ranks.at(options.rank);
    const uint64_t group = options.group.value_or(files.size() > 1 ? files.size() : 0);

    ImportedTrace out;
    out.name = std::filesystem::path(file.path).stem().string();
    out.source = file.path + " (Chakra execution trace, schema " + file.metadata.version() +
                 ", rank " + std::to_string(options.rank) + " of " + std::to_string(files.size()) +
                 ")";

    std::unordered_map<uint64_t, size_t> by_id;
    for (size_t i = 0; i < file.nodes.size(); ++i) {
        if (!by_id.emplace(file.nodes[i].id(), i).second) {
            throw ConfigError({file.path, 0, 0}, "id",
                              "node id " + std::to_string(file.nodes[i].id()) + " appears twice");
        }
    }
    // Kahn's algorithm, smallest id first among the ready nodes: program order for wallsim.
    std::vector<std::vector<size_t>> children(file.nodes.size());
    std::vector<size_t> waiting(file.nodes.size(), 0);
    std::vector<std::vector<size_t>> parents(file.nodes.size());
    for (size_t i = 0; i < file.nodes.size(); ++i) {
        const Node& n = file.nodes[i];
        std::set<uint64_t> deps(n.data_deps().begin(), n.data_deps().end());
        deps.insert(n.ctrl_deps().begin(), n.ctrl_deps().end());
        for (uint64_t d : deps) {
            const auto it = by_id.find(d);
            if (it == by_id.end()) {
                throw ConfigError({file.path, 0, 0}, "node " + std::to_string(n.id()) + ".deps",
                                  "depends on node " + std::to_string(d) +
                                      ", which is not in "
                                      "the file");
            }
            parents[i].push_back(it->second);
            children[it->second].push_back(i);
            ++waiting[i];
        }
    }
    using Ready = std::pair<uint64_t, size_t>;
    std::priority_queue<Ready, std::vector<Ready>, std::greater<>> ready;
    for (size_t i = 0; i < file.nodes.size(); ++i) {
        if (waiting[i] == 0) ready.push({file.nodes[i].id(), i});
    }
    std::vector<size_t> order;
    while (!ready.empty()) {
        const size_t i = ready.top().second;
        ready.pop();
        order.push_back(i);
        for (size_t c : children[i]) {
            if (--waiting[c] == 0) ready.push({file.nodes[c].id(), c});
        }
    }
    if (order.size() != file.nodes.size()) {
        throw ConfigError(
            {file.path, 0, 0}, "deps",
            std::to_string(file.nodes.size() - order.size()) + " nodes lie on dependency cycles");
    }

    // The imported nodes each node's completion stands for: itself when imported, else the
    // imported nodes it depends on (transitively).
    std::vector<std::set<size_t>> stands_for(file.nodes.size());
    std::vector<std::optional<size_t>> op_of(file.nodes.size());
    std::map<int64_t, uint32_t> streams;
    for (size_t i : order) {
        const Node& n = file.nodes[i];
        std::set<size_t> deps;
        for (size_t p : parents[i])
            deps.insert(stands_for[p].begin(), stands_for[p].end());
        if (!imported(n)) {
            ++out.skipped;
            stands_for[i] = std::move(deps);
            continue;
        }
        if (static_cast<double>(n.duration_micros()) > kMaxTraceMicroseconds) {
            throw ConfigError({file.path, 0, 0},
                              "node " + std::to_string(n.id()) + ".duration_micros",
                              "expected at most 1e12 microseconds (11.6 days), got " +
                                  std::to_string(n.duration_micros()));
        }
        auto described = describe(n, group);
        TraceOp op;
        op["name"] = node_label(n);
        if (const TraceOp* fields = std::get_if<TraceOp>(&described)) {
            for (const auto& [key, value] : fields->items())
                op[key] = value;
        } else if (n.duration_micros() > 0) {
            ++out.custom_reasons[std::get<std::string>(described)];
            op["kind"] = "custom";
            op["duration_us"] = static_cast<double>(n.duration_micros());
        } else {
            ++out.skipped;
            ++out.custom_reasons[std::get<std::string>(described) + " and no duration: dropped"];
            stands_for[i] = std::move(deps);
            continue;
        }
        const auto stream_attr = integer_attribute(n, "stream");
        const int64_t key = stream_attr ? *stream_attr : -1 - int64_t{default_stream(n)};
        const auto [sit, fresh] = streams.emplace(key, static_cast<uint32_t>(streams.size()));
        if (sit->second != 0) op["stream"] = sit->second;
        if (!deps.empty()) {
            TraceOp names = TraceOp::array();
            for (size_t d : deps)
                names.push_back(out.ops[*op_of[d]]["name"].get<std::string>());
            op["after"] = names;
            out.dependencies += deps.size();
        }
        if (n.duration_micros() > 0) op["measured_us"] = static_cast<double>(n.duration_micros());
        op_of[i] = out.ops.size();
        stands_for[i] = {i};
        out.ops.push_back(std::move(op));
    }
    out.streams = streams.size();

    std::set<size_t> collective_counts;
    for (const ChakraFile& r : ranks) {
        collective_counts.insert(
            static_cast<size_t>(std::count_if(r.nodes.begin(), r.nodes.end(), [](const Node& n) {
                return n.type() == ChakraProtoMsg::COMM_COLL_NODE;
            })));
    }
    if (collective_counts.size() > 1) {
        out.notes.push_back("the ranks' files hold different numbers of collectives");
    }
    out.notes.push_back("wallsim runs one device per trace: rank " + std::to_string(options.rank) +
                        "'s operators were written, with " +
                        (group >= 2 ? std::to_string(group) : std::string("no")) +
                        " ranks per collective");
    keep_parsable(out);
    return out;
}

}  // namespace sim::import
