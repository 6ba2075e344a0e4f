// SPDX-License-Identifier: MIT
#include "sim/import/kernel_class.h"

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <string_view>

namespace sim::import {

namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

bool has_any(const std::string& s, std::initializer_list<std::string_view> parts) {
    for (std::string_view p : parts) {
        if (s.find(p) != std::string::npos) return true;
    }
    return false;
}

bool starts_with(const std::string& s, std::string_view prefix) {
    return s.compare(0, prefix.size(), prefix) == 0;
}

}  // namespace

std::string to_string(Work w) {
    switch (w) {
        case Work::Gemm: return "gemm";
        case Work::Conv: return "conv";
        case Work::AttentionForward: return "attention_forward";
        case Work::AttentionBackward: return "attention_backward";
        case Work::Elementwise: return "elementwise";
        case Work::Copy: return "copy";
        case Work::Concat: return "concat";
        case Work::Reduction: return "reduction";
        case Work::Softmax: return "softmax";
        case Work::LayerNorm: return "layernorm";
        case Work::RmsNorm: return "rmsnorm";
        case Work::Embedding: return "embedding";
        case Work::Collective: return "collective";
        case Work::Unknown: return "unknown";
    }
    return "unknown";
}

Work classify_kernel(const std::string& kernel_name) {
    const std::string n = lower(kernel_name);
    // Order matters: attention kernels contain "fprop", convolutions "gemm", GEMM epilogues
    // "reduce".
    if (starts_with(n, "nccl") || has_any(n, {"nccldevkernel", "ncclkernel"}))
        return Work::Collective;
    if (has_any(n, {"flash_bwd", "fmha_cutlassb", "fmha_bwd", "attention_bwd", "sdpa_bwd"}) ||
        (has_any(n, {"sdpa", "fmha"}) && has_any(n, {"bprop", "dgrad"})))
        return Work::AttentionBackward;
    if (has_any(n, {"flash_fwd", "fmha_cutlassf", "fmha_fwd", "attention_fwd", "flash_attn", "sdpa",
                    "fmha"}))
        return Work::AttentionForward;
    if (has_any(n, {"rms_norm", "rmsnorm"})) return Work::RmsNorm;
    if (has_any(n, {"layer_norm", "layernorm", "gammabetabackward"})) return Work::LayerNorm;
    if (n.find("softmax") != std::string::npos) return Work::Softmax;
    if (has_any(n, {"catarraybatchedcopy", "cat_array"})) return Work::Concat;
    if (has_any(n, {"direct_copy_kernel", "copy_kernel", "copy_device_to_device"}))
        return Work::Copy;
    if (has_any(n, {"fprop", "dgrad", "wgrad", "implicit_convolve", "winograd", "conv2d",
                    "convolution"}))
        return Work::Conv;
    if (has_any(n, {"gemm", "gemv", "xmma", "wgmma"}) || starts_with(n, "nvjet") ||
        (n.find("cutlass") != std::string::npos && n.find("tensorop") != std::string::npos))
        return Work::Gemm;
    if (has_any(n, {"indexselect", "embedding"})) return Work::Embedding;
    if (has_any(n, {"reduce_kernel", "reduction", "triton_red_", "triton_per_"}))
        return Work::Reduction;
    if (has_any(n, {"elementwise_kernel", "triton_poi_", "pointwise"})) return Work::Elementwise;
    return Work::Unknown;
}

std::optional<Work> classify_op(const std::string& op_name) {
    const std::string n = lower(op_name);
    if (n == "record_param_comms" || starts_with(n, "nccl:") || starts_with(n, "c10d::"))
        return Work::Collective;
    if (!starts_with(n, "aten::")) return std::nullopt;
    const std::string a = n.substr(6);
    const bool backward = a.find("backward") != std::string::npos;
    if (has_any(a, {"attention", "flash_attention"}) && !has_any(a, {"math"}))
        return backward ? Work::AttentionBackward : Work::AttentionForward;
    for (const char* g : {"mm", "addmm", "bmm", "baddbmm", "matmul", "linear", "_scaled_mm", "mv",
                          "addmv", "_addmm_activation"}) {
        if (a == g) return Work::Gemm;
    }
    if (has_any(a, {"convolution", "conv2d"})) return Work::Conv;
    if (has_any(a, {"softmax"})) return Work::Softmax;
    if (has_any(a, {"rms_norm"})) return Work::RmsNorm;
    if (has_any(a, {"layer_norm"})) return Work::LayerNorm;
    if (a == "cat") return Work::Concat;
    for (const char* c : {"copy_", "_to_copy", "clone", "contiguous"}) {
        if (a == c) return Work::Copy;
    }
    for (const char* r : {"sum", "mean", "amax", "amin", "max", "min", "norm", "linalg_vector_norm",
                          "argmax", "argmin", "var", "std", "prod"}) {
        if (a == r) return Work::Reduction;
    }
    if (a == "embedding" || a == "index_select") return Work::Embedding;
    return std::nullopt;
}

std::string collective_kind(const std::string& name) {
    std::string n = lower(name);
    n.erase(std::remove(n.begin(), n.end(), '_'), n.end());
    if (n.find("allreduce") != std::string::npos) return "allreduce";
    if (n.find("allgather") != std::string::npos) return "allgather";
    if (n.find("reducescatter") != std::string::npos) return "reducescatter";
    if (n.find("alltoall") != std::string::npos) return "alltoall";
    if (has_any(n, {"sendrecv", "send", "recv"})) return "sendrecv";
    return "";
}

std::string short_kernel_name(const std::string& kernel_name) {
    std::string s = kernel_name;
    for (const std::string_view anon : {"(anonymous namespace)", "{anonymous}"}) {
        for (size_t at; (at = s.find(anon)) != std::string::npos;)
            s.replace(at, anon.size(), "anon");
    }
    // Drop template arguments and everything from the parameter list on.
    std::string flat;
    int depth = 0;
    for (char c : s) {
        if (c == '<') {
            ++depth;
        } else if (c == '>') {
            depth = std::max(0, depth - 1);
        } else if (depth == 0) {
            if (c == '(') break;
            flat += c;
        }
    }
    if (starts_with(flat, "void ")) flat = flat.substr(5);
    if (const size_t colon = flat.rfind("::"); colon != std::string::npos)
        flat = flat.substr(colon + 2);
    const size_t first = flat.find_first_not_of(' ');
    const size_t last = flat.find_last_not_of(' ');
    flat =
        first == std::string::npos ? std::string("kernel") : flat.substr(first, last - first + 1);
    return flat.size() > 64 ? flat.substr(0, 64) : flat;
}

}  // namespace sim::import
