// SPDX-License-Identifier: MIT
#include "sim/engine/inference_step.h"

#include <algorithm>

#include "sim/stats/group.h"

namespace sim {

double InferenceTimes::time_per_output_token() const {
    if (generate < 2) return 0;
    return to_seconds(end - first_token) / static_cast<double>(generate - 1);
}

double InferenceTimes::tokens_per_second() const {
    const double seconds = to_seconds(end);
    return seconds > 0 ? static_cast<double>(batch * generate) / seconds : 0;
}

double InferenceTimes::decode_tokens_per_second() const {
    const double seconds = to_seconds(end - first_token);
    return generate > 1 && seconds > 0 ? static_cast<double>(batch * (generate - 1)) / seconds : 0;
}

std::optional<InferenceTimes> inference_times(const Trace& trace,
                                              const std::vector<OpResult>& results,
                                              TimePs sim_end) {
    if (!trace.inference) return std::nullopt;
    InferenceTimes t;
    t.batch = trace.inference->batch;
    t.generate = trace.inference->generate;
    t.end = sim_end;
    for (size_t i = 0; i < results.size() && i < trace.ops.size(); ++i) {
        if (trace.ops[i].token == uint64_t{0})
            t.first_token = std::max(t.first_token, results[i].end);
    }
    return t;
}

void publish_inference(StatGroup& run, const Trace& trace, const InferenceTimes& t) {
    const InferenceLayout& l = *trace.inference;
    StatGroup& g = run.add_group("inference");
    g.add_counter("batch", "count", "sequences decoded together") += l.batch;
    g.add_counter("prompt", "tokens", "prompt length per sequence") += l.prompt;
    g.add_counter("generate", "tokens", "tokens generated per sequence") += l.generate;
    g.add_scalar("time_to_first_token", "s", "the prefill and the first token (TTFT)")
        .set(to_seconds(t.first_token));
    g.add_scalar("time_per_output_token", "s", "average decode step after the first token (TPOT)")
        .set(t.time_per_output_token());
    g.add_scalar("tokens_per_second", "token/s", "batch x generated tokens / simulated time")
        .set(t.tokens_per_second());
    g.add_scalar("decode_tokens_per_second", "token/s",
                 "batch x (generated tokens - 1) / decode time")
        .set(t.decode_tokens_per_second());
    g.add_scalar("kv_cache", "B",
                 "KV-cache size at the last token, as the trace header declares it")
        .set(trace.memory ? static_cast<double>(trace.memory->kv_cache) : 0.0);
}

}  // namespace sim
