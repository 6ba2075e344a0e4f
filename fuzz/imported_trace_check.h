// SPDX-License-Identifier: MIT
// The promise an importer keeps (sim/import/imported_trace.h): the operators it produces form
// a trace the trace parser accepts, or `wallsim import` fails with a SimBug. A fuzz target
// checks it on every import that succeeds, as write_trace does, and aborts (a finding) when it
// is broken. An import without operators is never written, so it is not checked.
#pragma once

#include <cstdio>
#include <cstdlib>

#include "sim/core/error.h"
#include "sim/import/imported_trace.h"
#include "sim/trace/trace_parser.h"

namespace sim::fuzz {

inline void expect_parsable_import(const import::ImportedTrace& trace) {
    if (trace.ops.empty()) return;
    try {
        parse_trace_jsonl(import::to_jsonl(trace), "imported.jsonl");
    } catch (const ConfigError& e) {
        std::fprintf(stderr, "the imported trace does not parse: %s\n", e.what());
        std::abort();
    }
}

}  // namespace sim::fuzz
