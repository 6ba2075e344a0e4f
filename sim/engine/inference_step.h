// SPDX-License-Identifier: MIT
// The latency figures of an LLM inference trace (its header's inference: map): time to first
// token (the prefill, ops with token: 0, plus the first token's head), time per output token
// (the decode steps' average) and throughput, read off the simulated operators' end times.
#pragma once

#include <optional>
#include <vector>

#include "sim/core/types.h"
#include "sim/registry/op_model.h"
#include "sim/trace/op.h"

namespace sim {

class StatGroup;

struct InferenceTimes {
    TimePs first_token{0};  ///< when the last op of the prefill (token 0) ended
    TimePs end{0};          ///< when the last op ended
    uint64_t batch = 1, generate = 1;
    /// Average decode step: (end - first token) / (generate - 1); 0 with one token.
    double time_per_output_token() const;
    /// Every generated token of every sequence over the whole run.
    double tokens_per_second() const;
    /// Generated tokens after the first over the decode steps' time (the serving rate).
    double decode_tokens_per_second() const;
};

/// Nothing for a trace without inference: header.
std::optional<InferenceTimes> inference_times(const Trace& trace,
                                              const std::vector<OpResult>& results,
                                              TimePs sim_end);

/// run.inference.*: the layout, TTFT, TPOT, tokens/s and the declared KV-cache size.
void publish_inference(StatGroup& run, const Trace& trace, const InferenceTimes& t);

}  // namespace sim
