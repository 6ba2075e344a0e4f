// SPDX-License-Identifier: MIT
#include "sim/import/op_shapes.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <optional>
#include <vector>

namespace sim::import {

namespace {

using json = nlohmann::json;
using Shape = std::vector<int64_t>;
using Result = std::variant<TraceOp, std::string>;

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

// Positional access to an op's recorded arguments.
class Args {
  public:
    explicit Args(const json& args) : a_(args) {}

    bool has_shapes() const { return a_.contains("Input Dims") && a_["Input Dims"].is_array(); }
    /// The shape of argument i when it is a tensor (a list of whole numbers, [] for 0-d).
    std::optional<Shape> shape(size_t i) const {
        const json* d = at("Input Dims", i);
        if (!d || !d->is_array()) return std::nullopt;
        Shape s;
        for (const json& x : *d) {
            if (!x.is_number_integer() || x.get<int64_t>() < 0) return std::nullopt;
            s.push_back(x.get<int64_t>());
        }
        return s;
    }
    /// Argument i as a list of shapes (a TensorList).
    std::optional<std::vector<Shape>> shapes(size_t i) const {
        const json* d = at("Input Dims", i);
        if (!d || !d->is_array() || d->empty()) return std::nullopt;
        std::vector<Shape> out;
        for (const json& t : *d) {
            if (!t.is_array()) return std::nullopt;
            Shape s;
            for (const json& x : t) {
                if (!x.is_number_integer() || x.get<int64_t>() < 0) return std::nullopt;
                s.push_back(x.get<int64_t>());
            }
            out.push_back(std::move(s));
        }
        return out;
    }
    std::string type(size_t i) const {
        const json* t = at("Input type", i);
        return t && t->is_string() ? t->get<std::string>() : std::string();
    }
    std::optional<Shape> strides(size_t i) const {
        const json* d = at("Input Strides", i);
        if (!d || !d->is_array()) return std::nullopt;
        Shape s;
        for (const json& x : *d) {
            if (!x.is_number_integer()) return std::nullopt;
            s.push_back(x.get<int64_t>());
        }
        return s;
    }
    /// Argument i's recorded value (Concrete Inputs), "" when not recorded.
    std::string concrete(size_t i) const {
        const json* c = at("Concrete Inputs", i);
        return c && c->is_string() ? c->get<std::string>() : std::string();
    }
    size_t count() const { return has_shapes() ? a_["Input Dims"].size() : 0; }

