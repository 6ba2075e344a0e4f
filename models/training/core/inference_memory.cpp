// SPDX-License-Identifier: MIT
#include "models/training/core/inference_memory.h"

#include <stdexcept>
#include <string>

#include "models/training/core/training_memory.h"

namespace sim::training {

namespace {
constexpr double kElementBytes = 2;  // bf16/fp16 weights and cache
}

InferenceMemory inference_memory(const TransformerShape& shape, const InferenceOptions& o) {
    shape.validate();
    if (o.batch < 1) throw std::invalid_argument("--batch: must be at least 1");
    if (o.prompt < 1) throw std::invalid_argument("--prompt: must be at least 1");
    if (o.generate < 1) throw std::invalid_argument("--generate: must be at least 1");
    Parallelism par;
    par.tp = o.tp;
    if (const std::string problem = par.problem(shape); !problem.empty())
        throw std::invalid_argument(problem);
    InferenceMemory m;
    m.parameters_per_gpu = parameter_shard(shape, par).total();
    m.weights = kElementBytes * m.parameters_per_gpu;
    const double kv_heads = static_cast<double>(shape.kv_heads / o.tp);
    m.kv_cache_per_token = 2 * static_cast<double>(shape.layers) * kv_heads *
                           static_cast<double>(shape.head_dim()) * kElementBytes;
    // The prefill caches the prompt; each decode step but the last one's output adds a token.
    m.cached_tokens = static_cast<double>(o.batch) * static_cast<double>(o.prompt + o.generate - 1);
    m.kv_cache = m.kv_cache_per_token * m.cached_tokens;
    return m;
}

}  // namespace sim::training
