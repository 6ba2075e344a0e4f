// SPDX-License-Identifier: MIT
// libFuzzer target: JSON Lines operator traces (sim/trace/trace_parser.h). A trace that parses
// must also have a cost for every operator (sim/trace/op_cost.h), as every model asks for it.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/documented_errors.h"
#include "sim/trace/op_cost.h"
#include "sim/trace/trace_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    sim::fuzz::expect_documented_errors([&] {
        const sim::Trace trace = sim::parse_trace_jsonl(text, "fuzz.jsonl");
        for (const sim::Op& op : trace.ops)
            sim::cost_of(op);
    });
    return 0;
}