  private:
    const json* at(const char* key, size_t i) const {
        const auto it = a_.find(key);
        if (it == a_.end() || !it->is_array() || i >= it->size()) return nullptr;
        return &(*it)[i];
    }
    const json& a_;
};

uint64_t numel(const Shape& s) {
    uint64_t n = 1;
    for (int64_t d : s)
        n *= static_cast<uint64_t>(d);
    return n;
}

// Whole numbers in a recorded value such as "[-1]", "[0, 1]", "-1" or "True".
std::vector<int64_t> integers_in(const std::string& text) {
    std::vector<int64_t> out;
    for (size_t i = 0; i < text.size();) {
        if (std::isdigit(static_cast<unsigned char>(text[i])) ||
            (text[i] == '-' && i + 1 < text.size() &&
             std::isdigit(static_cast<unsigned char>(text[i + 1])))) {
            size_t used = 0;
            out.push_back(std::stoll(text.substr(i), &used));
            i += used;
        } else {
            ++i;
        }
    }
    return out;
}

bool truthy(const std::string& v) {
    const std::string l = lower(v);
    return l == "true" || l == "1";
}

// Bytes per element of a PyTorch type name, 0 when unknown.
uint64_t element_bytes(const std::string& torch_type) {
    const std::string d = dtype_of(torch_type);
    if (d == "fp64") return 8;
    if (d == "fp32") return 4;
    if (d == "fp16" || d == "bf16") return 2;
    if (d == "fp8" || d == "int8") return 1;
    std::string t = lower(torch_type);
    if (t.rfind("c10::", 0) == 0) t = t.substr(5);
    if (t == "long int" || t == "long" || t == "int64" || t == "c10::complex<float>") return 8;
    if (t == "int" || t == "int32") return 4;
    if (t == "short int" || t == "short" || t == "int16") return 2;
    return 0;
}

// Element size from a copy kernel's template arguments (CatArrayBatchedCopy<OpaqueType<2u>,
// ...> or <c10::BFloat16, ...>), 0 when it names none.
uint64_t element_bytes_from_kernel(const std::string& kernel) {
    if (const size_t at = kernel.find("OpaqueType<"); at != std::string::npos) {
        const auto n = integers_in(kernel.substr(at + 11, 8));
        if (!n.empty() && n[0] > 0) return static_cast<uint64_t>(n[0]);
    }
    const size_t open = kernel.find('<');
    if (open == std::string::npos) return 0;
    const size_t end = kernel.find_first_of(",>", open);
    std::string first = kernel.substr(open + 1, end - open - 1);
    first.erase(0, first.find_first_not_of(' '));
    return element_bytes(first);
}

std::string layout_of(const std::optional<Shape>& strides) {
    if (!strides || strides->size() < 2) return "n";
    // Row-major (unit stride along the last dimension) is "n"; unit stride along the
    // second-to-last is a transposed operand.
    if ((*strides)[strides->size() - 1] == 1) return "n";
    if ((*strides)[strides->size() - 2] == 1) return "t";
    return "n";
}

Result gemm(const Args& a, const std::string& op, const std::string& kernel) {
    size_t ia = 0, ib = 1;
    if (op == "aten::addmm" || op == "aten::baddbmm" || op == "aten::addmv" ||
        op == "aten::_addmm_activation")
        ia = 1, ib = 2;
    const auto A = a.shape(ia);
    const auto B = a.shape(ib);
    if (!A || !B) return std::string("no operand shapes recorded");
    uint64_t batch = 1, m = 0, n = 0, k = 0;
    std::string layout = layout_of(a.strides(ia)) + layout_of(a.strides(ib));
    if (op == "aten::linear") {
        // input [..., K] x weight [N, K]^T
        if (A->empty() || B->size() != 2)
            return std::string("linear operands are not [..., K], [N, K]");
        k = static_cast<uint64_t>(A->back());
        m = numel(*A) / std::max<uint64_t>(k, 1);
        n = static_cast<uint64_t>((*B)[0]);
        if (static_cast<uint64_t>((*B)[1]) != k) return std::string("linear: K does not match");
        layout = "nt";
    } else if (B->size() == 1 && A->size() == 2) {  // matrix-vector
        m = static_cast<uint64_t>((*A)[0]);
        k = static_cast<uint64_t>((*A)[1]);
        n = 1;
        if (static_cast<uint64_t>((*B)[0]) != k) return std::string("mv: K does not match");
    } else if (A->size() >= 2 && B->size() == 2) {
        k = static_cast<uint64_t>(A->back());
        m = numel(*A) / std::max<uint64_t>(k, 1);
        n = static_cast<uint64_t>((*B)[1]);
        if (static_cast<uint64_t>((*B)[0]) != k) return std::string("K does not match");
    } else if (A->size() == 3 && B->size() == 3) {
        batch = static_cast<uint64_t>((*A)[0]);
        m = static_cast<uint64_t>((*A)[1]);
        k = static_cast<uint64_t>((*A)[2]);
        n = static_cast<uint64_t>((*B)[2]);
        if (static_cast<uint64_t>((*B)[0]) != batch || static_cast<uint64_t>((*B)[1]) != k)
            return std::string("batched GEMM operands do not match");
    } else {
        return std::string("GEMM operand ranks not understood");
    }
    if (m == 0 || n == 0 || k == 0 || batch == 0) return std::string("an empty GEMM");
    std::string dtype = dtype_of(a.type(ia));
    if (dtype.empty()) return "dtype '" + a.type(ia) + "' is not modelled";
    if (dtype == "fp32" && lower(kernel).find("tf32") != std::string::npos) dtype = "tf32";
    TraceOp t{{"kind", "gemm"}, {"m", m}, {"n", n}, {"k", k}};
    if (batch > 1) t["batch"] = batch;
    t["layout"] = layout;
    t["dtype"] = dtype;
    return t;
}

struct AttentionSchema {
    size_t q, k;
    bool bhsd;       ///< [batch, heads, seq, dim]; otherwise [batch, seq, heads, dim]
    size_t causal;   ///< position of is_causal (or of custom_mask_type)
    bool mask_type;  ///< causal given as a mask type (non-zero: causal)
};

std::optional<AttentionSchema> attention_schema(const std::string& op) {
    const std::map<std::string, AttentionSchema> kSchemas{
        {"aten::_scaled_dot_product_flash_attention", {0, 1, true, 4, false}},
        {"aten::_scaled_dot_product_flash_attention_backward", {1, 2, true, 11, false}},
        {"aten::_flash_attention_forward", {0, 1, false, 8, false}},
        {"aten::_flash_attention_backward", {1, 2, false, 11, false}},
        {"aten::_scaled_dot_product_efficient_attention", {0, 1, true, 6, false}},
        {"aten::_scaled_dot_product_efficient_attention_backward", {1, 2, true, 11, false}},
        {"aten::_efficient_attention_forward", {0, 1, false, 9, true}},
        {"aten::_efficient_attention_backward", {1, 2, false, 14, true}},
        {"aten::_scaled_dot_product_cudnn_attention", {0, 1, true, 6, false}},
        {"aten::_scaled_dot_product_cudnn_attention_backward", {1, 2, true, 14, false}},
        {"aten::scaled_dot_product_attention", {0, 1, true, 5, false}},
    };
    const auto it = kSchemas.find(op);
    if (it == kSchemas.end()) return std::nullopt;
    return it->second;
}

Result attention(const Args& a, const std::string& op, bool backward) {
    const auto schema = attention_schema(op);
    if (!schema) return "attention op '" + op + "' has no known argument layout";
    const auto q = a.shape(schema->q);
    const auto k = a.shape(schema->k);
    if (!q || !k || q->size() != 4 || k->size() != 4)
        return std::string("no 4-d query/key shapes recorded");
    const uint64_t b = static_cast<uint64_t>((*q)[0]);
    const uint64_t h = static_cast<uint64_t>(schema->bhsd ? (*q)[1] : (*q)[2]);
    const uint64_t s = static_cast<uint64_t>(schema->bhsd ? (*q)[2] : (*q)[1]);
    const uint64_t skv = static_cast<uint64_t>(schema->bhsd ? (*k)[2] : (*k)[1]);
    const uint64_t d = static_cast<uint64_t>((*q)[3]);
    if (b == 0 || h == 0 || s == 0 || skv == 0 || d == 0) return std::string("an empty attention");
    const std::string dtype = dtype_of(a.type(schema->q));
    if (dtype.empty()) return "dtype '" + a.type(schema->q) + "' is not modelled";
    const std::string c = a.concrete(schema->causal);
    const bool causal =
        schema->mask_type ? (!integers_in(c).empty() && integers_in(c)[0] != 0) : truthy(c);
    TraceOp t{{"kind", "attention"}, {"batch", b}, {"heads", h}, {"seq", s}};
    if (skv != s) t["kv_seq"] = skv;
    t["head_dim"] = d;
    if (causal) t["causal"] = true;
    if (backward) t["backward"] = true;
    t["dtype"] = dtype;
    return t;
}

// The tensors among an op's arguments (shape and type), skipping scalars and None.
std::vector<std::pair<Shape, std::string>> tensors_of(const Args& a) {
    std::vector<std::pair<Shape, std::string>> out;
    for (size_t i = 0; i < a.count(); ++i) {
        const std::string type = a.type(i);
        if (type.empty() || type == "Scalar" || type.find("List") != std::string::npos) continue;
        if (const auto s = a.shape(i)) out.emplace_back(*s, type);
    }
    return out;
}

Result elementwise(const Args& a) {
    const auto tensors = tensors_of(a);
    if (tensors.empty()) return std::string("no tensor shapes recorded");
    // The output has the broadcast shape of the inputs.
    Shape out;
    for (const auto& [shape, type] : tensors) {
        if (shape.size() > out.size()) out.insert(out.begin(), shape.size() - out.size(), 1);
        for (size_t i = 0; i < shape.size(); ++i) {
            int64_t& o = out[out.size() - shape.size() + i];
            o = std::max(o, shape[i]);
        }
    }
    const uint64_t elements = numel(out);
    if (elements == 0) return std::string("an empty tensor");
    uint64_t inputs = 0;
    std::string dtype;
    for (const auto& [shape, type] : tensors) {
        if (numel(shape) == elements) {
            ++inputs;
            if (dtype.empty()) dtype = dtype_of(type);
        }
    }
    if (dtype.empty()) return "dtype '" + tensors.front().second + "' is not modelled";
    return TraceOp{{"kind", "elementwise"}, {"elements", elements},   {"inputs", inputs},
                   {"outputs", 1},          {"flops_per_element", 1}, {"dtype", dtype}};
}

Result copy(const Args& a, const std::string& op) {
    const auto tensors = tensors_of(a);
    if (tensors.empty()) return std::string("no tensor shapes recorded");
    const uint64_t elements = numel(tensors.front().first);
    uint64_t read = element_bytes(tensors.front().second);
    uint64_t write = read;
    // copy_(self, src): the destination may convert the source's dtype.
    if (op == "aten::copy_" && tensors.size() >= 2) read = element_bytes(tensors[1].second);
    if (read == 0 || write == 0) return "dtype '" + tensors.front().second + "' has no known size";
    if (elements == 0) return std::string("an empty tensor");
    // memcpy d2d reads and writes `bytes`: the mean of the two element sizes.
    const uint64_t bytes = std::max<uint64_t>(1, elements * (read + write) / 2);
    return TraceOp{{"kind", "memcpy"}, {"bytes", bytes}, {"direction", "d2d"}};
}

Result concat(const Args& a, const std::string& kernel) {
    const auto parts = a.shapes(0);
    if (!parts) return std::string("no TensorList shapes recorded");
    uint64_t elements = 0;
    for (const Shape& s : *parts)
        elements += numel(s);
    uint64_t size = element_bytes_from_kernel(kernel);
    if (size == 0) size = element_bytes(a.type(0));
    if (size == 0) return std::string("element size not recorded");
    if (elements == 0) return std::string("an empty tensor");
    return TraceOp{{"kind", "memcpy"}, {"bytes", elements * size}, {"direction", "d2d"}};
}

Result reduction(const Args& a, const std::string& op) {
    const auto in = a.shape(0);
    if (!in) return std::string("no input shape recorded");
    const uint64_t elements = numel(*in);
    if (elements == 0) return std::string("an empty tensor");
    const std::string dtype = dtype_of(a.type(0));
    if (dtype.empty()) return "dtype '" + a.type(0) + "' is not modelled";
    const size_t dim_arg = op == "aten::linalg_vector_norm" || op == "aten::norm" ? 2 : 1;
    uint64_t outputs = 1;
    const std::string dims_text = a.concrete(dim_arg);
    const auto dims = integers_in(dims_text);
    if (!dims.empty()) {
        uint64_t reduced = 1;
        for (int64_t d : dims) {
            const int64_t r = static_cast<int64_t>(in->size());
            const int64_t i = d < 0 ? d + r : d;
            if (i < 0 || i >= r) return std::string("reduced dimension out of range");
            reduced *= static_cast<uint64_t>((*in)[static_cast<size_t>(i)]);
        }
        outputs = std::max<uint64_t>(1, elements / std::max<uint64_t>(reduced, 1));
    } else if (a.count() > dim_arg && a.shape(dim_arg) && !a.shape(dim_arg)->empty()) {
        return std::string("reduced dimensions not recorded");
    }
    return TraceOp{
        {"kind", "reduction"}, {"elements", elements}, {"outputs", outputs}, {"dtype", dtype}};
}

Result rows_and_cols(const Args& a, const std::string& kind, size_t input, int64_t dim) {
    const auto in = a.shape(input);
    if (!in || in->empty()) return std::string("no input shape recorded");
    const int64_t r = static_cast<int64_t>(in->size());
    const int64_t i = dim < 0 ? dim + r : dim;
    if (i < 0 || i >= r) return std::string("dimension out of range");
    const uint64_t cols = static_cast<uint64_t>((*in)[static_cast<size_t>(i)]);
    const uint64_t elements = numel(*in);
    if (elements == 0 || cols == 0) return std::string("an empty tensor");
    const std::string dtype = dtype_of(a.type(input));
    if (dtype.empty()) return "dtype '" + a.type(input) + "' is not modelled";
    return TraceOp{{"kind", kind}, {"rows", elements / cols}, {"cols", cols}, {"dtype", dtype}};
}

Result softmax(const Args& a, const std::string& op) {
    const size_t dim_arg = op.find("backward") != std::string::npos ? 2 : 1;
    const auto dims = integers_in(a.concrete(dim_arg));
    return rows_and_cols(a, "softmax", 0, dims.empty() ? -1 : dims[0]);
}

Result embedding(const Args& a, const std::string& op) {
    const auto weight = a.shape(0);
    const auto index = a.shape(op == "aten::index_select" ? 2 : 1);
    if (!weight || !index || weight->size() != 2)
        return std::string("no table/index shapes recorded");
    const std::string dtype = dtype_of(a.type(0));
    if (dtype.empty()) return "dtype '" + a.type(0) + "' is not modelled";
    const uint64_t tokens = numel(*index);
    if (tokens == 0 || (*weight)[0] == 0 || (*weight)[1] == 0)
        return std::string("an empty tensor");
    return TraceOp{{"kind", "embedding"},
                   {"tokens", tokens},
                   {"dim", (*weight)[1]},
                   {"vocab", (*weight)[0]},
                   {"dtype", dtype}};
}

Result conv(const Args& a, const std::string& op) {
    if (op.find("backward") != std::string::npos)
        return std::string("convolution backward is not described");
    const auto in = a.shape(0);
    const auto w = a.shape(1);
    if (!in || !w || in->size() != 4 || w->size() != 4)
        return std::string("no 4-d input/weight shapes recorded");
    // convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding,
    // groups); cudnn_convolution(self, weight, padding, stride, dilation, groups, ...).
    const bool cudnn = op == "aten::cudnn_convolution";
    const auto stride = integers_in(a.concrete(3));
    const auto padding = integers_in(a.concrete(cudnn ? 2 : 4));
    const auto groups = integers_in(a.concrete(cudnn ? 5 : 8));
    if (stride.empty() || padding.empty())
        return std::string("stride and padding not recorded (Concrete Inputs)");
    if (std::adjacent_find(stride.begin(), stride.end(), std::not_equal_to<>()) != stride.end() ||
        std::adjacent_find(padding.begin(), padding.end(), std::not_equal_to<>()) != padding.end())
        return std::string("non-square stride or padding is not modelled");
    const std::string dtype = dtype_of(a.type(0));
    if (dtype.empty()) return "dtype '" + a.type(0) + "' is not modelled";
    const int64_t g = groups.empty() ? 1 : std::max<int64_t>(groups[0], 1);
    return TraceOp{{"kind", "conv2d"},        {"batch", (*in)[0]},   {"in_channels", (*in)[1]},
                   {"out_channels", (*w)[0]}, {"height", (*in)[2]},  {"width", (*in)[3]},
                   {"kernel_h", (*w)[2]},     {"kernel_w", (*w)[3]}, {"stride", stride[0]},
                   {"padding", padding[0]},   {"groups", g},         {"dtype", dtype}};
}

}  // namespace

std::string dtype_of(const std::string& torch_type) {
    std::string t = lower(torch_type);
    if (t.rfind("c10::", 0) == 0) t = t.substr(5);
    if (t == "float" || t == "float32") return "fp32";
    if (t == "half" || t == "float16") return "fp16";
    if (t == "bfloat16") return "bf16";
    if (t == "double" || t == "float64") return "fp64";
    if (t.rfind("float8", 0) == 0) return "fp8";
    if (t == "signed char" || t == "unsigned char" || t == "char" || t == "byte" || t == "bool" ||
        t == "int8" || t == "uint8" || t == "qint8" || t == "quint8")
        return "int8";
    return "";
}

std::variant<TraceOp, std::string> describe_from_op(const CpuOp& op,
                                                    Work work,
                                                    const std::string& kernel_name) {
    const Args a(op.args);
    if (!a.has_shapes()) return std::string("no shapes recorded (record_shapes=False)");
    switch (work) {
        case Work::Gemm: return gemm(a, op.name, kernel_name);
        case Work::AttentionForward: return attention(a, op.name, false);
        case Work::AttentionBackward: return attention(a, op.name, true);
        case Work::Elementwise: return elementwise(a);
        case Work::Copy: return copy(a, op.name);
        case Work::Concat: return concat(a, kernel_name);
        case Work::Reduction: return reduction(a, op.name);
        case Work::Softmax: return softmax(a, op.name);
        case Work::LayerNorm:
        case Work::RmsNorm: return rows_and_cols(a, "layernorm", 0, -1);
        case Work::Embedding: return embedding(a, op.name);
        case Work::Conv: return conv(a, op.name);
        case Work::Collective:
        case Work::Unknown: break;
    }
    return std::string("no shape rule for ") + to_string(work);
}

std::variant<TraceOp, std::string> describe_collective(const nlohmann::json& metadata,
                                                       const std::string& kernel_name,
                                                       uint64_t world_size) {
    const auto text = [&metadata](const char* key) {
        const auto it = metadata.find(key);
        return it != metadata.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    const auto number = [&metadata](const char* key) -> int64_t {
        const auto it = metadata.find(key);
        if (it == metadata.end()) return -1;
        if (it->is_number_integer()) return it->get<int64_t>();
        if (it->is_string()) {
            const auto n = integers_in(it->get<std::string>());
            return n.size() == 1 ? n[0] : -1;
        }
        return -1;
    };
    std::string name = text("Collective name");
    std::string kind = collective_kind(name.empty() ? kernel_name : name);
    if (kind.empty()) {
        return "collective '" + (name.empty() ? short_kernel_name(kernel_name) : name) +
               "' has no wallsim kind";
    }
    const std::string type = text("dtype");
    const uint64_t size = element_bytes(type);
    const int64_t in = number("In msg nelems");
    const int64_t out = number("Out msg nelems");
    if (size == 0 || (in < 0 && out < 0))
        return std::string("no message size recorded (In/Out msg nelems, dtype)");
    int64_t group = number("Group size");
    if (group <= 0) group = static_cast<int64_t>(world_size);
    if (group <= 0) return std::string("no group size recorded");
    if (group < 2) return std::string("a collective within one rank");
    // wallsim's `bytes` is the per-device buffer: an all-gather's gathered output, a
    // reduce-scatter's whole input, an all-reduce's or all-to-all's buffer, the message sent.
    const int64_t elements = kind == "allgather" ? std::max(in * group, out) : std::max(in, out);
    if (elements <= 0) return std::string("an empty message");
    std::string dtype = dtype_of(type);
    if (dtype.empty())
        dtype = size == 8 ? "fp64" : size == 4 ? "fp32" : size == 2 ? "fp16" : "int8";
    return TraceOp{{"kind", kind},
                   {"bytes", static_cast<uint64_t>(elements) * size},
                   {"group", group},
                   {"dtype", dtype}};
}

}  // namespace sim::import
