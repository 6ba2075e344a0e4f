// SPDX-License-Identifier: MIT
#include "sim/trace/memory_check.h"

#include <spdlog/fmt/fmt.h>

#include <cmath>
#include <vector>

#include "sim/core/error.h"
#include "sim/stats/group.h"

namespace sim {

namespace {

constexpr double kGB = 1e9;  // the unit `wallsim memory` reports in

std::string gb(double bytes) {
    return fmt::format("{:.1f} GB", bytes / kGB);
}

// The fewest shards n with part / n <= room.
uint64_t shards_needed(double part, double room) {
    return static_cast<uint64_t>(std::ceil(part / room));
}

}  // namespace

uint64_t device_memory_capacity(const StatGroup& stats_root) {
    const auto* s = dynamic_cast<const Scalar*>(stats_root.find("hw.hbm_capacity"));
    if (!s) return 0;
    const double v = s->value();
    return v > 0 ? static_cast<uint64_t>(v) : 0;
}

std::string what_would_fit(const DeclaredMemory& m, uint64_t capacity_bytes) {
    const double capacity = static_cast<double>(capacity_bytes);
    const double states = static_cast<double>(m.weights) + static_cast<double>(m.gradients) +
                          static_cast<double>(m.optimizer);
    const double rest = static_cast<double>(m.activations) + static_cast<double>(m.kv_cache) +
                        static_cast<double>(m.workspace);
    if (m.kv_cache > 0 && static_cast<double>(m.weights) < capacity) {
        // Inference: the weights are read by every token and cannot be sharded by ZeRO.
        const double room = capacity - static_cast<double>(m.weights) -
                            static_cast<double>(m.activations) - static_cast<double>(m.workspace);
        return "the weights take " + gb(static_cast<double>(m.weights)) + " and the KV cache " +
               gb(static_cast<double>(m.kv_cache)) +
               (room > 0 ? "; a KV cache of at most " + gb(room) +
                               " fits: a smaller --batch or a shorter context, or split the "
                               "model with --tp"
                         : ": split the model with --tp");
    }
    if (m.kv_cache > 0) return "split the model over more GPUs (--tp)";
    if (rest >= capacity) {
        std::string text = "activations and workspace alone take " + gb(rest) +
                           ": recompute them (--checkpointing full), shard them (--tp, --pp) or "
                           "use a smaller micro-batch (--batch)";
        if (states > capacity / 2) {
            text += "; then shard the " + gb(states) +
                    " of model states over data-parallel GPUs (--dp N --zero 3)";
        }
        return text;
    }
    // ZeRO (Rajbhandari et al. 2020) shards model states over the data-parallel GPUs; the
    // activations of each GPU's micro-batch stay whole.
    const double room = capacity - rest;
    std::vector<std::string> ways;
    const double unsharded = static_cast<double>(m.weights) + static_cast<double>(m.gradients);
    if (m.optimizer > 0 && unsharded < room) {
        const uint64_t n = shards_needed(static_cast<double>(m.optimizer), room - unsharded);
        ways.push_back(
            fmt::format("optimizer states sharded over {} or more GPUs (--dp {} "
                        "--zero 1)",
                        n, n));
    }
    if (states > 0) {
        const uint64_t n = shards_needed(states, room);
        ways.push_back(fmt::format(
            "all model states sharded over {} or more GPUs (--dp {} --zero 3: {} per GPU)", n, n,
            gb(states / static_cast<double>(n))));
    }
    if (m.activations > 0 && states + static_cast<double>(m.workspace) < capacity) {
        ways.push_back("fewer activations (" + gb(static_cast<double>(m.activations)) +
                       " now: --checkpointing full, a smaller --batch)");
    }
    if (ways.empty()) return "less memory per device";
    std::string text = ways.front();
    for (size_t i = 1; i < ways.size(); ++i)
        text += (i + 1 == ways.size() ? "; or " : "; ") + ways[i];
    return text;
}

void check_declared_memory(const Trace& trace,
                           uint64_t capacity_bytes,
                           const std::string& capacity_key) {
    if (!trace.memory || capacity_bytes == 0) return;
    const DeclaredMemory& m = *trace.memory;
    if (m.total() <= capacity_bytes) return;
    const auto part = [](uint64_t bytes) { return fmt::format("{:.1f}", bytes / kGB); };
    throw ConfigError(
        m.where, "memory",
        fmt::format("the trace needs {} per device (weights {}, gradients {}, optimizer {}, "
                    "activations {}, KV cache {}, workspace {} GB) but {} is {}: {} too much. "
                    "Would fit: {}",
                    gb(static_cast<double>(m.total())), part(m.weights), part(m.gradients),
                    part(m.optimizer), part(m.activations), part(m.kv_cache), part(m.workspace),
                    capacity_key, gb(static_cast<double>(capacity_bytes)),
                    gb(static_cast<double>(m.total() - capacity_bytes)),
                    what_would_fit(m, capacity_bytes)));
}

}  // namespace sim
